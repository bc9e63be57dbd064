package dev.sbemu.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A message as the broker hands it out on receive or peek: the sender's message (with any properties
 * changed by settlement) and the state the broker keeps. Immutable snapshot.
 *
 * @param message the message, with its application properties as they are now (DLQ reason included)
 * @param sequenceNumber the sequence number (SEQ-2)
 * @param enqueuedTime when the broker accepted or activated the message (SEQ-4)
 * @param timeToLive the effective TTL the broker reports, or null when it reports none (TTL-12, TTL-16)
 * @param expiresAt the true expiry instant, or null for never (or not computed, TTL-12)
 * @param lockToken the lock token in peek-lock mode, else null
 * @param lockedUntil the lock's end in peek-lock mode, else null
 * @param deliveryCount failed delivery attempts before this one (the wire's zero-based count, DLQ-2)
 * @param state active, deferred or scheduled
 * @param deadLetterSource the entity the message was dead-lettered in, when auto-forwarded out of a DLQ
 * @param enqueuedSequenceNumber the sequence number in the entity it was forwarded from, else 0 (FWD-2)
 * @param scheduledEnqueueTime the scheduled enqueue time, or null
 * @param partitionId the partition the message lives in, or -1 for a non-partitioned entity
 */
public record BrokeredMessage(
        Message message,
        long sequenceNumber,
        Instant enqueuedTime,
        Duration timeToLive,
        Instant expiresAt,
        UUID lockToken,
        Instant lockedUntil,
        int deliveryCount,
        MessageState state,
        String deadLetterSource,
        long enqueuedSequenceNumber,
        Instant scheduledEnqueueTime,
        int partitionId) {

    /** Application property holding the dead-letter reason (DLQ-1). */
    public static final String DEAD_LETTER_REASON = "DeadLetterReason";
    /** Application property holding the dead-letter description (DLQ-1). */
    public static final String DEAD_LETTER_DESCRIPTION = "DeadLetterErrorDescription";

    /** The dead-letter reason, or null. */
    public String deadLetterReason() {
        return (String) message.applicationProperties().get(DEAD_LETTER_REASON);
    }

    /** The dead-letter description, or null. */
    public String deadLetterErrorDescription() {
        return (String) message.applicationProperties().get(DEAD_LETTER_DESCRIPTION);
    }

    /** The body as UTF-8 text, for data bodies. */
    public String bodyAsString() {
        if (message.body() instanceof MessageBody.Data data) {
            return new String(data.bytes(), StandardCharsets.UTF_8);
        }
        if (message.body() instanceof MessageBody.DataSections sections) {
            return new String(sections.bytes(), StandardCharsets.UTF_8);
        }
        if (message.body() instanceof MessageBody.Absent) {
            return "";
        }
        return String.valueOf(message.body());
    }
}
