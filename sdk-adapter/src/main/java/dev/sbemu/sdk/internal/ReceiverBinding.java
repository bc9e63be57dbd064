package dev.sbemu.sdk.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What a receiver client is bound to, and so where it takes its messages from: a whole entity (a queue, a
 * subscription or one of their sub-queues, {@link EntityBinding}) or one accepted session of a session-enabled
 * entity ({@link SessionBinding}). Receiving, peeking and the session's lock and state depend on the binding;
 * lock renewal and hand-back go to the entity either way, as settlement does (through
 * {@link TransactionRegistry#target}). Each method is one call into the core and throws the core's exceptions.
 */
abstract class ReceiverBinding {
    final Namespace namespace;
    private final EntityPath entity;
    /** Ends a receive blocked in the core when the receiver closes. */
    final Cancellation closing = new Cancellation();

    ReceiverBinding(Namespace namespace, EntityPath entity) {
        this.namespace = namespace;
        this.entity = entity;
    }

    /** The queue, subscription or sub-queue the messages are settled on (transactions settle there too). */
    final EntityPath entity() {
        return entity;
    }

    /** The session id, or null for an entity binding. */
    abstract String sessionId();

    /** Receives; a receive blocked in the core ends when the receiver closes. */
    final List<BrokeredMessage> receive(ReceiveMode mode, int maxMessages, Duration maxWait) {
        return receive(mode, maxMessages, maxWait, closing);
    }

    /** Receives; a receive blocked in the core ends when {@code cancellation} is cancelled. */
    abstract List<BrokeredMessage> receive(
            ReceiveMode mode, int maxMessages, Duration maxWait, Cancellation cancellation);

    abstract List<BrokeredMessage> receiveDeferred(ReceiveMode mode, List<Long> sequenceNumbers);

    abstract List<BrokeredMessage> peek(long fromSequenceNumber, int maxMessages);

    final Instant renewLock(UUID lockToken) {
        return namespace.renewLock(entity, lockToken);
    }

    /** Hands a locked message back without counting a delivery (taken, but never given to the application). */
    final void release(UUID lockToken) {
        namespace.release(entity, lockToken);
    }

    /** Renews the session lock; an entity binding throws {@code IllegalStateException(notSession)}. */
    abstract Instant renewSessionLock(String notSession);

    abstract byte[] getSessionState(String notSession);

    abstract void setSessionState(String notSession, byte[] state);

    /** Lets a held session go (its link ended); nothing for an entity binding. */
    void releaseSession() {}

    /** Ends a receive blocked in the core ({@code CancellationException}) and releases what the binding holds. */
    void close() {
        closing.cancel();
    }
}
