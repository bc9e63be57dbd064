package dev.sbemu.server;

import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.EmulatorConfig;
import dev.sbemu.core.config.EmulatorConfigException;
import dev.sbemu.core.config.InvalidTopologyException;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.core.config.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * One running server: an emulated namespace (topology from the Config.json, clock, tier) served by an endpoint on
 * the AMQP port and the HTTP port. {@link #start} either returns a server whose ports listen and whose entities
 * exist, having printed {@link #READY_LINE}, or throws and leaves nothing running. Thread-safe.
 */
public final class StandaloneServer implements AutoCloseable {
    /** The line printed once both ports listen and the entities exist: the one Testcontainers waits for. */
    public static final String READY_LINE = "Emulator Service is Successfully Up!";
    /** The key the connection strings of Microsoft's emulator carry; any key is accepted unless {@code --key}. */
    public static final String EMULATOR_KEY = "SAS_KEY_VALUE";

    private final Namespace namespace;
    private final ServiceBusEmulatorServer endpoint;
    private final PrintStream out;
    private final String connectionString;
    private boolean closed;

    private StandaloneServer(
            Namespace namespace, ServiceBusEmulatorServer endpoint, PrintStream out, String connectionString) {
        this.namespace = namespace;
        this.endpoint = endpoint;
        this.out = out;
        this.connectionString = connectionString;
    }

    /**
     * Loads the topology, builds the namespace and starts listening, printing what it did to {@code out}.
     *
     * @throws UsageException when the Config.json is malformed or rejected (nothing started)
     * @throws StartException when a port cannot be bound (nothing left running)
     */
    public static StandaloneServer start(CommandLineOptions options, PrintStream out) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(out, "out");
        EmulatorConfig config = null;
        if (options.config().isPresent()) {
            try {
                config = EmulatorConfig.load(options.config().get());
            } catch (EmulatorConfigException e) {
                throw new UsageException("bad Config.json: " + oneLine(e.getMessage()));
            }
        }
        if (config != null && options.strictConfig() && !config.warnings().isEmpty()) {
            throw new UsageException("bad Config.json (--strict-config): "
                    + oneLine(config.warnings().get(0)));
        }
        NamespaceSettings settings = options.namespaceSettings();
        // the first namespace of the file is the default one; each other is a namespace of its own (NS-8)
        Map<String, Topology> declared = config == null ? Map.of() : config.namespaces();
        List<Map.Entry<String, Topology>> others = new ArrayList<>(declared.entrySet());
        if (!others.isEmpty()) {
            Map.Entry<String, Topology> first = others.remove(0);
            settings = settings.withTopology(first.getValue())
                    .withMaxQueuesAndTopics(config.maxQueuesAndTopics(first.getKey()));
        }
        Namespace namespace;
        try {
            namespace = settings.start();
        } catch (InvalidTopologyException e) {
            throw new UsageException("bad Config.json: " + oneLine(e.getMessage()));
        }
        try {
            ServiceBusEmulatorServer endpoint;
            try {
                endpoint = ServiceBusEmulatorServer.start(namespace, options.endpointSettings());
            } catch (UncheckedIOException e) {
                throw new StartException(
                        "cannot listen on " + options.bindAddress().getHostAddress() + " port "
                                + options.amqpPort() + " (AMQP) or " + options.httpPort() + " (HTTP)"
                                + (options.amqpsPort() >= 0 ? " or " + options.amqpsPort() + " (AMQPS)" : "") + ": "
                                + oneLine(String.valueOf(
                                        e.getCause() != null ? e.getCause().getMessage() : e.getMessage())),
                        e);
            }
            if (options.tlsCertificate().isPresent()) {
                try {
                    writePem(endpoint.tlsCertificate(), options.tlsCertificate().get());
                } catch (IOException | CertificateEncodingException e) {
                    endpoint.close();
                    throw new StartException(
                            "cannot write the TLS certificate to "
                                    + options.tlsCertificate().get() + ": " + oneLine(String.valueOf(e.getMessage())),
                            e);
                }
            }
            String host = options.bindAddress().isAnyLocalAddress()
                            || options.bindAddress().isLoopbackAddress()
                    ? "localhost"
                    : hostOf(options.bindAddress());
            String connectionString = endpoint.getConnectionString(host);
            List<String> namespaceLines = new ArrayList<>();
            try {
                for (Map.Entry<String, Topology> other : others) {
                    endpoint.addNamespace(
                            other.getKey(),
                            settings.withTopology(other.getValue())
                                    .withMaxQueuesAndTopics(config.maxQueuesAndTopics(other.getKey())));
                    namespaceLines.add("Namespace " + other.getKey() + ": "
                            + other.getValue().queues().size()
                            + " queues, " + other.getValue().topics().size() + " topics; connection string "
                            + endpoint.getConnectionString(host, other.getKey()));
                }
            } catch (IllegalArgumentException | IllegalStateException e) {
                endpoint.close();
                throw new UsageException("bad Config.json: " + oneLine(e.getMessage()));
            }
            StandaloneServer started = new StandaloneServer(namespace, endpoint, out, connectionString);
            started.describe(options, config, host, namespaceLines);
            return started;
        } catch (RuntimeException | Error e) {
            namespace.close();
            throw e;
        }
    }

    private void describe(CommandLineOptions options, EmulatorConfig config, String host, List<String> namespaceLines) {
        out.println("sbemu-server " + version());
        for (String ignored : options.ignoredVariables()) {
            out.println("Ignoring " + ignored + ": no SQL Server is needed.");
        }
        if (config != null) {
            for (String warning : config.warnings()) {
                out.println("Config.json: " + warning
                        + " (--strict-config or SBEMU_STRICT_CONFIG=true makes this an error)");
            }
            out.println("Topology: " + config.source() + " ("
                    + namespace.queueNames().size() + " queues, "
                    + namespace.topicNames().size() + " topics)");
        } else {
            out.println("Topology: no Config.json at " + CommandLineOptions.DEFAULT_CONFIG
                    + " and no --config: the namespace starts empty (create entities through the management API)");
        }
        out.println("Clock: " + options.clockMode().name().toLowerCase(Locale.ROOT) + ", now "
                + namespace.clock().instant() + " (move it with POST /__admin/clock/advance)");
        out.println("Tier: " + options.tier().name().toLowerCase(Locale.ROOT));
        int policies = namespace.authorizationRules().size();
        String declared = policies == 0
                ? ""
                : "; the " + policies + " authorization rule" + (policies == 1 ? "" : "s")
                        + " of Config.json give their key names their rights";
        out.println(
                options.key().isPresent()
                        ? "Keys: only tokens and keys of the --key key (every right) or of Config.json's authorization "
                                + "rules are accepted, over AMQP, SASL PLAIN and HTTP; the control API /__admin/ "
                                + "needs a Manage token (a Listen token reads it)"
                        : "Keys: any shared access key is accepted, as by Microsoft's emulator, with every right"
                                + declared + " (--key KEY checks keys)");
        if (options.key().isEmpty()) {
            out.println("Control: anyone who reaches the port controls the namespace through /__admin/ (read and "
                    + "delete messages, reset, faults, the clock) and the management API; --key KEY protects both");
        }
        InetAddress bind = options.bindAddress();
        String address = hostOf(bind);
        out.println("AMQP: " + address + ":" + endpoint.port() + " (HTTP is served there too)");
        out.println("HTTP: http://" + address + ":" + endpoint.httpPort()
                + " (management REST API, /health, /__admin/; AMQP is served there too)");
        out.println("Console: http://" + address + ":" + endpoint.httpPort() + "/__admin/console/");
        if (endpoint.tlsPort() >= 0) {
            out.println("AMQPS: " + address + ":" + endpoint.tlsPort() + " (AMQP over TLS, a self-signed certificate; "
                    + "trust store " + endpoint.tlsTrustStore() + ", password "
                    + ServiceBusEmulatorServer.TLS_TRUST_STORE_PASSWORD + ", or Qpid JMS's transport.trustAll=true"
                    + "&transport.verifyHost=false)");
            out.println("WebSockets: wss://" + address + ":" + endpoint.port() + "/$servicebus/websocket and on the "
                    + "AMQPS port (TLS with the same certificate"
                    + options.tlsCertificate()
                            .map(file -> ", written in PEM to " + file.toAbsolutePath())
                            .orElse("")
                    + "); ws:// on the AMQP and HTTP ports");
        }
        if (!bind.isLoopbackAddress()) {
            out.println("Listening on " + address + ": the server is reachable from the network ("
                    + (endpoint.tlsPort() >= 0
                            ? "TLS on the AMQPS port only, with a self-signed certificate"
                            : "no TLS")
                    + "; "
                    + (options.key().isPresent()
                            ? "keys checked, /__admin/ needs a Manage token to change, Listen to read"
                            : "any key, and /__admin/ open to all")
                    + ")");
        }
        out.println("Connection string: " + connectionString);
        for (String line : namespaceLines) {
            out.println(line);
        }
        out.println(READY_LINE);
        out.flush();
    }

    /** Writes {@code certificate} to {@code file} in PEM (RFC 7468), the form CA files take. */
    private static void writePem(X509Certificate certificate, Path file)
            throws IOException, CertificateEncodingException {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(certificate.getEncoded());
        Files.writeString(file, "-----BEGIN CERTIFICATE-----\n" + base64 + "\n-----END CERTIFICATE-----\n");
    }

    private static String hostOf(InetAddress address) {
        String text = address.getHostAddress();
        return text.contains(":") ? "[" + text + "]" : text;
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    /** The server's version, from the jar (or the build's resources). */
    public static String version() {
        try (InputStream in = StandaloneServer.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }

    /** The namespace served. */
    public Namespace namespace() {
        return endpoint.namespace();
    }

    /** The namespace served under {@code name} ({@code "default"}: the first of the Config.json), or null. */
    public Namespace namespace(String name) {
        return endpoint.namespace(name);
    }

    /** The AMQP port listened on. */
    public int amqpPort() {
        return endpoint.port();
    }

    /** The HTTP port listened on. */
    public int httpPort() {
        return endpoint.httpPort();
    }

    /** The AMQP-over-TLS port ({@code --amqps-port}), or -1 when none was asked for. */
    public int amqpsPort() {
        return endpoint.tlsPort();
    }

    /** The connection string printed on start. */
    public String connectionString() {
        return connectionString;
    }

    /**
     * Closes every connection as a server being stopped does (each link detached with {@code amqp:link:detach-forced},
     * each connection closed with {@code amqp:connection:forced}, which the SDKs retry, SRV-7), stops listening and
     * closes the namespace.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            endpoint.close(ServiceBusEmulatorServer.Goodbye.CONNECTION_FORCED);
        } finally {
            endpoint.namespace().close();
            if (endpoint.namespace() != namespace) {
                namespace.close();
            }
        }
    }
}
