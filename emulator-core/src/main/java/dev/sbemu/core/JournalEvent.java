package dev.sbemu.core;

import java.time.Instant;

/**
 * One transition on the bus, at its virtual instant.
 *
 * @param at the virtual instant
 * @param type what happened
 * @param entity the entity path (with sub-queue)
 * @param sequenceNumber the message's sequence number, or -1 when the event concerns no message
 * @param messageId the message id, or null
 * @param detail more about it (reason, new sequence number, ...), or an empty string
 */
public record JournalEvent(Instant at, Type type, String entity, long sequenceNumber, String messageId, String detail) {

    /** The kinds of transition. */
    public enum Type {
        ENTITY_CREATED,
        ENTITY_UPDATED,
        ENTITY_DELETED,
        AUTO_DELETED,
        SENT,
        SCHEDULED,
        CANCELLED,
        ACTIVATED,
        DUPLICATE_DROPPED,
        FORWARDED,
        RECEIVED,
        PEEKED,
        COMPLETED,
        ABANDONED,
        DEFERRED,
        DEAD_LETTERED,
        EXPIRED,
        LOCK_RENEWED,
        LOCK_EXPIRED,
        SESSION_LOCKED,
        SESSION_RELEASED,
        SESSION_LOCK_EXPIRED,
        /** The clock jumped ahead ({@code advance}, {@code advanceTo}), frozen or running. */
        CLOCK_ADVANCED,
        /** The clock started following the wall clock ({@link VirtualClock#run()}, CLK-6). */
        CLOCK_RUNNING,
        /** The clock stopped where it stood ({@link VirtualClock#freeze()}). */
        CLOCK_FROZEN,
        /** A fault scripted through {@link Faults} acted: a failure, a delay, a lost lock. */
        FAULT_INJECTED
    }

    /** One readable line: {@code 2026-01-01T10:05:00Z  ACTIVATED  orders  #2  id=m1  (was #1)}. */
    public String format() {
        StringBuilder line = new StringBuilder()
                .append(at)
                .append("  ")
                .append(type)
                .append("  ")
                .append(entity);
        if (sequenceNumber >= 0) {
            line.append("  #").append(sequenceNumber);
        }
        if (messageId != null) {
            line.append("  id=").append(messageId);
        }
        if (!detail.isEmpty()) {
            line.append("  (").append(detail).append(')');
        }
        return line.toString();
    }
}
