package dev.sbemu.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The operations that can take part in a transaction (TXN-1): sends, schedules, settlements and lock renewals.
 * A {@link Namespace} applies each at once; a {@link Transaction} applies them together on commit. Code that
 * serves both ways (a client call with or without a transaction context) picks its target once and calls it.
 */
public interface MessageOperations {

    /** Sends messages to a queue or topic, all or none. */
    void send(String entity, List<Message> messages);

    /** Schedules messages for {@code at}; returns their sequence numbers. */
    long[] schedule(String entity, List<Message> messages, Instant at);

    /** Completes a locked message: it is removed. */
    void complete(EntityPath entity, UUID lockToken);

    /** Abandons a locked message: it is available again, with {@code propertiesToModify} applied. */
    void abandon(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify);

    /** Defers a locked message: it is received again only by its sequence number. */
    void defer(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify);

    /** Moves a locked message to the dead-letter sub-queue with a reason and a description. */
    void deadLetter(
            EntityPath entity,
            UUID lockToken,
            String reason,
            String description,
            Map<String, Object> propertiesToModify);

    /** Renews a message's lock; returns its new locked-until. */
    Instant renewLock(EntityPath entity, UUID lockToken);
}
