package dev.sbemu.amqp.internal.transport;

import java.util.function.Consumer;

/**
 * Where an {@link OutOfMemoryError} the endpoint's threads caught is reported (RES-4). In a test's JVM nothing is
 * installed and the loop drops the one connection (AMQP-13); the standalone server installs an action that closes
 * the listeners and exits, so that a server out of memory never stays a port that accepts and never answers. Any
 * thread.
 */
public final class OutOfMemory {
    private static volatile Consumer<? super OutOfMemoryError> action = e -> {};

    private OutOfMemory() {}

    /** Runs {@code then} for every {@link OutOfMemoryError} the endpoint's threads catch from now on. */
    public static void onOutOfMemory(Consumer<? super OutOfMemoryError> then) {
        action = then == null ? e -> {} : then;
    }

    /** Reports {@code e}; never throws. */
    public static void report(Throwable e) {
        if (e instanceof OutOfMemoryError oom) {
            try {
                action.accept(oom);
            } catch (RuntimeException | Error ignored) {
                // the action did what it could
            }
        }
    }
}
