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
 * @param accessedAt when it was last used
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
        Instant accessedAt) {}
