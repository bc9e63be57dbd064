package dev.sbemu.core.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageState;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.UUID;

/** One message in one store, with the state the broker keeps. Mutable; guarded by the namespace's lock. */
final class StoredMessage {
    Message message;
    long sequenceNumber;
    Instant enqueuedTime;
    /** The true expiry instant (enqueued time + effective TTL), or null for never. */
    Instant expiresAt;

    MessageState state = MessageState.ACTIVE;
    UUID lockToken;
    Instant lockedUntil;
    int deliveryCount;
    String deadLetterSource;
    long enqueuedSequenceNumber;
    Instant scheduledEnqueueTime;
    /** Forwarding hops so far (at most MessageSource.MAX_HOPS + 1). */
    byte hopCount;
    /** The partition (a few dozen at most), or -1. */
    short partitionId = -1;
    /** Which copy of the topic message this is, in a subscription with several action rules (RUL-1). */
    short copyIndex;
    /** Where it is ready in a non-session store: {@link #NOT_READY}, {@link #READY_IN_ORDER}, {@link #READY_OUT_OF_ORDER}. */
    byte readyIn;

    final int size;

    MessageStore store;
    TimerQueue.Timer expiryTimer;
    TimerQueue.Timer lockTimer;
    TimerQueue.Timer scheduleTimer;
    /** A peek-lock receiver holds it through a session lock (sessions). */
    Object sessionHolder;
    /**
     * TTL expiry's dead-letter reason and description are not merged into {@link #message} yet: expiry
     * records only this flag and the message is rebuilt when someone looks at it, so expiring many
     * messages to the dead-letter queue allocates almost nothing per message. Other dead-lettering
     * merges its reason and description at once.
     */
    boolean pendingTtlDeadLetter;

    /** A dead-letter reason and description, either may be null (DLQ-1, DLQ-5). */
    record DeadLetter(String reason, String description) {}

    static final byte NOT_READY = 0;
    static final byte READY_IN_ORDER = 1;
    static final byte READY_OUT_OF_ORDER = 2;

    /**
     * The order of a store: by sequence number, then by copy. A subscription can hold several copies of one
     * topic message (one per rule with an action, RUL-1), all with the topic's number. A message's number and
     * copy do not change while it is in a store, so it is its own key in the store's trees.
     */
    static final Comparator<StoredMessage> ORDER = (a, b) -> {
        int bySequence = Long.compare(a.sequenceNumber, b.sequenceNumber);
        return bySequence != 0 ? bySequence : Integer.compare(a.copyIndex, b.copyIndex);
    };

    /** A key to look up a store's trees with. */
    static StoredMessage probe(long sequenceNumber, int copyIndex) {
        StoredMessage probe = new StoredMessage();
        probe.sequenceNumber = sequenceNumber;
        probe.copyIndex = (short) copyIndex;
        return probe;
    }

    private StoredMessage() {
        this.size = 0;
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

    /** Records a dead-lettering: TTL expiry's is merged later ({@link #pendingTtlDeadLetter}), others now. */
    void recordDeadLetter(DeadLetter dead) {
        applyPendingDeadLetter();
        if (dead == MessageSource.TTL_DEAD_LETTER) {
            pendingTtlDeadLetter = true;
        } else {
            merge(dead);
        }
    }

    /** Merges a pending dead-letter reason and description into the message's application properties. */
    void applyPendingDeadLetter() {
        if (pendingTtlDeadLetter) {
            pendingTtlDeadLetter = false;
            merge(MessageSource.TTL_DEAD_LETTER);
        }
    }

    private void merge(DeadLetter dead) {
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
        Duration effectiveTtl = expiresAt == null ? null : Duration.between(enqueuedTime, expiresAt);
        return new BrokeredMessage(
                message,
                sequenceNumber,
                enqueuedTime,
                hideExpiry ? null : effectiveTtl,
                hideExpiry ? null : expiresAt,
                withLock ? lockToken : null,
                withLock ? lockedUntil : null,
                deliveryCount,
                state,
                deadLetterSource,
                enqueuedSequenceNumber,
                scheduledEnqueueTime,
                partitionId);
    }
}
