package dev.sbemu.core;

import java.time.Instant;
import java.util.UUID;

/**
 * One session of a session-enabled queue or subscription as the namespace sees it now, for diagnostics ({@link
 * Namespace#sessions(EntityPath)}): a session that has ready messages, is held, or has kept a state.
 *
 * @param sessionId the session id
 * @param holder the lock token of the receiver that holds it, or null when none does
 * @param lockedUntil when the hold ends unless renewed, or null when not held
 * @param state the session state, or null when none is set
 * @param readyMessages its messages available to a receiver of the session now
 */
public record SessionInfo(String sessionId, UUID holder, Instant lockedUntil, byte[] state, int readyMessages) {
    /** Whether a receiver holds the session. */
    public boolean held() {
        return holder != null;
    }
}
