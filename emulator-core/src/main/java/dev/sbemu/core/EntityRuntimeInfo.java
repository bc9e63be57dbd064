package dev.sbemu.core;

import java.time.Instant;

/**
 * An entity's message counts and timestamps, as the service's runtime properties report them.
 * For a topic the message counts are zero but for {@code scheduledMessageCount} and {@code sizeInBytes}.
 *
 * @param activeMessageCount messages available or locked
 * @param deferredMessageCount deferred messages
 * @param scheduledMessageCount scheduled messages not yet activated
 * @param deadLetterMessageCount messages in the dead-letter queue
 * @param transferDeadLetterMessageCount messages in the transfer dead-letter queue
 * @param totalMessageCount all of the above
 * @param sizeInBytes the approximate size of all messages held
 * @param subscriptionCount a topic's subscriptions, else 0
 * @param createdAt when the entity was created
 * @param updatedAt when it was last updated
 * @param accessedAt when it was last used; {@link #NEVER_ACCESSED} until then
 */
public record EntityRuntimeInfo(
        long activeMessageCount,
        long deferredMessageCount,
        long scheduledMessageCount,
        long deadLetterMessageCount,
        long transferDeadLetterMessageCount,
        long totalMessageCount,
        long sizeInBytes,
        int subscriptionCount,
        Instant createdAt,
        Instant updatedAt,
        Instant accessedAt) {
    /**
     * The {@code accessedAt} of an entity nobody has used yet: the service's zero time, {@code 0001-01-01T00:00:00}
     * (.NET's {@code DateTime.MinValue}), not its creation time.
     */
    public static final Instant NEVER_ACCESSED = Instant.parse("0001-01-01T00:00:00Z");
}
