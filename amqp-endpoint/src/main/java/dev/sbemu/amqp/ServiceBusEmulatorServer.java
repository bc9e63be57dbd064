package dev.sbemu.amqp;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.UrlBuilder;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import dev.sbemu.amqp.internal.Endpoint;
import dev.sbemu.amqp.internal.transport.OutOfMemory;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.wire.EndpointObserver;
import dev.sbemu.wire.EndpointObservers;
import dev.sbemu.wire.InProcessAdministration;
import java.net.InetAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import reactor.core.publisher.Mono;

/**
 * An AMQP 1.0 endpoint on the loopback interface that serves one emulated {@link Namespace} in the dialect
 * the Azure Service Bus SDKs speak, so code that builds its own clients from a connection string reaches
 * the namespace unchanged:
 *
 * <pre>{@code
 * try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
 *     ServiceBusSenderClient sender = new ServiceBusClientBuilder()
 *             .connectionString(server.getConnectionString())
 *             .sender().queueName("orders").buildClient();
 *     sender.sendMessage(new ServiceBusMessage("order-42"));
 * }
 * }</pre>
 *
 * <p>The connection string is a development-emulator one ({@code UseDevelopmentEmulator=true}: plain AMQP,
 * no TLS, the port honoured) with a key that is random per server; a token signed with another key is
 * refused as unauthorized. The namespace's virtual clock rules the broker as for the in-process clients; the
 * SDK's own timers (try-timeout, receive waits, automatic lock renewal) run on the wall clock.
 *
 * <p>AMQP over TLS ({@code amqps://}, for JMS clients such as {@code ServiceBusJmsConnectionFactory}) is served on a
 * second port when {@link Builder#tlsPort(int)} asks for one, behind a certificate made for the server; {@link
 * #jmsTlsUri()}, {@link #tlsTrustStore()} and {@link #tlsClientContext()} trust it.
 *
 * <p>The same port speaks HTTP/1.1 too (told from AMQP by the first bytes): the service's management REST API
 * (authorized with the connection string's key), {@code GET /health}, and a JSON control API under
 * {@code /__admin/} (clock, journal, reset, faults, messages; described at {@code /__admin/openapi.json}), see
 * {@link #httpUrl()}.
 *
 * <p>The SDK's administration client always calls HTTPS on port 443 and ignores {@code UseDevelopmentEmulator}:
 * while the server runs, one that the application builds from {@link #getConnectionString()} is answered in
 * process from the same namespace, recognised by the server's key (spec ADM-1; needs sdk-adapter on the class path,
 * as junit5-extension and spring-boot-test-support bring it, and the test JVM's Java agent, as the README's {@code
 * argLine}). {@link #administrationClientBuilder()} does the same without the agent.
 * An administration client can also reach the endpoint over real HTTP with {@link #administrationHttpPolicy()}.
 *
 * <p>Closing the server closes every connection, ends its threads and releases the sessions and transactions
 * its clients held; the namespace itself stays open. The endpoint has the limits of a server that may face a network
 * (connections, links, frame size, idle timeout, worker threads, a token required within the handshake timeout),
 * each settable on the {@link Builder}. Thread-safe.
 */
public final class ServiceBusEmulatorServer implements AutoCloseable {
    /** The shared access key name in the connection string, as in Microsoft's emulator. */
    public static final String KEY_NAME = "RootManageSharedAccessKey";
    /** The password of {@link #tlsTrustStore()} (the file holds the TLS port's public certificate only). */
    public static final String TLS_TRUST_STORE_PASSWORD = Endpoint.TRUST_STORE_PASSWORD;

    private final Endpoint endpoint;
    private final EndpointSettings settings;
    private final EndpointObservers.Registration administration;
    /** A namespace the server started itself ({@link #start(NamespaceSettings, EndpointSettings)}), or null. */
    private volatile Namespace started;

    private ServiceBusEmulatorServer(Endpoint endpoint, EndpointSettings settings) {
        this.endpoint = endpoint;
        this.settings = settings;
        try {
            // with sdk-adapter on the class path, administration clients built from the connection string reach
            // the namespace (ADM-1); without it (the standalone server) nobody is told
            // and so do those built from another namespace's connection string (NS-2)
            this.administration = EndpointObservers.endpointStarted(
                    endpoint::namespace, endpoint.keyName(), endpoint.key(), new EndpointObserver.Named() {
                        @Override
                        public Namespace namespace(String name) {
                            return endpoint.namespace(name);
                        }

                        @Override
                        public String key(String name) {
                            return endpoint.namespace(name) == null ? null : endpoint.key(name);
                        }
                    });
        } catch (RuntimeException | Error e) {
            endpoint.close();
            throw e;
        }
    }

    /** Starts an endpoint for {@code namespace} on an ephemeral port of 127.0.0.1. */
    public static ServiceBusEmulatorServer start(Namespace namespace) {
        return builder(namespace).start();
    }

    /**
     * Starts an endpoint for {@code namespace} as {@code settings} say (the builder's setters fill the same value).
     */
    public static ServiceBusEmulatorServer start(Namespace namespace, EndpointSettings settings) {
        return builder(namespace).settings(settings).start();
    }

    /**
     * Starts a namespace from {@code namespace} and an endpoint serving it from {@code endpoint}: the two values that
     * every way to start sbemu fills (the builders, the standalone server's command line, the annotations). The server
     * owns the namespace it started: closing the server closes it. A reset restores the namespace as it was started
     * ({@link #resetSettings()}: {@code namespace} with the clock's start filled in when it was null).
     *
     * @throws dev.sbemu.core.config.InvalidTopologyException when the namespace rejects an entity of the topology
     *     (nothing is left running)
     */
    public static ServiceBusEmulatorServer start(NamespaceSettings namespace, EndpointSettings endpoint) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(endpoint, "endpoint");
        Namespace owned = namespace.start();
        try {
            ServiceBusEmulatorServer server = start(owned, endpoint);
            server.started = owned;
            return server;
        } catch (RuntimeException | Error e) {
            owned.close();
            throw e;
        }
    }

    /**
     * The settings this server was started with (ports as asked: 0 for an ephemeral one; {@link #port()} and the other
     * accessors give the ports bound).
     */
    public EndpointSettings settings() {
        return settings;
    }

    /** Configures an endpoint for {@code namespace}: port, key, limits. */
    public static Builder builder(Namespace namespace) {
        return new Builder(Objects.requireNonNull(namespace, "namespace"));
    }

    /**
     * The connection string clients use, e.g.
     * {@code Endpoint=sb://127.0.0.1:40123;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=...;UseDevelopmentEmulator=true;}
     * (the method name is the one Testcontainers' {@code ServiceBusEmulatorContainer} uses).
     */
    public String getConnectionString() {
        return connectionString("127.0.0.1", true);
    }

    /**
     * The connection string for clients that reach the endpoint by another host name, e.g. {@code localhost} or a
     * container's name: {@code Endpoint=sb://localhost;SharedAccessKeyName=...;SharedAccessKey=...;UseDevelopmentEmulator=true;}.
     * As in Microsoft's emulator's connection strings, the port is left out when it is 5672, the AMQP port the SDKs
     * assume.
     *
     * @param host the host name or address (an IPv6 address in brackets)
     */
    public String getConnectionString(String host) {
        Objects.requireNonNull(host, "host");
        return connectionString(host, port() != 5672);
    }

    private String connectionString(String host, boolean withPort) {
        return "Endpoint=sb://" + host + (withPort ? ":" + port() : "") + ";SharedAccessKeyName=" + endpoint.keyName()
                + ";SharedAccessKey=" + endpoint.key() + ";UseDevelopmentEmulator=true;";
    }

    /**
     * An {@code Authorization} header value for the control API {@code /__admin/} (and the management API): a shared
     * access signature of the server's key for its namespace, valid for an hour. With a key (the builder's default,
     * or {@link Builder#sharedAccessKey}) the control API refuses a request without one; accepting any key it needs
     * none.
     */
    public String controlAuthorization() {
        return endpoint.sign(
                "sb://127.0.0.1:" + port() + "/", java.time.Instant.now().plus(java.time.Duration.ofHours(1)));
    }

    /** The port the endpoint listens on (on 127.0.0.1). */
    public int port() {
        return endpoint.port();
    }

    /**
     * The HTTP port asked for with {@link Builder#httpPort(int)}, or -1 when none was: then HTTP is served on
     * {@link #port()} only. Like {@link #port()}, it speaks both protocols (AMQP clients may connect to it too).
     */
    public int httpPort() {
        return endpoint.httpPort();
    }

    /**
     * The base URL of the endpoint's HTTP side, e.g. {@code http://127.0.0.1:40123}: the management REST API, {@code
     * /health} and the control API under {@code /__admin/} (described at {@code /__admin/openapi.json}).
     */
    public String httpUrl() {
        return "http://127.0.0.1:" + (httpPort() >= 0 ? httpPort() : port());
    }

    /**
     * The TLS port asked for with {@link Builder#tlsPort(int)} (AMQP over TLS, {@code amqps://}, spec JMS-30), or -1
     * when none was. It serves the same namespace as {@link #port()}, with the same authentication (SASL PLAIN or
     * ANONYMOUS, then {@code $cbs}) and limits, behind a certificate made for this server.
     */
    public int tlsPort() {
        return endpoint.tlsPort();
    }

    /**
     * The TLS port's certificate: self-signed, made when the server started, for {@code localhost}, {@code
     * 127.0.0.1}, {@code ::1} and the bind address, valid for a year.
     *
     * @throws IllegalStateException when the server has no TLS port
     */
    public X509Certificate tlsCertificate() {
        return endpoint.tlsCertificate();
    }

    /**
     * An {@link SSLContext} that trusts {@link #tlsCertificate()} only, for clients that take one (Qpid JMS's {@code
     * JmsConnectionFactory.setSslContext}).
     *
     * @throws IllegalStateException when the server has no TLS port
     */
    public SSLContext tlsClientContext() {
        return endpoint.tlsClientContext();
    }

    /**
     * A PKCS12 trust store file holding {@link #tlsCertificate()} (password {@link #TLS_TRUST_STORE_PASSWORD}),
     * written on the first call and deleted when the server closes: for clients configured with a file, such as
     * Qpid JMS's {@code transport.trustStoreLocation} (see {@link #jmsTrustOptions()}).
     *
     * @throws IllegalStateException when the server has no TLS port
     */
    public Path tlsTrustStore() {
        return endpoint.tlsTrustStore();
    }

    /**
     * Qpid JMS's transport options that trust the TLS port's certificate: {@code transport.trustStoreLocation} (
     * {@link #tlsTrustStore()}), {@code transport.trustStorePassword} and {@code transport.trustStoreType}, to append
     * to an {@code amqps://} URI ({@link #jmsTlsUri()} does) or to hand to {@code ServiceBusJmsConnectionFactorySettings}
     * (docs/guide/jms.md).
     *
     * @throws IllegalStateException when the server has no TLS port
     */
    public Map<String, String> jmsTrustOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("transport.trustStoreLocation", tlsTrustStore().toString());
        options.put("transport.trustStorePassword", TLS_TRUST_STORE_PASSWORD);
        options.put("transport.trustStoreType", "PKCS12");
        return options;
    }

    /**
     * The Qpid JMS URI of the TLS port, trusting its certificate, e.g. {@code
     * amqps://localhost:40124?transport.trustStoreLocation=/tmp/sbemu-trust-1.p12&transport.trustStorePassword=...}:
     * {@code new JmsConnectionFactory(KEY_NAME, key, server.jmsTlsUri())}.
     *
     * @throws IllegalStateException when the server has no TLS port
     */
    public String jmsTlsUri() {
        StringBuilder uri = new StringBuilder("amqps://localhost:").append(tlsPort());
        char separator = '?';
        for (Map.Entry<String, String> option : jmsTrustOptions().entrySet()) {
            uri.append(separator)
                    .append(option.getKey())
                    .append('=')
                    .append(URLEncoder.encode(option.getValue(), StandardCharsets.UTF_8));
            separator = '&';
        }
        return uri.toString();
    }

    /** The namespace this endpoint serves (after a reset through {@code POST /__admin/reset}, the fresh one). */
    public Namespace namespace() {
        return endpoint.namespace();
    }

    /**
     * Serves one more namespace, started from {@code settings}, beside the default one (spec NS-1): its own entities,
     * messages, sequence numbers, sessions, clock, journal, faults and tier. Clients choose it by their connection
     * string alone, with the key name {@code <name>/<key name>} ({@link #getConnectionString(String, String)}, NS-2);
     * the control API does the same with {@code POST /__admin/namespaces}. The server closes it when it is removed
     * or the server closes.
     *
     * @param name a letter, then letters, digits and hyphens, at most 50 characters
     * @throws IllegalArgumentException for a bad name
     * @throws IllegalStateException when a namespace of that name is served already
     */
    public Namespace addNamespace(String name, NamespaceSettings settings) {
        return endpoint.addNamespace(name, Objects.requireNonNull(settings, "settings"), null);
    }

    /**
     * Stops serving the namespace {@code name} and closes it; its clients' next operations fail. False when there is
     * none.
     *
     * @throws IllegalStateException for the default namespace
     */
    public boolean removeNamespace(String name) {
        return endpoint.removeNamespace(name);
    }

    /** The namespace served under {@code name} now ({@code "default"}: {@link #namespace()}), or null. */
    public Namespace namespace(String name) {
        return endpoint.namespace(name);
    }

    /** The names of the namespaces served: {@code "default"} first, then the others in name order. */
    public List<String> namespaceNames() {
        return endpoint.namespaceNames();
    }

    /**
     * The connection string that chooses the namespace {@code name} (NS-2): as {@link #getConnectionString(String)}
     * for {@code host}, with the key name {@code <name>/<key name>}.
     */
    public String getConnectionString(String host, String name) {
        Objects.requireNonNull(host, "host");
        return "Endpoint=sb://" + host + (port() != 5672 ? ":" + port() : "") + ";SharedAccessKeyName="
                + endpoint.keyName(name) + ";SharedAccessKey=" + endpoint.key(name) + ";UseDevelopmentEmulator=true;";
    }

    /**
     * Serves {@code next} instead of the current namespace, keeping the port, the key and the open
     * connections: a client's links stay attached and their next operation reaches {@code next}, so clients
     * built once (a Spring application context's) can be handed a fresh namespace between tests. Sessions
     * held and transactions open in the previous namespace end (sessions are released, transactions rolled
     * back); a message received from it and not yet settled can no longer be settled (its lock is lost).
     * {@code next} should have the entities the clients use (a link to a missing entity fails and the SDK
     * reattaches).
     *
     * @return the previous namespace, still open: the caller closes it
     */
    public Namespace replaceNamespace(Namespace next) {
        return endpoint.replaceNamespace(Objects.requireNonNull(next, "next"));
    }

    /**
     * What {@code POST /__admin/reset} restores, as a value a test can compare: the settings of the namespace this
     * server was handed ({@link NamespaceSettings#of(Namespace)}, taken when it was handed: at start or by {@link
     * #replaceNamespace(Namespace)}), its clock's instant and mode, tier, expiry mode, journal capacity and entities. A
     * reset serves {@link NamespaceSettings#start()} of it, so {@code NamespaceSettings.of(server.namespace())} equals
     * it right after a reset.
     */
    public NamespaceSettings resetSettings() {
        return endpoint.resetSettings();
    }

    /** The number of open client connections. */
    public int connectionCount() {
        return endpoint.connectionCount();
    }

    /**
     * An administration client builder for this namespace: the SDK's own builder with an in-process HTTP
     * transport, for test code, that works without the Java agent:
     * {@code server.administrationClientBuilder().buildClient()}. (Application code needs none of this: one built
     * from {@link #getConnectionString()} reaches the namespace too, spec ADM-1.)
     */
    public ServiceBusAdministrationClientBuilder administrationClientBuilder() {
        return InProcessAdministration.builder(namespace());
    }

    /**
     * The in-process HTTP transport of this namespace's administration clients, for a builder that must not
     * depend on the Java agent (ADM-1 routes clients built from the connection string without it):
     * {@code new ServiceBusAdministrationClientBuilder().connectionString(cs).httpClient(server.administrationHttpClient())}.
     */
    public HttpClient administrationHttpClient() {
        return InProcessAdministration.httpClient(namespace());
    }

    /**
     * A pipeline policy that sends an administration client's requests to this endpoint over plain HTTP (the Java
     * SDK's administration client calls {@code https://} on the connection string's host and port 443 whatever it
     * says): {@code new ServiceBusAdministrationClientBuilder().connectionString(server.getConnectionString())
     * .addPolicy(server.administrationHttpPolicy()).buildClient()}. The requests then cross the network as
     * against the service, signed with the connection string's key, to {@link #httpUrl()}'s port (the HTTP
     * port when it was asked for); the same few lines serve code that does not
     * have sbemu on its class path (docs/guide/http-and-control.md).
     */
    public HttpPipelinePolicy administrationHttpPolicy() {
        int port = httpPort() >= 0 ? httpPort() : port();
        return new HttpPipelinePolicy() {
            @Override
            public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
                rewrite(context);
                return next.process();
            }

            @Override
            public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
                rewrite(context);
                return next.processSync();
            }

            private void rewrite(HttpPipelineCallContext context) {
                UrlBuilder url = UrlBuilder.parse(context.getHttpRequest().getUrl());
                context.getHttpRequest()
                        .setUrl(url.setScheme("http")
                                .setHost("127.0.0.1")
                                .setPort(port)
                                .toString());
            }
        };
    }

    /**
     * Stops listening, says goodbye on every connection (each link detached and the connection closed with
     * {@code com.microsoft:operation-cancelled}, which the SDK does not retry: a receive waiting on an attached link
     * fails at once), waits up to 2 s for the clients to hang up, then closes what is left and ends the endpoint's
     * threads. Idempotent.
     */
    @Override
    public void close() {
        close(Goodbye.OPERATION_CANCELLED);
    }

    /**
     * Closes as {@link #close()} does, saying {@code goodbye} on every link and connection: {@link
     * Goodbye#OPERATION_CANCELLED} for a test's teardown (clients fail at once), {@link Goodbye#CONNECTION_FORCED} for
     * a server process being stopped (clients reconnect and retry, as when a service node restarts). Idempotent: the
     * first close's goodbye is the one said.
     */
    public void close(Goodbye goodbye) {
        Objects.requireNonNull(goodbye, "goodbye");
        administration.close();
        endpoint.close(goodbye == Goodbye.CONNECTION_FORCED);
        Namespace owned = started;
        if (owned != null) {
            owned.close();
        }
    }

    /** What a closing server tells its clients (docs/spec/ AMQP-14, SRV-7). */
    public enum Goodbye {
        /**
         * {@code com.microsoft:operation-cancelled} on every link and connection: not transient for the SDKs, so a
         * waiting receive or a send fails at once instead of retrying into a closed port. The default.
         */
        OPERATION_CANCELLED,
        /**
         * {@code amqp:link:detach-forced} on every link, {@code amqp:connection:forced} on every connection: transient
         * for the SDKs, which reconnect and retry, as a client of a container being restarted should.
         */
        CONNECTION_FORCED
    }

    /**
     * Runs {@code action} for every {@link OutOfMemoryError} an endpoint's threads catch (its AMQP loop drops the one
     * connection and goes on otherwise, AMQP-13). The standalone server exits on it (RES-4); a test's JVM need not
     * install anything. Null removes the action. Global to the JVM.
     */
    public static void onOutOfMemory(Consumer<? super OutOfMemoryError> action) {
        OutOfMemory.onOutOfMemory(action);
    }

    /**
     * Settings of a {@link ServiceBusEmulatorServer}: the port and key, and the endpoint's limits (docs/spec/amqp.md
     * AMQP-19 gives each default and its source). Durations are measured on the monotonic clock
     * ({@code System.nanoTime}), not on the namespace's virtual clock.
     */
    public static final class Builder {
        private final Namespace namespace;
        private EndpointSettings settings = EndpointSettings.defaults();

        private Builder(Namespace namespace) {
            this.namespace = namespace;
        }

        /** Replaces every setting with {@code settings}; the setters below change one component each. */
        public Builder settings(EndpointSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** Replaces every limit with {@code limits}. */
        public Builder limits(EndpointLimits limits) {
            settings = settings.withLimits(Objects.requireNonNull(limits, "limits"));
            return this;
        }

        private Builder limit(EndpointLimits limits) {
            settings = settings.withLimits(limits);
            return this;
        }

        /** The port to listen on, 0 (the default) for an ephemeral one. */
        public Builder port(int port) {
            settings = settings.withPort(port);
            return this;
        }

        /**
         * The address to listen on (default: the loopback address). Anything else exposes the endpoint, which has
         * one key and no TLS on its AMQP port, to the network: do so only on a network you trust.
         */
        public Builder bindAddress(InetAddress address) {
            settings = settings.withBindAddress(Objects.requireNonNull(address, "address"));
            return this;
        }

        /**
         * Also listens on this port of the bind address (0 for an ephemeral one; see {@link #httpPort()}), for
         * configurations that expect a separate management port. It is a second listener of the same endpoint: it
         * tells HTTP from AMQP by the first bytes as the AMQP port does, with the same limits and timeouts (the
         * connection limit counts both ports), and closes with it. HTTP is served on the AMQP port either way.
         */
        public Builder httpPort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("httpPort must be between 0 and 65535, was " + port);
            }
            settings = settings.withHttpPort(port);
            return this;
        }

        /**
         * Also listens for AMQP over TLS ({@code amqps://}) on this port of the bind address: 0 for an ephemeral one
         * (see {@link ServiceBusEmulatorServer#tlsPort()}), 5671 for the one {@code ServiceBusJmsConnectionFactory}
         * and Spring's JMS starter always connect to (spec JMS-32). A certificate is made for the server when it starts
         * (an EC P-256 key, self-signed; {@link ServiceBusEmulatorServer#tlsTrustStore()} and {@link
         * ServiceBusEmulatorServer#tlsClientContext()} trust it). Needs BouncyCastle ({@code
         * org.bouncycastle:bcpkix-jdk18on}, an optional dependency of this module) on the class path: without it
         * {@link #start()} fails naming it. Off by default. With a TLS port, the plain ports take TLS too (a
         * connection whose first byte starts a TLS handshake), for AMQP over WebSockets, which the SDKs dial as {@code
         * wss://} to the connection string's port (spec AMQP-26).
         */
        public Builder tlsPort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("tlsPort must be between 0 and 65535, was " + port);
            }
            settings = settings.withTlsPort(port);
            return this;
        }

        /** The shared access key tokens must be signed with (default: random per server). */
        public Builder sharedAccessKey(String key) {
            if (key == null || key.isBlank() || key.contains(";")) {
                throw new IllegalArgumentException("sharedAccessKey must be a non-blank string without ';', was "
                        + (key == null ? "null" : "'" + key + "'"));
            }
            settings = settings.withSharedAccessKey(key);
            return this;
        }

        /** The shared access key name the connection string carries (default {@link #KEY_NAME}). */
        public Builder keyName(String keyName) {
            settings = settings.withKeyName(Objects.requireNonNull(keyName, "keyName"));
            return this;
        }

        /**
         * Accepts a token signed with any key under any key name, as Microsoft's Service Bus emulator does, so that
         * connection strings written for it ({@code SharedAccessKey=SAS_KEY_VALUE}) work unchanged; the token's form
         * and expiry are still checked (AMQP-9) and HTTP requests still need one. {@link ServiceBusEmulatorServer#getConnectionString()}
         * keeps reporting a key, which is accepted like any other. Off by default: a token must be signed with
         * {@link #sharedAccessKey(String)}'s key.
         */
        public Builder acceptAnyKey() {
            settings = settings.withAcceptAnyKey(true);
            return this;
        }

        /**
         * How long a connection may take from TCP connect to a token accepted on {@code $cbs} before it is closed
         * (default 30 s): a half-open, silent or unauthenticated socket does not hold resources for longer.
         */
        public Builder handshakeTimeout(Duration timeout) {
            return limit(settings.limits().withHandshakeTimeout(timeout));
        }

        /** The most connections open at once (default 5,000, the service's AMQP quota); more are refused. */
        public Builder maxConnections(int max) {
            return limit(settings.limits().withMaxConnections(max));
        }

        /**
         * The largest AMQP frame the endpoint takes and announces (default 64 KB, the Java SDK's own; a larger
         * message travels as several transfer frames). Each connection holds an input and an output buffer of this
         * size, so it sets the heap a connection costs.
         */
        public Builder maxFrameSize(int bytes) {
            return limit(settings.limits().withMaxFrameSize(bytes));
        }

        /**
         * The idle timeout the endpoint announces (default 60 s): a connection from which nothing arrives for this
         * long is closed; clients keep it alive with heartbeats (proton-j and rhea send them by themselves).
         */
        public Builder idleTimeout(Duration timeout) {
            return limit(settings.limits().withIdleTimeout(timeout));
        }

        /** The highest session channel a client may use (default 1023: 1024 sessions per connection). */
        public Builder channelMax(int channelMax) {
            return limit(settings.limits().withChannelMax(channelMax));
        }

        /** The most links attached at once on one connection (default 1,000); more are refused. */
        public Builder linkMax(int max) {
            return limit(settings.limits().withLinkMax(max));
        }

        /** Each session's incoming window, in frames (default 2,048). */
        public Builder sessionWindow(int frames) {
            return limit(settings.limits().withSessionWindow(frames));
        }

        /** The credit the endpoint gives each link a client sends on (default 500). */
        public Builder linkCredit(int credit) {
            return limit(settings.limits().withLinkCredit(credit));
        }

        /**
         * The most threads that wait in the broker for clients (default 512): one per receiver waiting for
         * messages, per pending session accept, per link whose calls a scripted delay holds. Work beyond them is
         * refused with {@code amqp:resource-limit-exceeded}.
         */
        public Builder workerThreads(int max) {
            return limit(settings.limits().withWorkerThreads(max));
        }

        /** The longest a client's {@code com.microsoft:timeout} may make the endpoint wait (default 5 minutes). */
        public Builder maxOperationTimeout(Duration max) {
            return limit(settings.limits().withMaxOperationTimeout(max));
        }

        /** The largest {@code $cbs} request (a token) the endpoint reads, in bytes (default 64 KB). */
        public Builder maxRequestSize(int bytes) {
            return limit(settings.limits().withMaxRequestSize(bytes));
        }

        /** The credit of a {@code $cbs} link before the connection has a token (default 10). */
        public Builder unauthenticatedCredit(int credit) {
            return limit(settings.limits().withUnauthenticatedCredit(credit));
        }

        /**
         * The most transactions one connection holds declared and not discharged (default 1,000); a Declare beyond is
         * rejected with {@code amqp:resource-limit-exceeded} (RES-1).
         */
        public Builder maxTransactionsPerConnection(int max) {
            return limit(settings.limits().withMaxTransactionsPerConnection(max));
        }

        /**
         * How long an HTTP request may take from its first byte until it is complete (default 30 s); a slower one is
         * answered 408 and its connection closed (RES-3).
         */
        public Builder requestReadTimeout(Duration timeout) {
            return limit(settings.limits().withRequestReadTimeout(timeout));
        }

        /**
         * The most connections open at once without an accepted token (default 500); more are refused with
         * {@code amqp:resource-limit-exceeded} (RES-7).
         */
        public Builder maxUnauthenticatedConnections(int max) {
            return limit(settings.limits().withMaxUnauthenticatedConnections(max));
        }

        /**
         * The most bytes of incomplete deliveries one connection may hold before a token was accepted (default 256
         * KB); past it the connection is closed with {@code amqp:resource-limit-exceeded} (RES-7).
         */
        public Builder maxUnauthenticatedBytes(int bytes) {
            return limit(settings.limits().withMaxUnauthenticatedBytes(bytes));
        }

        /** The settings the setters filled so far. */
        public EndpointSettings settings() {
            return settings;
        }

        /** Starts listening. */
        public ServiceBusEmulatorServer start() {
            EndpointSettings started = settings;
            return new ServiceBusEmulatorServer(new Endpoint(namespace, started), started);
        }
    }
}
