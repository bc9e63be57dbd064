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

    /** What a receiver or peeker sees now. {@code reportComputedExpiry} false hides a default-TTL expiry (TTL-12). */
    BrokeredMessage snapshot(boolean withLock, boolean reportComputedExpiry) {
        boolean hideExpiry = !reportComputedExpiry && message.timeToLive() == null;
        return new BrokeredMessage(message, sequenceNumber, enqueuedTime, hideExpiry ? null : effectiveTtl,
                hideExpiry ? null : expiresAt, withLock ? lockToken : null, withLock ? lockedUntil : null,
                deliveryCount, state, deadLetterSource, enqueuedSequenceNumber, scheduledEnqueueTime, partitionId);
    }
}
