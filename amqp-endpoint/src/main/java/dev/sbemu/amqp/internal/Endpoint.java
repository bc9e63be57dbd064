package dev.sbemu.amqp.internal;

import dev.sbemu.core.Namespace;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

/** The running endpoint behind the public server object: the network loop and the shared context. */
public final class Endpoint implements AutoCloseable {
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final EndpointContext context;
    private final EventLoop loop;

    public Endpoint(Namespace namespace, String keyName, String key, EndpointOptions options) {
        String name = "sbemu-amqp-" + COUNT.incrementAndGet();
        this.context = new EndpointContext(namespace, keyName, key != null ? key : randomKey(), options, name);
        try {
            this.loop = new EventLoop(options, (loop, channel, refused) -> new AmqpConnection(loop, channel, context,
                    refused), name);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    private static String randomKey() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public int port() {
        return loop.port();
    }

    public Namespace namespace() {
        return context.namespace();
    }

    public Namespace replaceNamespace(Namespace next) {
        return context.replaceNamespace(next);
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
        loop.close();
        context.close();
    }
}
