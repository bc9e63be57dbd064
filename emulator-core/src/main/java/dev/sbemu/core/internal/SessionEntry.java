package dev.sbemu.core.internal;

import java.time.Instant;
import java.util.UUID;

/** One session of a session-enabled entity: its state and who holds it (SES-2..4). Guarded by the namespace's lock. */
final class SessionEntry {
    final String sessionId;
    byte[] state;
    /** When the state was last set (or cleared), on the namespace's clock; null when never. */
    Instant stateUpdatedAt;

    UUID holder;
    Instant lockedUntil;
    TimerQueue.Timer lockTimer;

    SessionEntry(String sessionId) {
        this.sessionId = sessionId;
    }

    boolean isHeld() {
        return holder != null;
    }
}
