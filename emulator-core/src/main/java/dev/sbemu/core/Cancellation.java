package dev.sbemu.core;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ends the blocking calls made with it: a client that closes cancels its cancellation, and every
 * {@link Namespace#receive(EntityPath, ReceiveMode, int, java.time.Duration, Cancellation) receive} or
 * {@link Namespace#acceptSession(EntityPath, String, java.time.Duration, Cancellation) acceptSession}
 * waiting with it returns at once with a {@link java.util.concurrent.CancellationException}, without
 * taking a message or locking a session on the closed client's behalf; later calls with it fail the
 * same way before they look at the entity. Cancelling is final and idempotent. Thread-safe.
 *
 * <pre>{@code
 * Cancellation closing = new Cancellation();
 * // receiver thread: ns.receive(path, ReceiveMode.PEEK_LOCK, 1, Duration.ofSeconds(30), closing);
 * // closing thread:  closing.cancel();   // the receive ends now, having taken nothing
 * }</pre>
 */
public final class Cancellation {
    private final Set<Runnable> onCancel = ConcurrentHashMap.newKeySet();
    private volatile boolean cancelled;

    /** Cancels: wakes every call waiting with this cancellation; later calls fail at once. */
    public void cancel() {
        cancelled = true;
        onCancel.forEach(Runnable::run);
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * For the emulator's own blocking calls: runs {@code wake} when this is cancelled while it is
     * registered, and returns what unregisters it. A caller registers before it checks
     * {@link #isCancelled()}, so a concurrent cancel either is seen by the check or runs {@code wake}.
     */
    public Runnable onCancel(Runnable wake) {
        Objects.requireNonNull(wake, "wake");
        onCancel.add(wake);
        return () -> onCancel.remove(wake);
    }

    @Override
    public String toString() {
        return cancelled ? "Cancellation[cancelled]" : "Cancellation[active]";
    }
}
