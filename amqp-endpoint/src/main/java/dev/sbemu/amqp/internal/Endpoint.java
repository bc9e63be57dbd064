package dev.sbemu.amqp.internal;

import dev.sbemu.amqp.EndpointLimits;
import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.amqp.internal.http.AdminRoutes;
import dev.sbemu.amqp.internal.http.HttpFront;
import dev.sbemu.amqp.internal.http.HttpSplice;
import dev.sbemu.amqp.internal.jms.JmsConsumers;
import dev.sbemu.amqp.internal.jms.JmsRoutes;
import dev.sbemu.amqp.internal.jms.JmsSymbols;
import dev.sbemu.amqp.internal.link.AttachPolicy;
import dev.sbemu.amqp.internal.link.HeldSessions;
import dev.sbemu.amqp.internal.link.LinkFactory;
import dev.sbemu.amqp.internal.link.LinkRouter;
import dev.sbemu.amqp.internal.link.LinkSettings;
import dev.sbemu.amqp.internal.link.OpenReceivers;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.link.Workers;
import dev.sbemu.amqp.internal.node.NodeRoutes;
import dev.sbemu.amqp.internal.node.Transactions;
import dev.sbemu.amqp.internal.security.Authorizer;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.amqp.internal.security.SaslAuthenticator;
import dev.sbemu.amqp.internal.security.TlsMaterial;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.ConnectionSetup;
import dev.sbemu.amqp.internal.transport.EventLoop;
import dev.sbemu.amqp.internal.transport.Limits;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The running endpoint behind the public server object, and where its parts are assembled: it builds each owner of
 * state (the served namespace, the credentials, the worker threads, the transactions, the held sessions, the open
 * receivers, the JMS consumer counts, the HTTP splice) and hands each only to the parts that use it; it builds the
 * routing table from the nodes', the JMS dialect's and the links' rows; and it replaces the namespace and closes
 * everything in order. See docs/architecture.md, "amqp-endpoint".
 */
public final class Endpoint implements AutoCloseable {
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final ServedNamespace served;
    private final Credentials credentials;
    private final Workers workers;
    private final Transactions transactions;
    private final HeldSessions heldSessions;
    private final OpenReceivers receivers;
    private final EventLoop loop;
    private final HttpFront http;
    private final HttpSplice splice;
    /** Where connections that start with an HTTP request go, or null while there is none (before start, once closed). */
    private volatile HttpSplice httpHandOver;
    /** The TLS port's certificate and contexts, or null when there is no TLS port. */
    private final TlsMaterial tls;

    /** What a reset restores: the served namespace as it was handed to the endpoint, without its messages. */
    private volatile NamespaceSettings resetTo;
    /** A namespace a reset built: the endpoint closes it when it is replaced or the endpoint closes. */
    private Namespace owned;

    private volatile boolean resetting;
    private volatile boolean closed;
    /** The served namespace's state for {@code /health}: false once it is closed under the endpoint. */
    private volatile boolean servedOpen;

    private Runnable unwatch = () -> {};

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
        this.served = new ServedNamespace(namespace);
        this.credentials = new Credentials(keyName, key != null ? key : randomKey(), anyKey);
        this.workers = new Workers(configured.workerThreads(), name);
        this.transactions = new Transactions(served, configured.maxTransactionsPerConnection());
        this.heldSessions = new HeldSessions();
        this.receivers = new OpenReceivers();
        this.resetTo = NamespaceSettings.of(namespace);
        LinkFactory links = new LinkFactory(
                served,
                transactions,
                workers,
                heldSessions,
                receivers,
                new LinkSettings(
                        configured.linkCredit(),
                        configured.unauthenticatedCredit(),
                        configured.maxRequestSize(),
                        configured.maxOperationTimeout()));
        // the routing table: the nodes' rows, then the JMS dialect's; the links' own kinds come after them
        // the namespace's policies are read per check: a replaced or reset namespace brings its own (SEC-1)
        Authorizer authorizer = new Authorizer(credentials, () -> served.get().sharedAccessPolicies());
        List<AttachPolicy> policies =
                new ArrayList<>(NodeRoutes.policies(served, authorizer, transactions, heldSessions));
        policies.addAll(new JmsRoutes(served, new JmsConsumers()).policies());
        Limits limits = transportLimits(settings);
        ConnectionSetup setup = new ConnectionSetup(
                limits,
                new SaslAuthenticator(authorizer),
                connection -> new LinkRouter(connection, links, policies, authorizer),
                () -> httpHandOver,
                JmsSymbols.offeredCapabilities());
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
                    served,
                    credentials,
                    new AdminRoutes(served, this::reset),
                    () -> !closed && !resetting && servedOpen,
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
        watch(namespace);
    }

    /**
     * Serves {@code next} from now on and returns the previous namespace (left open). Sessions held in the previous
     * one end there, and so do transactions that some operation joined; a transaction only declared goes on under the
     * same id as a fresh transaction of {@code next} (a JMS transacted session always holds one, AMQP-16). Pumps
     * waiting in the previous namespace are woken so that they wait in {@code next}.
     */
    private Namespace serve(Namespace next) {
        Namespace previous = served.replace(next);
        transactions.endAll(next);
        heldSessions.releaseAll(previous);
        receivers.wakeAll();
        return previous;
    }

    /** Ends the worker threads, the transactions and the held sessions. */
    private void closeOwners() {
        workers.close();
        transactions.endAll(null);
        heldSessions.releaseAll(served.get());
    }

    /** Follows whether {@code served}, now the served namespace, is open (HTTP-3). */
    private synchronized void watch(Namespace served) {
        unwatch.run();
        servedOpen = true;
        // no lock here: the namespace runs it on the thread that closes it
        unwatch = served.onClose(() -> {
            if (this.served.get() == served) {
                servedOpen = false;
            }
        });
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

    public Namespace namespace() {
        return served.get();
    }

    public Namespace replaceNamespace(Namespace next) {
        NamespaceSettings plan = NamespaceSettings.of(next);
        Namespace previous;
        Namespace toClose;
        synchronized (this) {
            resetTo = plan;
            previous = serve(next);
            toClose = owned;
            owned = null;
        }
        watch(next);
        if (toClose != null && toClose != previous) {
            toClose.close();
        }
        return previous;
    }

    /** What a reset restores: the settings of the namespace handed to the endpoint, taken when it was handed. */
    public NamespaceSettings resetSettings() {
        return resetTo;
    }

    /** Serves a fresh namespace started from {@link #resetSettings()}: the topology, no messages, the clock at its start. */
    synchronized void reset() {
        resetting = true;
        try {
            Namespace fresh = resetTo.start();
            serve(fresh);
            watch(fresh);
            // a namespace the caller handed in is theirs and stays open (no longer served); one a reset built is closed
            if (owned != null) {
                owned.close();
            }
            owned = fresh;
        } finally {
            resetting = false;
        }
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
        Namespace toClose;
        synchronized (this) {
            toClose = owned;
            owned = null;
        }
        if (toClose != null) {
            toClose.close();
        }
    }

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
}
