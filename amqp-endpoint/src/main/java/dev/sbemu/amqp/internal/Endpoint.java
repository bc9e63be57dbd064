package dev.sbemu.amqp.internal;

import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The running endpoint behind the public server object: the network loop, the HTTP side and the shared context.
 */
public final class Endpoint implements AutoCloseable {
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final EndpointContext context;
    private final EventLoop loop;
    private final HttpFront http;
    private final HttpSplice splice;
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
        EndpointOptions options = EndpointOptions.of(settings);
        int httpPort = settings.httpPort();
        int tlsPort = settings.tlsPort();
        String key = settings.sharedAccessKey();
        String keyName = settings.keyName();
        boolean anyKey = settings.acceptAnyKey();
        this.tls = tlsPort < 0 ? null : TlsMaterial.create(options.bindAddress());
        String name = "sbemu-amqp-" + COUNT.incrementAndGet();
        this.context = new EndpointContext(namespace, keyName, key != null ? key : randomKey(), anyKey, options, name);
        this.resetTo = NamespaceSettings.of(namespace);
        try {
            // both ports are listeners of the one loop: the same limits, timeouts and sniffing (HTTP-1)
            this.loop = new EventLoop(
                    options,
                    (loop, channel, refused, secure) ->
                            new AmqpConnection(loop, channel, context, refused, secure ? tls.domain() : null),
                    name,
                    httpPort,
                    tlsPort);
        } catch (RuntimeException e) {
            context.close();
            closeTls();
            throw e;
        }
        try {
            this.http = new HttpFront(
                    context,
                    new ControlApi(context, this::reset),
                    () -> !closed && !resetting && servedOpen,
                    "127.0.0.1:" + loop.port(),
                    name);
        } catch (RuntimeException e) {
            loop.close();
            context.close();
            closeTls();
            throw e;
        }
        this.splice = new HttpSplice(http.address(), options.idleTimeout().toNanos(), name);
        context.httpSplice(splice);
        watch(namespace);
    }

    /** Follows whether {@code served}, now the served namespace, is open (HTTP-3). */
    private synchronized void watch(Namespace served) {
        unwatch.run();
        servedOpen = true;
        // no lock here: the namespace runs it on the thread that closes it
        unwatch = served.onClose(() -> {
            if (context.namespace() == served) {
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
        return context.namespace();
    }

    public Namespace replaceNamespace(Namespace next) {
        NamespaceSettings plan = NamespaceSettings.of(next);
        Namespace previous;
        Namespace toClose;
        synchronized (this) {
            resetTo = plan;
            previous = context.replaceNamespace(next);
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
            context.replaceNamespace(fresh);
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
        return context.keyName();
    }

    public String key() {
        return context.key();
    }

    public int connectionCount() {
        return loop.connectionCount();
    }

    /** The worker threads alive now (for tests and diagnostics). */
    public int workerCount() {
        return context.workerCount();
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
        context.httpSplice(null);
        loop.close(forced);
        splice.close();
        http.close();
        context.close();
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
}
