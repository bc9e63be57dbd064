package dev.sbemu.core.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageState;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** One message in one store, with the state the broker keeps. Mutable; guarded by the broker's lock. */
final class StoredMessage {
    Message message;
    long sequenceNumber;
    Instant enqueuedTime;
    /** The effective TTL, or null for never. */
    Duration effectiveTtl;
    /** The true expiry instant, or null for never. */
    Instant expiresAt;
    MessageState state = MessageState.ACTIVE;
    UUID lockToken;
    Instant lockedUntil;
    int deliveryCount;
    String deadLetterSource;
    long enqueuedSequenceNumber;
    Instant scheduledEnqueueTime;
    int hopCount;
    int partitionId = -1;
    /** Which copy of the topic message this is, in a subscription with several action rules (RUL-1). */
    int copyIndex;
    /** The key in its store; set when added. */
    StoreKey key;
    final int size;

    MessageStore store;
    TimerQueue.Timer expiryTimer;
    TimerQueue.Timer lockTimer;
    TimerQueue.Timer scheduleTimer;
    /** A peek-lock receiver holds it through a session lock (sessions). */
    Object sessionHolder;
    /**
     * The dead-letter reason and description not yet merged into {@link #message}: dead-lettering
     * records them here and the message is rebuilt only when someone looks at it, so expiring many
     * messages to the dead-letter queue allocates almost nothing per message.
     */
    DeadLetter pendingDeadLetter;

    /** A dead-letter reason and description, either may be null (DLQ-1, DLQ-5). */
    record DeadLetter(String reason, String description) {
    }

    StoredMessage(Message message) {
        this.message = message;
        this.size = message.sizeInBytes();
        this.scheduledEnqueueTime = message.scheduledEnqueueTime();
    }

    /** A copy for another store (a subscription, a forward destination, ...), without store state. */
    StoredMessage copy(Message newMessage) {
        StoredMessage c = new StoredMessage(newMessage);
        c.sequenceNumber = sequenceNumber;
        c.enqueuedTime = enqueuedTime;
        c.deliveryCount = 0;
        c.deadLetterSource = deadLetterSource;
        c.enqueuedSequenceNumber = enqueuedSequenceNumber;
        c.scheduledEnqueueTime = scheduledEnqueueTime;
        c.hopCount = hopCount;
        c.partitionId = partitionId;
        return c;
    }

    boolean isLocked() {
        return lockToken != null;
    }

    boolean isExpiredAt(Instant now) {
        return expiresAt != null && !expiresAt.isAfter(now);
    }

    String messageId() {
        return message.messageId();
    }

    /** Merges a pending dead-letter reason and description into the message's application properties. */
    void applyPendingDeadLetter() {
        DeadLetter dead = pendingDeadLetter;
        if (dead == null) {
            return;
        }
        pendingDeadLetter = null;
        Message.Builder b = message.toBuilder();
        if (dead.reason() != null) {
            b.applicationProperty(BrokeredMessage.DEAD_LETTER_REASON, dead.reason());
        }
        if (dead.description() != null) {
            b.applicationProperty(BrokeredMessage.DEAD_LETTER_DESCRIPTION, dead.description());
        }
        message = b.build();
    }

    /** What a receiver or peeker sees now. {@code reportComputedExpiry} false hides a default-TTL expiry (TTL-12). */
    BrokeredMessage snapshot(boolean withLock, boolean reportComputedExpiry) {
        applyPendingDeadLetter();
        boolean hideExpiry = !reportComputedExpiry && message.timeToLive() == null;
        return new BrokeredMessage(message, sequenceNumber, enqueuedTime, hideExpiry ? null : effectiveTtl,
                hideExpiry ? null : expiresAt, withLock ? lockToken : null, withLock ? lockedUntil : null,
                deliveryCount, state, deadLetterSource, enqueuedSequenceNumber, scheduledEnqueueTime, partitionId);
    }
}
