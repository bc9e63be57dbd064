package dev.sbemu.amqp.internal;

import dev.sbemu.core.Namespace;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The running endpoint behind the public server object: the network loop, the HTTP side and the shared context.
 */
public final class Endpoint implements AutoCloseable {
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final EndpointContext context;
    private final EventLoop loop;
    private final HttpFront http;
    private final HttpSplice splice;
    private volatile Blueprint blueprint;
    /** A namespace a reset built: the endpoint closes it when it is replaced or the endpoint closes. */
    private Namespace owned;
    private volatile boolean resetting;
    private volatile boolean closed;
    /** The served namespace's state for {@code /health}: false once it is closed under the endpoint. */
    private volatile boolean servedOpen;
    private Runnable unwatch = () -> { };

    public Endpoint(Namespace namespace, String keyName, String key, EndpointOptions options) {
        this(namespace, keyName, key, options, -1);
    }

    /**
     * @param httpPort the HTTP port ({@code 0} for an ephemeral one), a second listener that speaks both protocols
     *     like the AMQP port, or -1 for none: HTTP is served on the AMQP port either way
     */
    public Endpoint(Namespace namespace, String keyName, String key, EndpointOptions options, int httpPort) {
        this(namespace, keyName, key, false, options, httpPort);
    }

    /**
     * @param anyKey whether tokens signed with any key are accepted, as by Microsoft's emulator ({@code key} is then
     *     only the one {@link #key()} reports)
     * @param httpPort the HTTP port ({@code 0} for an ephemeral one), a second listener that speaks both protocols
     *     like the AMQP port, or -1 for none: HTTP is served on the AMQP port either way
     */
    public Endpoint(Namespace namespace, String keyName, String key, boolean anyKey, EndpointOptions options,
            int httpPort) {
        String name = "sbemu-amqp-" + COUNT.incrementAndGet();
        this.context = new EndpointContext(namespace, keyName, key != null ? key : randomKey(), anyKey, options,
                name);
        this.blueprint = Blueprint.of(namespace);
        try {
            // both ports are listeners of the one loop: the same limits, timeouts and sniffing (HTTP-1)
            this.loop = new EventLoop(options, (loop, channel, refused) -> new AmqpConnection(loop, channel, context,
                    refused), name, httpPort);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
        try {
            this.http = new HttpFront(context, new ControlApi(context, this::reset),
                    () -> !closed && !resetting && servedOpen, "127.0.0.1:" + loop.port(), name);
        } catch (RuntimeException e) {
            loop.close();
            context.close();
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

    /** The HTTP port (which speaks AMQP too), or -1 when none was asked for. */
    public int httpPort() {
        return loop.secondPort();
    }

    public Namespace namespace() {
        return context.namespace();
    }

    public Namespace replaceNamespace(Namespace next) {
        Blueprint plan = Blueprint.of(next);
        Namespace previous;
        Namespace toClose;
        synchronized (this) {
            blueprint = plan;
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

    /** Serves a fresh namespace built from the blueprint: the declared topology, no messages, the clock at its start. */
    synchronized void reset() {
        resetting = true;
        try {
            Namespace fresh = blueprint.build();
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
