package dev.sbemu.amqp.internal.link;

import dev.sbemu.core.Namespace;
import java.util.function.Supplier;

/**
 * The namespace the endpoint serves now. It can be replaced while connections stay open ({@link #replace}): links,
 * nodes and the HTTP side look it up for every operation. Any thread.
 */
public final class ServedNamespace implements Supplier<Namespace> {
    private volatile Namespace namespace;
    /** Why the namespace is no longer served (it was deleted, NS-6), or null while it is. */
    private volatile String retired;

    public ServedNamespace(Namespace namespace) {
        this.namespace = namespace;
    }

    @Override
    public Namespace get() {
        String why = retired;
        if (why != null) {
            throw new IllegalStateException(why);
        }
        return namespace;
    }

    /** From now on every lookup fails with {@code why}: the namespace was deleted (NS-6). */
    public void retire(String why) {
        retired = why;
    }

    /** Serves {@code next} from now on; returns the previous namespace (left open). */
    public synchronized Namespace replace(Namespace next) {
        Namespace previous = namespace;
        namespace = next;
        return previous;
    }
}
