package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Durations;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.ErrorReason;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageState;
import dev.sbemu.core.PendingTimer.Kind;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A queue or subscription: what receivers take messages from. Holds the main store and the two
 * dead-letter sub-queues, and the settlement, expiry and lock rules (LOCK, DLQ, TTL). Every method
 * runs under the namespace's lock.
 */
abstract class MessageSource extends Entity {
    /** FWD-2: the most transfer hops a message makes; the next one sends it to the transfer dead-letter queue. */
    static final int MAX_HOPS = 4;

    static final String TTL_EXPIRED = "TTLExpiredException";
    static final String TTL_EXPIRED_DESCRIPTION = "The message expired and was dead lettered.";
    static final StoredMessage.DeadLetter TTL_DEAD_LETTER =
            new StoredMessage.DeadLetter(TTL_EXPIRED, TTL_EXPIRED_DESCRIPTION);
    static final String MAX_DELIVERY = "MaxDeliveryCountExceeded";
    static final String LOCK_LOST_TEXT = "The lock supplied is invalid. Either the lock expired, or the message has "
            + "already been removed from the queue, or was received by a different receiver instance.";

    final MessageStore main;
    final MessageStore deadLetters;
    final MessageStore transferDeadLetters;
    final SessionTable sessions = new SessionTable(this);
    /** LAZY mode: messages whose expiry timer fired while they were ready; the next receive expires them. */
    private final List<StoredMessage> lazyExpiryDue = new ArrayList<>();
    /** Receive calls waiting on this entity right now (any of its stores, sessions too): ADI-5. */
    private int waitingReceivers;

    MessageSource(EntityRegistry registry, EntityPath path) {
        super(registry, path.entityName());
        this.main = new MessageStore(path, new Signal(services));
        this.deadLetters = new MessageStore(path.withSubQueue(EntityPath.Part.DEAD_LETTER_QUEUE), new Signal(services));
        this.transferDeadLetters =
                new MessageStore(path.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE), new Signal(services));
        this.main.readyOrChanged.sessions = sessions;
    }

    abstract Duration lockDuration();

    abstract int maxDeliveryCount();

    /** The entity's effective default TTL (TTL-6, TTL-8). */
    abstract Duration defaultTimeToLive();

    abstract boolean deadLetteringOnMessageExpiration();

    abstract String forwardTo();

    abstract String forwardDeadLetteredMessagesTo();

    abstract boolean requiresSession();

    MessageStore store(EntityPath.Part subQueue) {
        return switch (subQueue) {
            case NONE -> main;
            case DEAD_LETTER_QUEUE -> deadLetters;
            case TRANSFER_DEAD_LETTER_QUEUE -> transferDeadLetters;
        };
    }

    // ---- arrival ------------------------------------------------------------------------------

    /** Takes a message whose sequence number and enqueued time are set: forwards it or makes it ready. */
    void enqueue(StoredMessage m) {
        if (forwardTo() != null) {
            forward(m, forwardTo(), false);
            return;
        }
        Duration ttl =
                m.message.timeToLive() == null ? defaultTimeToLive() : min(m.message.timeToLive(), defaultTimeToLive());
        m.expiresAt = Durations.plusOrNever(m.enqueuedTime, ttl);
        m.state = MessageState.ACTIVE;
        main.add(m);
        if (m.expiresAt != null) {
            if (services.expiryMode == ExpiryMode.EAGER && m.isExpiredAt(services.now())) {
                expire(m);
                return;
            }
            m.expiryTimer = services.timers.schedule(
                    m.expiresAt, TimerQueue.Label.message(Kind.MESSAGE_EXPIRY, main.pathText, m), () -> onExpiryDue(m));
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** FWD-1..3: hands a message on to another entity, or to this entity's transfer dead-letter queue. */
    private void forward(StoredMessage m, String targetName, boolean fromDeadLetters) {
        StoredMessage forwarded = m.copy(m.message);
        forwarded.hopCount = (byte) (m.hopCount + 1);
        forwarded.enqueuedSequenceNumber = m.enqueuedSequenceNumber > 0 ? m.enqueuedSequenceNumber : m.sequenceNumber;
        forwarded.scheduledEnqueueTime = null;
        if (forwarded.hopCount > MAX_HOPS) {
            addTransferDeadLetter(
                    m,
                    "MaxTransferHopCountExceeded",
                    "The message exceeded the maximum of " + MAX_HOPS + " transfer hops.");
            return;
        }
        SendTarget target = registry.sendTargetOrNull(targetName);
        if (target == null) {
            addTransferDeadLetter(
                    m,
                    "MessagingEntityNotFound",
                    "The forwarding destination '" + targetName + "' could not be found.");
            return;
        }
        try {
            target.checkSendable(forwarded);
            // a full destination refuses a forwarded message as it refuses a send (RES-5, FWD-3)
            Sending.checkQuota(target, List.of(forwarded));
        } catch (BrokerException e) {
            addTransferDeadLetter(m, transferFailure(e.reason()), e.getMessage());
            return;
        }
        services.journal(Type.FORWARDED, fromDeadLetters ? deadLetters.pathText : main.pathText, m, "to " + targetName);
        target.intake().accept(forwarded);
    }

    /** The dead-letter reason of a forward its destination refused (FWD-3). */
    private static String transferFailure(ErrorReason reason) {
        return switch (reason) {
            case ENTITY_DISABLED -> "MessagingEntityDisabled";
            case QUOTA_EXCEEDED -> "QuotaExceeded";
            default -> "TransferFailed";
        };
    }

    // ---- receive ------------------------------------------------------------------------------

    /** A session receiver needs a session-enabled queue or subscription (not a sub-queue) that it may receive from. */
    void checkSessionReceivable(EntityPath path) {
        if (path.subQueue() != EntityPath.Part.NONE || !requiresSession()) {
            throw new BrokerException.InvalidOperation("It is not possible for an entity that does not require "
                    + "sessions to create a sessionful message receiver. Entity: '" + path + "'.");
        }
        checkReceivable(EntityPath.Part.NONE);
    }

    /** A plain receiver on a session-enabled entity may read its dead-letter sub-queues only. */
    void checkNoSessions(EntityPath path) {
        if (path.subQueue() == EntityPath.Part.NONE && requiresSession()) {
            throw new BrokerException.InvalidOperation("It is not possible for an entity that requires sessions "
                    + "to create a non-sessionful message receiver. Entity: '" + name + "'.");
        }
    }

    void checkReceivable(EntityPath.Part subQueue) {
        if (subQueue == EntityPath.Part.NONE && forwardTo() != null) {
            throw new BrokerException.InvalidOperation("Cannot create a message receiver on an entity with "
                    + "auto-forwarding enabled. Entity: '" + name + "'.");
        }
        EntityStatus status = status();
        if (status == EntityStatus.DISABLED || status == EntityStatus.RECEIVE_DISABLED) {
            throw new BrokerException.EntityDisabled(name, status, "receive");
        }
    }

    /** A receive call starts waiting on this entity: it is not idle meanwhile (ADI-5). */
    void receiverWaits() {
        waitingReceivers++;
    }

    /** A receive call that waited on this entity ended: its idle time counts from now (ADI-5). */
    void receiverStopped() {
        waitingReceivers--;
        inUseUntilNow();
    }

    int waitingReceivers() {
        return waitingReceivers;
    }

    boolean hasWaitingReceivers() {
        return waitingReceivers > 0;
    }

    /**
     * Takes up to {@code max} ready messages at once (of one session when sessionId is set); never blocks.
     * Taking a message counts as an access; looking and finding none does not (the receive call counted once
     * when it was made, ADI-5).
     */
    List<BrokeredMessage> takeReady(MessageStore store, ReceiveMode mode, int max, SessionEntry session) {
        Instant now = services.now();
        if (store == main && services.expiryMode == ExpiryMode.LAZY) {
            expireAllDue(now);
        }
        List<BrokeredMessage> taken = new ArrayList<>(Math.min(max, 16));
        String sessionId = session == null ? null : session.sessionId;
        while (taken.size() < max) {
            StoredMessage m = store.pollReady(sessionId);
            if (m == null) {
                break;
            }
            if (store == main && m.isExpiredAt(now)) {
                expire(m);
                continue;
            }
            taken.add(deliver(store, m, mode, now, session));
        }
        if (!taken.isEmpty()) {
            touch();
        }
        return taken;
    }

    private BrokeredMessage deliver(
            MessageStore store, StoredMessage m, ReceiveMode mode, Instant now, SessionEntry session) {
        if (mode == ReceiveMode.RECEIVE_AND_DELETE) {
            store.remove(m);
            services.timers.cancel(m.expiryTimer);
            services.journal(Type.RECEIVED, store.pathText, m, "receive-and-delete");
            return m.snapshot(false, true);
        }
        store.lock(m, services.newLockToken());
        if (session != null) {
            m.sessionHolder = session.holder;
            m.lockedUntil = session.lockedUntil;
        } else {
            m.lockedUntil = now.plus(lockDuration());
            m.lockTimer = services.timers.schedule(
                    m.lockedUntil,
                    TimerQueue.Label.message(Kind.LOCK_EXPIRY, store.pathText, m),
                    () -> onLockExpired(m));
        }
        services.journal(Type.RECEIVED, store.pathText, m, "peek-lock, locked until " + m.lockedUntil);
        return m.snapshot(true, true);
    }

    /** LAZY mode: the receiver touching the entity removes what has expired (TTL-11). */
    private void expireAllDue(Instant now) {
        List<StoredMessage> due = new ArrayList<>(lazyExpiryDue);
        lazyExpiryDue.clear();
        for (StoredMessage m : due) {
            if (m.store == main && m.state == MessageState.ACTIVE && !m.isLocked() && m.isExpiredAt(now)) {
                expire(m);
            }
        }
    }

    /** Deferred messages by sequence number (DLQ-4, TTL-15): unknown numbers yield nothing. */
    List<BrokeredMessage> takeDeferred(MessageStore store, ReceiveMode mode, Collection<Long> sequenceNumbers) {
        return takeDeferred(store, mode, sequenceNumbers, null);
    }

    /** Deferred messages of a held session: only that session's, locked under the session lock. */
    List<BrokeredMessage> takeDeferredFromSession(
            SessionEntry session, ReceiveMode mode, Collection<Long> sequenceNumbers) {
        return takeDeferred(main, mode, sequenceNumbers, session);
    }

    private List<BrokeredMessage> takeDeferred(
            MessageStore store, ReceiveMode mode, Collection<Long> sequenceNumbers, SessionEntry session) {
        Instant now = services.now();
        touch();
        // DLQ-7: the request fails as a whole, before taking any, when a number is no deferred message to take
        List<StoredMessage> found = new ArrayList<>();
        List<Long> missing = new ArrayList<>();
        for (Long sequenceNumber : sequenceNumbers) {
            boolean any = false;
            for (StoredMessage m : List.copyOf(store.withSequenceNumber(sequenceNumber))) {
                if (m.state != MessageState.DEFERRED
                        || m.isLocked()
                        || (session != null && !session.sessionId.equals(m.message.sessionId()))) {
                    continue;
                }
                if (store == main && m.isExpiredAt(now)) {
                    expire(m);
                    continue;
                }
                if (!found.contains(m)) { // a number asked twice is taken once
                    found.add(m);
                }
                any = true;
            }
            if (!any) {
                missing.add(sequenceNumber);
            }
        }
        if (!missing.isEmpty()) {
            throw new BrokerException.MessageNotFound("Failed to lock one or more specified messages. Either the"
                    + " message is already locked or does not exist. Sequence numbers: " + missing + ", entity: '"
                    + store.pathText + "'.");
        }
        List<BrokeredMessage> taken = new ArrayList<>();
        for (StoredMessage m : found) {
            taken.add(deliver(store, m, mode, now, session));
        }
        return taken;
    }

    List<BrokeredMessage> peek(MessageStore store, long fromSequenceNumber, int max) {
        Instant now = services.now();
        touch();
        boolean lazy = services.expiryMode == ExpiryMode.LAZY;
        List<BrokeredMessage> peeked = new ArrayList<>(Math.min(max, 32));
        for (StoredMessage m : store.from(fromSequenceNumber)) {
            if (peeked.size() >= max) {
                break;
            }
            // TTL-15: the clock never expires a deferred message, so peek shows it past its expiry too
            if (store == main && !lazy && !m.isLocked() && m.state != MessageState.DEFERRED && m.isExpiredAt(now)) {
                continue;
            }
            peeked.add(m.snapshot(false, !lazy));
        }
        return peeked;
    }

    // ---- settlement ---------------------------------------------------------------------------

    /** The locked message of {@code token}, or MESSAGE_LOCK_LOST (DLQ-3). */
    StoredMessage lockedMessage(MessageStore store, UUID token) {
        StoredMessage m = store.locked.get(token);
        if (m == null && store.sessionful) {
            throw new BrokerException.SessionLockLost("The session lock was lost, or the message was settled "
                    + "already. Reference: " + token + ", entity: " + store.pathText);
        }
        if (m == null) {
            throw new BrokerException.MessageLockLost(
                    LOCK_LOST_TEXT + " Reference: " + token + ", entity: " + store.pathText);
        }
        if (!m.lockedUntil.isAfter(services.now())) {
            onLockExpired(m);
            throw new BrokerException.MessageLockLost(LOCK_LOST_TEXT + " Reference: " + token);
        }
        return m;
    }

    void complete(MessageStore store, UUID token) {
        StoredMessage m = lockedMessage(store, token);
        touch();
        releaseTimers(m);
        store.remove(m);
        services.journal(Type.COMPLETED, store.pathText, m, "");
    }

    void abandon(MessageStore store, UUID token, Map<String, Object> propertiesToModify) {
        StoredMessage m = lockedMessage(store, token);
        touch();
        modify(m, propertiesToModify);
        services.journal(Type.ABANDONED, store.pathText, m, "");
        endDelivery(store, m);
    }

    /** Hands a locked message back untouched: the delivery did not happen (AMQP released; no count). */
    void release(MessageStore store, UUID token) {
        StoredMessage m = lockedMessage(store, token);
        services.timers.cancel(m.lockTimer);
        store.unlock(m);
        m.sessionHolder = null;
        services.journal(Type.ABANDONED, store.pathText, m, "released");
        if (m.state == MessageState.ACTIVE) {
            store.makeReady(m);
        }
    }

    void defer(MessageStore store, UUID token, Map<String, Object> propertiesToModify) {
        StoredMessage m = lockedMessage(store, token);
        touch();
        modify(m, propertiesToModify);
        services.timers.cancel(m.lockTimer);
        store.unlock(m);
        services.timers.cancel(m.expiryTimer);
        store.setState(m, MessageState.DEFERRED);
        services.journal(Type.DEFERRED, store.pathText, m, "");
    }

    void deadLetter(
            MessageStore store, UUID token, String reason, String description, Map<String, Object> propertiesToModify) {
        if (store != main) {
            throw new BrokerException.InvalidOperation(
                    "A message cannot be dead-lettered from a dead-letter queue (" + store.pathText + ").");
        }
        StoredMessage m = lockedMessage(store, token);
        touch();
        modify(m, propertiesToModify);
        moveToDeadLetters(m, reason, description);
    }

    Instant renewLock(MessageStore store, UUID token) {
        StoredMessage m = lockedMessage(store, token);
        touch();
        if (m.sessionHolder != null) {
            throw new BrokerException.InvalidOperation("The lock of a message received from a session cannot be "
                    + "renewed: renew the session lock instead. Entity: '" + name + "'.");
        }
        services.timers.cancel(m.lockTimer);
        m.lockedUntil = services.now().plus(lockDuration());
        m.lockTimer = services.timers.schedule(
                m.lockedUntil, TimerQueue.Label.message(Kind.LOCK_EXPIRY, store.pathText, m), () -> onLockExpired(m));
        services.journal(Type.LOCK_RENEWED, store.pathText, m, "locked until " + m.lockedUntil);
        return m.lockedUntil;
    }

    private void modify(StoredMessage m, Map<String, Object> propertiesToModify) {
        if (propertiesToModify != null && !propertiesToModify.isEmpty()) {
            m.applyPendingDeadLetter();
            Message.Builder b = m.message.toBuilder();
            propertiesToModify.forEach(b::applicationProperty);
            m.message = b.build();
        }
    }

    // ---- time ---------------------------------------------------------------------------------

    private void onLockExpired(StoredMessage m) {
        MessageStore store = m.store;
        if (store == null || !m.isLocked()) {
            return;
        }
        services.journal(Type.LOCK_EXPIRED, store.pathText, m, "delivery " + (m.deliveryCount + 1));
        endDelivery(store, m);
    }

    /**
     * Ends the lock of {@code token} now, as if it had expired (an injected fault); false when that
     * token holds no lock, or holds it through a session (whose lock is the session's).
     */
    boolean loseLock(MessageStore store, UUID token) {
        StoredMessage m = store.locked.get(token);
        if (m == null || m.sessionHolder != null) {
            return false;
        }
        onLockExpired(m);
        return true;
    }

    /**
     * A delivery ended without completion (abandon or lock expiry): DLQ-2, TTL-4, TTL-10. In a dead-letter queue
     * the delivery count stays as it was dead-lettered (DLQ-6).
     */
    void endDelivery(MessageStore store, StoredMessage m) {
        services.timers.cancel(m.lockTimer);
        store.unlock(m);
        if (store != main) {
            store.makeReady(m);
            return;
        }
        m.deliveryCount++;
        if (m.isExpiredAt(services.now())) {
            expire(m);
        } else if (m.deliveryCount >= maxDeliveryCount()) {
            moveToDeadLetters(
                    m,
                    MAX_DELIVERY,
                    "Message could not be consumed after " + maxDeliveryCount() + " delivery attempts.");
        } else if (m.state == MessageState.ACTIVE) {
            store.makeReady(m);
        }
    }

    private void onExpiryDue(StoredMessage m) {
        m.expiryTimer = null;
        if (m.store == main && m.state == MessageState.ACTIVE && !m.isLocked()) {
            SessionEntry session = requiresSession() ? sessions.heldOrNull(m.message.sessionId()) : null;
            if (services.expiryMode == ExpiryMode.LAZY) {
                lazyExpiryDue.add(m);
            } else if (session != null) {
                sessions.expireAllIfAnyExpired(session, services.now()); // TTL-13: the whole session expires
            } else {
                expire(m);
            }
        }
    }

    /** TTL-9: dead-letter or drop. */
    void expire(StoredMessage m) {
        if (deadLetteringOnMessageExpiration()) {
            services.journal(Type.EXPIRED, main.pathText, m, "to the dead-letter queue");
            moveToDeadLetters(m, TTL_EXPIRED, TTL_EXPIRED_DESCRIPTION);
        } else {
            releaseTimers(m);
            main.remove(m);
            services.journal(Type.EXPIRED, main.pathText, m, "dropped");
        }
    }

    /** Moves a main-store message to the dead-letter queue, or forwards it (FWD-1). */
    void moveToDeadLetters(StoredMessage m, String reason, String description) {
        releaseTimers(m);
        if (m.store != null) {
            m.store.remove(m);
        }
        // Identity, not equals: only expire() passes these very constants, and it must get the shared
        // TTL_DEAD_LETTER, which recordDeadLetter recognises (by identity too) and records as a flag
        // instead of rebuilding the message; expiring 1e6 messages to the dead-letter queue then
        // allocates almost nothing per message (commits 6ab4ff6, 6795bc7). A caller's own reason and
        // description, even equal in value, take the general path and are merged at once: same result.
        m.recordDeadLetter(
                reason == TTL_EXPIRED && description == TTL_EXPIRED_DESCRIPTION
                        ? TTL_DEAD_LETTER
                        : new StoredMessage.DeadLetter(reason, description));
        m.state = MessageState.ACTIVE;
        services.journal(Type.DEAD_LETTERED, deadLetters.pathText, m, reason == null ? "" : reason);
        if (forwardDeadLetteredMessagesTo() != null) {
            m.applyPendingDeadLetter();
            m.deadLetterSource = name;
            forward(m, forwardDeadLetteredMessagesTo(), true);
        } else {
            deadLetters.add(m);
        }
    }

    /** A message that could not be transferred (FWD-3) lands in the transfer dead-letter queue. */
    void addTransferDeadLetter(StoredMessage m, String reason, String description) {
        Message.Builder b = m.message.toBuilder();
        b.applicationProperty(BrokeredMessage.DEAD_LETTER_REASON, reason);
        b.applicationProperty(BrokeredMessage.DEAD_LETTER_DESCRIPTION, description);
        m.message = b.build();
        m.state = MessageState.ACTIVE;
        transferDeadLetters.add(m);
        services.journal(Type.DEAD_LETTERED, transferDeadLetters.pathText, m, reason);
    }

    private void releaseTimers(StoredMessage m) {
        services.timers.cancel(m.lockTimer);
        services.timers.cancel(m.expiryTimer);
        m.lockTimer = null;
        m.expiryTimer = null;
    }

    @Override
    void onDelete() {
        for (MessageStore store : new MessageStore[] {main, deadLetters, transferDeadLetters}) {
            for (StoredMessage m : store.bySequence.values()) {
                releaseTimers(m);
                services.timers.cancel(m.scheduleTimer);
            }
            store.clear();
        }
        lazyExpiryDue.clear();
    }
}
