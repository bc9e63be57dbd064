package dev.sbemu.core;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A session held by one receiver (SES-2): pass it back to receive, renew, state and release calls.
 *
 * @param entity the session-enabled queue or subscription
 * @param sessionId the session id
 * @param token identifies this hold of the session
 * @param lockedUntil when the session lock ends unless renewed, as of the call that returned this value
 */
public record SessionLock(EntityPath entity, String sessionId, UUID token, Instant lockedUntil) {
    public SessionLock {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(lockedUntil, "lockedUntil");
    }
}
