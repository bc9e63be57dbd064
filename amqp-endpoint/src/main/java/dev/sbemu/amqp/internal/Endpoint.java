package dev.sbemu.amqp.internal;

import dev.sbemu.amqp.EndpointLimits;
import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.amqp.internal.http.AdminRoutes;
import dev.sbemu.amqp.internal.http.HttpFront;
import dev.sbemu.amqp.internal.http.HttpSplice;
import dev.sbemu.amqp.internal.http.ServedNamespaces;
import dev.sbemu.amqp.internal.jms.JmsSymbols;
import dev.sbemu.amqp.internal.link.LinkRouter;
import dev.sbemu.amqp.internal.link.LinkRoutes;
import dev.sbemu.amqp.internal.link.LinkSettings;
import dev.sbemu.amqp.internal.link.Workers;
import dev.sbemu.amqp.internal.node.TransactionRegistry;
import dev.sbemu.amqp.internal.security.Authorizer;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.amqp.internal.security.SaslAuthenticator;
import dev.sbemu.amqp.internal.security.TlsMaterial;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.ConnectionSetup;
import dev.sbemu.amqp.internal.transport.EventLoop;
import dev.sbemu.amqp.internal.transport.Limits;
import dev.sbemu.amqp.internal.transport.Traffic;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.core.config.NamespaceSettings;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * The running endpoint behind the public server object, and where its parts are assembled: it builds the shared
 * owners (the network loop, the worker threads, the HTTP front and splice) and, per namespace served, a {@link
 * HostedNamespace} with that namespace's own owners (its served namespace, key policy, transactions, held sessions,
 * open receivers, JMS consumer counts, routing table and control routes); it routes each connection to the namespace
 * its credentials chose (NS-2), creates and deletes namespaces (NS-5), and closes everything in order. See
 * docs/architecture.md, "amqp-endpoint".
 */
public final class Endpoint implements AutoCloseable {
    private static final AtomicInteger COUNT = new AtomicInteger();
    /** The name of the namespace the endpoint was handed, which clients choose by naming none (NS-2). */
    public static final String DEFAULT_NAMESPACE = "default";
    /** What a namespace name may be: a letter, then letters, digits and hyphens, at most 50 (the service's names). */
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9-]{0,49}");

    /** The namespaces served, by name: the default one and those created since (NS-1). */
    private final Map<String, HostedNamespace> hosted = new ConcurrentHashMap<>();

    private final HostedNamespace defaultNamespace;
    private final Credentials credentials;
    private final Workers workers;
    private final LinkSettings linkSettings;
    /** The transaction ids the coordinator declared, over every namespace. */
    private final TransactionRegistry transactionIds;

    private final NamespaceKeys keys = new NamespaceKeys() {
        @Override
        public String defaultName() {
            return DEFAULT_NAMESPACE;
        }

        @Override
        public Authorizer of(String name) {
            HostedNamespace one = name == null ? null : hosted.get(name);
            return one == null ? null : one.authorizer();
        }

        @Override
        public Namespace namespace(String name) {
            HostedNamespace one = name == null ? null : hosted.get(name);
            return one == null ? null : one.namespace();
        }
    };
    private final EventLoop loop;
    private final HttpFront http;
    private final HttpSplice splice;
    /** Where connections that start with an HTTP request go, or null while there is none (before start, once closed). */
    private volatile HttpSplice httpHandOver;
    /** The TLS port's certificate and contexts, or null when there is no TLS port. */
    private final TlsMaterial tls;

    private volatile boolean closed;

    /**
     * Starts serving {@code namespace} as {@code settings} say: the AMQP port, the HTTP port and the TLS port (a
     * certificate made for this endpoint, JMS-30; needs BouncyCastle on the class path) when asked, the key policy and
     * the limits.
     */
    public Endpoint(Namespace namespace, EndpointSettings settings) {
        EndpointLimits configured = settings.limits();
        int httpPort = settings.httpPort();
        int tlsPort = settings.tlsPort();
        String key = settings.sharedAccessKey();
        String keyName = settings.keyName();
        boolean anyKey = settings.acceptAnyKey();
        this.tls = tlsPort < 0 ? null : TlsMaterial.create(settings.bindAddress());
        String name = "sbemu-amqp-" + COUNT.incrementAndGet();
        this.credentials = new Credentials(keyName, key != null ? key : randomKey(), anyKey);
        this.workers = new Workers(configured.workerThreads(), name);
        this.transactionIds = new TransactionRegistry(configured.maxTransactionsPerConnection());
        this.linkSettings = new LinkSettings(
                configured.linkCredit(),
                configured.unauthenticatedCredit(),
                configured.maxRequestSize(),
                configured.maxOperationTimeout());
        this.defaultNamespace = new HostedNamespace(
                DEFAULT_NAMESPACE,
                namespace,
                false,
                credentials,
                keys,
                transactionIds,
                workers,
                linkSettings,
                () -> traffic(DEFAULT_NAMESPACE));
        hosted.put(DEFAULT_NAMESPACE, defaultNamespace);
        Limits limits = transportLimits(settings);
        ConnectionSetup setup = new ConnectionSetup(
                limits,
                new SaslAuthenticator(keys),
                connection -> new LinkRouter(connection, routesOf(connection), this::refusal),
                () -> httpHandOver,
                JmsSymbols.offeredCapabilities(),
                tls == null ? null : tls.domain());
        try {
            // both ports are listeners of the one loop: the same limits, timeouts and sniffing (HTTP-1)
            this.loop = new EventLoop(
                    limits,
                    (loop, channel, refused, secure) ->
                            new AmqpConnection(loop, channel, refused, secure ? tls.domain() : null, setup),
                    name,
                    httpPort,
                    tlsPort);
        } catch (RuntimeException e) {
            closeOwners();
            closeTls();
            throw e;
        }
        try {
            this.http = new HttpFront(
                    new HttpNamespaces(),
                    () -> !closed && defaultNamespace.healthy(),
                    "127.0.0.1:" + loop.port(),
                    name);
        } catch (RuntimeException e) {
            loop.close();
            closeOwners();
            closeTls();
            throw e;
        }
        this.splice = new HttpSplice(
                http.address(),
                configured.idleTimeout().toNanos(),
                configured.requestReadTimeout().toNanos(),
                name);
        httpHandOver = splice;
    }

    /**
     * Why {@code connection} may not use {@code right} on {@code path}, or null when it may: asked of the authorizer
     * of the namespace its credentials chose (the default's before), with that namespace's policies (SEC-3, NS-2).
     */
    private ErrorCondition refusal(AmqpConnection connection, String path, AccessRight right) {
        String chosen = connection.namespace();
        HostedNamespace one = hosted.get(chosen == null ? DEFAULT_NAMESPACE : chosen);
        if (one == null) {
            return new ErrorCondition(
                    AmqpErrors.UNAUTHORIZED, "The namespace '" + chosen + "' is no longer served by this server.");
        }
        return one.authorizer().refusal(connection, path, right);
    }

    /**
     * The links and routing table a connection's attaches use: its chosen namespace's (NS-2), the default's until its
     * credentials chose one. A connection whose namespace was deleted keeps the deleted one's (closed: its operations
     * fail) rather than reaching another.
     */
    private Supplier<LinkRoutes> routesOf(AmqpConnection connection) {
        HostedNamespace[] bound = {null};
        return () -> {
            String chosen = connection.namespace();
            HostedNamespace current = bound[0];
            if (current != null && current.name().equals(chosen)) {
                return current.routes();
            }
            HostedNamespace found = hosted.get(chosen == null ? DEFAULT_NAMESPACE : chosen);
            if (found == null) {
                if (current != null) {
                    return current.routes();
                }
                throw new IllegalStateException("The namespace '" + chosen + "' was deleted.");
            }
            if (chosen != null) {
                bound[0] = found;
            }
            return found.routes();
        };
    }

    /** Ends the worker threads and every namespace's transactions and held sessions. */
    private void closeOwners() {
        workers.close();
        for (HostedNamespace one : hosted.values()) {
            one.close();
        }
        transactionIds.clear();
    }

    private static String randomKey() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public int port() {
        return loop.port();
    }

    /** The TLS port (AMQP over TLS), or -1 when none was asked for. */
    public int tlsPort() {
        return loop.tlsPort();
    }

    /** The TLS port's certificate. */
    public X509Certificate tlsCertificate() {
        return tlsMaterial().certificate();
    }

    /** An SSL context for clients that trusts the TLS port's certificate only. */
    public SSLContext tlsClientContext() {
        return tlsMaterial().clientContext();
    }

    /** A PKCS12 trust store file with the TLS port's certificate (password {@link #TRUST_STORE_PASSWORD}). */
    public Path tlsTrustStore() {
        return tlsMaterial().trustStore();
    }

    /** The password of {@link #tlsTrustStore()}. */
    public static final String TRUST_STORE_PASSWORD = TlsMaterial.TRUST_STORE_PASSWORD;

    private TlsMaterial tlsMaterial() {
        if (tls == null) {
            throw new IllegalStateException("This endpoint has no TLS port: ask for one with "
                    + "ServiceBusEmulatorServer.builder(namespace).tlsPort(0)");
        }
        return tls;
    }

    private void closeTls() {
        if (tls != null) {
            tls.close();
        }
    }

    /** The HTTP port (which speaks AMQP too), or -1 when none was asked for. */
    public int httpPort() {
        return loop.secondPort();
    }

    /** The default namespace served now. */
    public Namespace namespace() {
        return defaultNamespace.namespace();
    }

    /** The namespace served under {@code name} now, or null when there is none. */
    public Namespace namespace(String name) {
        HostedNamespace one = hosted.get(name);
        return one == null ? null : one.namespace();
    }

    /** The names of the namespaces served, the default first, then in name order. */
    public List<String> namespaceNames() {
        List<String> names = new ArrayList<>(new TreeSet<>(hosted.keySet()));
        names.remove(DEFAULT_NAMESPACE);
        names.add(0, DEFAULT_NAMESPACE);
        return names;
    }

    /** The key name a client puts in its connection string to choose the namespace {@code name} (NS-2). */
    public String keyName(String name) {
        HostedNamespace one = hosted.get(name);
        if (one == null) {
            throw new IllegalArgumentException("No namespace named '" + name + "'.");
        }
        return one.credentials().keyName();
    }

    /** The key of the namespace {@code name}. */
    public String key(String name) {
        HostedNamespace one = hosted.get(name);
        if (one == null) {
            throw new IllegalArgumentException("No namespace named '" + name + "'.");
        }
        return one.credentials().key();
    }

    /**
     * Serves a new namespace started from {@code settings} under {@code name} (NS-1): its own entities, messages,
     * clock, journal, faults and tier; clients choose it with the key name {@code <name>/<key name>} (NS-2). The key is
     * {@code key}, or the endpoint's when null; an endpoint that accepts any key accepts any for it too unless it was given
     * a key of its own, which is then the only one it takes (NS-3), so that namespaces sharing a server keep apart.
     *
     * @throws IllegalArgumentException for a bad name
     * @throws IllegalStateException when a namespace of that name is served already
     */
    public Namespace addNamespace(String name, NamespaceSettings settings, String key) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("A namespace name is a letter, then letters, digits and hyphens, at most"
                    + " 50 characters; was '" + name + "'.");
        }
        if (closed) {
            throw new IllegalStateException("The endpoint is closed.");
        }
        if (key != null && (key.isEmpty() || key.contains(";"))) {
            throw new IllegalArgumentException("A key is not empty and holds no ';'.");
        }
        Credentials own = new Credentials(
                name + "/" + credentials.keyName(),
                key != null ? key : credentials.key(),
                // a key of its own is checked even where the endpoint takes any (NS-3)
                credentials.anyKey() && key == null);
        synchronized (hosted) {
            if (hosted.containsKey(name)) {
                throw new IllegalStateException("A namespace named '" + name + "' exists already.");
            }
            Namespace namespace = settings.start();
            hosted.put(
                    name,
                    new HostedNamespace(
                            name,
                            namespace,
                            true,
                            own,
                            keys,
                            transactionIds,
                            workers,
                            linkSettings,
                            () -> traffic(name)));
            return namespace;
        }
    }

    /**
     * Stops serving the namespace {@code name} and closes it: its messages, clock and faults end, and its clients'
     * next operations fail. False when there is none.
     *
     * @throws IllegalStateException for the default namespace
     */
    public boolean removeNamespace(String name) {
        if (DEFAULT_NAMESPACE.equals(name)) {
            throw new IllegalStateException("The default namespace cannot be deleted; reset it instead.");
        }
        HostedNamespace removed;
        synchronized (hosted) {
            removed = name == null ? null : hosted.remove(name);
        }
        if (removed == null) {
            return false;
        }
        http.forget(name);
        removed.delete();
        // NS-6: its clients are told at once; a reconnect with its key name is then refused (NS-2)
        loop.closeConnections(
                c -> name.equals(c.namespace()),
                new ErrorCondition(Symbol.valueOf("amqp:not-found"), "The namespace '" + name + "' was deleted."));
        return true;
    }

    public Namespace replaceNamespace(Namespace next) {
        return defaultNamespace.replace(next);
    }

    /** What a reset restores: the settings of the namespace handed to the endpoint, taken when it was handed. */
    public NamespaceSettings resetSettings() {
        return defaultNamespace.resetSettings();
    }

    /** Serves a fresh default namespace started from {@link #resetSettings()}. */
    void reset() {
        defaultNamespace.reset();
    }

    public String keyName() {
        return credentials.keyName();
    }

    public String key() {
        return credentials.key();
    }

    /** A token of the endpoint's key for its namespace, valid until {@code expiry} (SEC-7). */
    public String sign(String resource, Instant expiry) {
        return credentials.sign(resource, expiry);
    }

    public int connectionCount() {
        return loop.connectionCount();
    }

    /** The worker threads alive now (for tests and diagnostics). */
    public int workerCount() {
        return workers.count();
    }

    @Override
    public void close() {
        close(false);
    }

    /**
     * As {@link #close()}; {@code forced}: connections are closed with {@code amqp:connection:forced}, the goodbye
     * of a server being stopped, which clients retry (SRV-7), instead of {@code com.microsoft:operation-cancelled}.
     */
    public void close(boolean forced) {
        closed = true;
        httpHandOver = null;
        loop.close(forced);
        splice.close();
        http.close();
        closeOwners();
        closeTls();
    }

    /**
     * The connections of the namespace {@code name} and their links (CON-10); those that chose no namespace yet are
     * the default namespace's, as they will be unless their token names another.
     */
    private Traffic traffic(String name) {
        return loop.traffic(
                c -> name.equals(c.namespace() == null ? DEFAULT_NAMESPACE : c.namespace()), TRAFFIC_TIMEOUT);
    }

    /** How long the control API waits for the loop to list its connections. */
    private static final Duration TRAFFIC_TIMEOUT = Duration.ofSeconds(10);

    /** The transport's view of {@code settings}: where to listen and the limits the loop and its connections keep. */
    public static Limits transportLimits(EndpointSettings settings) {
        EndpointLimits limits = settings.limits();
        return new Limits(
                settings.bindAddress(),
                settings.port(),
                limits.maxConnections(),
                limits.maxFrameSize(),
                limits.channelMax(),
                limits.sessionWindow(),
                limits.linkMax(),
                limits.idleTimeout(),
                limits.handshakeTimeout(),
                limits.maxUnauthenticatedConnections(),
                limits.maxUnauthenticatedBytes());
    }

    /** The namespaces as the HTTP side sees them, and the control API's create, list and delete (NS-5). */
    private final class HttpNamespaces implements ServedNamespaces {
        @Override
        public NamespaceKeys keys() {
            return keys;
        }

        @Override
        public Namespace namespace(String name) {
            return Endpoint.this.namespace(name);
        }

        @Override
        public AdminRoutes admin(String name) {
            HostedNamespace one = hosted.get(name);
            return one == null ? null : one.admin();
        }

        @Override
        public Map<String, Object> describe(String name, String host) {
            HostedNamespace one = hosted.get(name);
            if (one == null) {
                return null;
            }
            String endpoint = host != null && !host.isBlank() ? host.trim() : "127.0.0.1:" + port();
            Namespace ns = one.namespace();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("name", name);
            out.put("default", DEFAULT_NAMESPACE.equals(name));
            out.put("keyName", one.credentials().keyName());
            out.put(
                    "connectionString",
                    "Endpoint=sb://" + endpoint + ";SharedAccessKeyName="
                            + one.credentials().keyName() + ";SharedAccessKey="
                            + one.credentials().key() + ";UseDevelopmentEmulator=true;");
            Map<String, Object> clock = new LinkedHashMap<>();
            try {
                clock.put("now", ns.clock().instant().toString());
                clock.put("mode", ns.clock().mode().toString());
                out.put("tier", ns.tier().toString());
                out.put("maxQueuesAndTopics", ns.maxQueuesAndTopics());
            } catch (RuntimeException e) {
                // closed under us
            }
            out.put("clock", clock);
            return out;
        }

        @Override
        public List<Map<String, Object>> list(String host) {
            List<Map<String, Object>> out = new ArrayList<>();
            for (String name : namespaceNames()) {
                Map<String, Object> one = describe(name, host);
                if (one != null) {
                    out.add(one);
                }
            }
            return out;
        }

        @Override
        public boolean create(String name, Map<String, Object> body) {
            NamespaceSettings base = defaultNamespace.resetSettings();
            NamespaceSettings settings = NamespaceSettings.defaults()
                    .withClockMode(base.clockMode())
                    .withTier(base.tier())
                    .withExpiryMode(base.expiryMode())
                    .withJournalCapacity(base.journalCapacity());
            String key = null;
            for (Map.Entry<String, Object> e : body.entrySet()) {
                Object value = e.getValue();
                switch (e.getKey()) {
                    case "name" -> {}
                    case "clock" -> settings = settings.withClockMode(clockMode(value));
                    case "startAt" -> settings = settings.withStartAt(instant(value));
                    case "tier" -> settings = settings.withTier(tier(value));
                    case "journalCapacity" -> settings = settings.withJournalCapacity(whole(value, "journalCapacity"));
                    case "key" -> key = text(value, "key");
                    case "maxQueuesAndTopics" -> {
                        int max = whole(value, "maxQueuesAndTopics");
                        if (max < 1) {
                            throw new IllegalArgumentException(
                                    "'maxQueuesAndTopics' must be at least 1, was " + value + ".");
                        }
                        settings = settings.withMaxQueuesAndTopics(max);
                    }
                    default ->
                        throw new IllegalArgumentException("Unknown setting '" + e.getKey()
                                + "'; a namespace takes name, clock, startAt, tier, journalCapacity, "
                                + "maxQueuesAndTopics and key.");
                }
            }
            if (hosted.containsKey(name)) {
                return false;
            }
            try {
                addNamespace(name, settings, key);
                return true;
            } catch (IllegalStateException e) {
                if (hosted.containsKey(name)) {
                    return false;
                }
                throw e;
            }
        }

        @Override
        public boolean delete(String name) {
            return removeNamespace(name);
        }
    }

    private static ClockMode clockMode(Object value) {
        String text = text(value, "clock").toLowerCase(Locale.ROOT);
        return switch (text) {
            case "running" -> ClockMode.RUNNING;
            case "frozen" -> ClockMode.FROZEN;
            default -> throw new IllegalArgumentException("'clock' is running or frozen, was '" + value + "'.");
        };
    }

    private static Tier tier(Object value) {
        String text = text(value, "tier");
        try {
            return Tier.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'tier' is basic, standard or premium, was '" + text + "'.");
        }
    }

    private static Instant instant(Object value) {
        String text = text(value, "startAt");
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "'startAt' is an ISO-8601 instant such as \"2030-01-01T00:00:00Z\", was '" + text + "'.");
        }
    }

    private static int whole(Object value, String field) {
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return n.intValue();
        }
        throw new IllegalArgumentException("'" + field + "' must be a whole number, was " + value + ".");
    }

    private static String text(Object value, String field) {
        if (value instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException("'" + field + "' must be a string, was " + value + ".");
    }
}
