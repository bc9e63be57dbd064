package dev.sbemu.core.internal;

import java.time.Instant;
import java.util.UUID;

/** One session of a session-enabled entity: its state and who holds it (SES-2..4). Guarded by the namespace's lock. */
final class SessionEntry {
    final String sessionId;
    byte[] state;
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
