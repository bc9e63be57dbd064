package dev.sbemu.core;

import java.time.Instant;

/**
 * One time-based transition the namespace will make when its clock reaches {@link #due()}, for diagnostics ({@link
 * Namespace#pendingTimers(int)}): what expires, activates, gets unlocked or deleted, and when.
 *
 * @param due when the transition happens
 * @param kind what happens then
 * @param entity the entity path it concerns (with sub-queue), or an empty string (a transaction's timeout)
 * @param sequenceNumber the message's sequence number, or -1 when the timer concerns no one message
 * @param messageId the message id, or null
 * @param detail more about it (a session id, a transaction), or an empty string
 */
public record PendingTimer(
        Instant due, Kind kind, String entity, long sequenceNumber, String messageId, String detail) {

    /** The kinds of timed transition. */
    public enum Kind {
        /** A message's time to live ends: it expires (dead-lettered or dropped, TTL). */
        MESSAGE_EXPIRY,
        /** A scheduled message becomes active (SCH). */
        SCHEDULED_ACTIVATION,
        /** A received message's lock ends: it becomes available again (LCK). */
        LOCK_EXPIRY,
        /** A held session's lock ends: it becomes free again. */
        SESSION_LOCK_EXPIRY,
        /** An idle entity is deleted ({@code autoDeleteOnIdle}). */
        AUTO_DELETE,
        /** A message id leaves the duplicate detection window. */
        DUPLICATE_WINDOW_END,
        /** An open transaction times out. */
        TRANSACTION_TIMEOUT,
        /** A delay injected through {@link Faults} ends. */
        FAULT_DELAY_END
    }
}
