package dev.sbemu.amqp.internal.link;

import dev.sbemu.core.Namespace;
import java.util.function.Supplier;

/**
 * The namespace the endpoint serves now. It can be replaced while connections stay open ({@link #replace}): links,
 * nodes and the HTTP side look it up for every operation. Any thread.
 */
public final class ServedNamespace implements Supplier<Namespace> {
    private volatile Namespace namespace;

    public ServedNamespace(Namespace namespace) {
        this.namespace = namespace;
    }

    @Override
    public Namespace get() {
        return namespace;
    }

    /** Serves {@code next} from now on; returns the previous namespace (left open). */
    public synchronized Namespace replace(Namespace next) {
        Namespace previous = namespace;
        namespace = next;
        return previous;
    }
}
