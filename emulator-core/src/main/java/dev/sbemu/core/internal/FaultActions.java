package dev.sbemu.core.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.PendingTimer.Kind;
import java.time.Instant;
import java.util.UUID;

/**
 * What injected faults ({@link dev.sbemu.core.Faults}) do to one namespace, beside the {@link Broker}
 * façade whose operations they fail or delay: virtual-clock timers for delays, lost message and
 * session locks, journal events. Each method takes the namespace's lock ({@link Services}).
 */
public final class FaultActions {
    private final Services services;
    private final EntityRegistry registry;

    FaultActions(EntityRegistry registry) {
        this.services = registry.services;
        this.registry = registry;
    }

    /** Runs {@code action} under the lock when the virtual clock reaches {@code due} (a delay fault). */
    public TimerQueue.Timer scheduleTimer(Instant due, String entity, String operation, Runnable action) {
        return services.locked(() -> services.timers.schedule(
                due, TimerQueue.Label.of(Kind.FAULT_DELAY_END, entity, operation + " delayed"), action));
    }

    public void cancelTimer(TimerQueue.Timer timer) {
        services.locked(() -> services.timers.cancel(timer));
    }

    /** Appends a journal event about an injected fault. */
    public void journalFault(String entity, String detail) {
        services.journal(Type.FAULT_INJECTED, entity, detail);
    }

    /**
     * Ends a message's lock now, as its expiry would (the message returns, counted as a delivery);
     * false when {@code lockToken} holds no lock on that entity, or holds it through a session.
     */
    public boolean loseLock(EntityPath path, UUID lockToken) {
        return services.locked(() -> {
            MessageSource source = registry.source(path);
            return source.loseLock(source.store(path.subQueue()), lockToken);
        });
    }

    /** Ends a held session's lock now, as its expiry would; false when no receiver holds the session. */
    public boolean loseSessionLock(EntityPath path, String sessionId) {
        return services.locked(() -> {
            MessageSource source = registry.sessionSource(path);
            SessionEntry held = source.sessions.heldOrNull(sessionId);
            if (held == null) {
                return false;
            }
            source.sessions.release(held, true);
            return true;
        });
    }
}
