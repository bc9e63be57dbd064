package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.ErrorReason;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.Message;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import dev.sbemu.core.Tier;
import dev.sbemu.core.Transaction;
import dev.sbemu.core.VirtualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The state of one namespace and its messaging operations (send, receive, settle, sessions,
 * transactions); {@link EntityAdministration} manages its entities. Locking scheme: one lock per
 * namespace guards all of it, so transitions that cross entities (dead-lettering, forwarding,
 * fan-out) are atomic; blocking receivers wait on per-store conditions of that lock. Timers fire
 * under it too.
 */
public final class Broker implements VirtualClock.TimerDriver {
    private static final int MAX_HOPS = 4;
    private static final int MAX_PEEK = 250;

    private final ReentrantLock lock = new ReentrantLock();
    final TimerQueue timers = new TimerQueue();
    final Clock clock;
    final ExpiryMode expiryMode;
    final Tier tier;
    private final Consumer<JournalEvent> journal;
    final Map<String, QueueEntity> queues = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    final Map<String, TopicEntity> topics = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    /** The clock is firing timers and has not reached its target yet: blocked receivers wait for {@link #wakeAll}. */
    private boolean advancing;

    public Broker(Clock clock, ExpiryMode expiryMode, Tier tier, Consumer<JournalEvent> journal) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.expiryMode = Objects.requireNonNull(expiryMode, "expiryMode");
        this.tier = Objects.requireNonNull(tier, "tier");
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    Instant now() {
        return clock.instant();
    }

    Condition newCondition() {
        return lock.newCondition();
    }

    UUID newLockToken() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low);
    }

    void journal(Type type, String entity, StoredMessage m, String detail) {
        journal.accept(new JournalEvent(now(), type, entity, m.sequenceNumber, m.messageId(), detail));
    }

    /** An event about a session rather than a message. */
    void journal(Type type, String entity, String sessionId, String detail) {
        journal.accept(new JournalEvent(now(), type, entity, -1, null, "session " + sessionId
                + (detail.isEmpty() ? "" : ", " + detail)));
    }

    void journal(Type type, String entity, String detail) {
        journal.accept(new JournalEvent(now(), type, entity, -1, null, detail));
    }

    /** Runs {@code action} under the namespace's lock. */
    <T> T locked(Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    void locked(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    // ---- timers -------------------------------------------------------------------------------

    @Override
    public Instant nextDue() {
        return locked(timers::nextDue);
    }

    @Override
    public void fireDue(Instant now) {
        locked(() -> {
            advancing = true;
            timers.fireDue(now);
        });
    }

    // ---- sending ------------------------------------------------------------------------------

    /** Sends messages as one batch: all are accepted or none (LIM-1 counts the batch too). */
    public void send(String entityName, List<Message> messages) {
        List<StoredMessage> stored = prepare(entityName, messages);
        locked(() -> {
            SendTarget target = sendTarget(entityName);
            stored.forEach(target::checkSendable);
            stored.forEach(target.intake()::accept);
        });
    }

    /** Schedules messages for {@code at} (SCH-1); returns their sequence numbers. */
    public long[] schedule(String entityName, List<Message> messages, Instant at) {
        Objects.requireNonNull(at, "at");
        Validation.scheduledEnqueueTime(at);
        List<StoredMessage> stored = prepare(entityName, messages);
        stored.forEach(m -> m.scheduledEnqueueTime = at);
        return locked(() -> {
            SendTarget target = sendTarget(entityName);
            stored.forEach(target::checkSendable);
            return stored.stream().mapToLong(target.intake()::schedule).toArray();
        });
    }

    /** Cancels scheduled messages (SCH-2); MESSAGE_NOT_FOUND when one is not scheduled. */
    public void cancelScheduled(String entityName, Collection<Long> sequenceNumbers) {
        locked(() -> {
            SendTarget target = sendTarget(entityName);
            sequenceNumbers.forEach(target.intake()::cancelScheduled);
        });
    }

    /** Validates and sizes messages for {@code entityName} (LIM-1: the entity's or the tier's size limit). */
    List<StoredMessage> prepare(String entityName, List<Message> messages) {
        Long entityLimitKb = locked(() -> sendTarget(entityName).maxMessageSizeInKilobytes());
        int limit = entityLimitKb == null ? tier.defaultMaxMessageSizeBytes() : (int) (entityLimitKb * 1024);
        List<StoredMessage> stored = new ArrayList<>(messages.size());
        long total = 0;
        for (Message message : messages) {
            Objects.requireNonNull(message, "message");
            Validation.message(message);
            StoredMessage m = new StoredMessage(message);
            if (m.size > limit) {
                throw new BrokerException.MessageSizeExceeded(m.size, limit);
            }
            total += m.size;
            stored.add(m);
        }
        if (total > limit) {
            throw new BrokerException.MessageSizeExceeded((int) Math.min(total, Integer.MAX_VALUE), limit);
        }
        return stored;
    }

    /** FWD-1..3: hands a message on to another entity, or to the source's transfer dead-letter queue. */
    void forward(MessageSource source, StoredMessage m, String targetName, boolean fromDeadLetters) {
        StoredMessage forwarded = m.copy(m.message);
        forwarded.hopCount = (byte) (m.hopCount + 1);
        forwarded.enqueuedSequenceNumber = m.enqueuedSequenceNumber > 0 ? m.enqueuedSequenceNumber : m.sequenceNumber;
        forwarded.scheduledEnqueueTime = null;
        if (forwarded.hopCount > MAX_HOPS) {
            source.addTransferDeadLetter(m, "MaxTransferHopCountExceeded",
                    "The message exceeded the maximum of " + MAX_HOPS + " transfer hops.");
            return;
        }
        SendTarget target = queues.containsKey(targetName) ? queues.get(targetName) : topics.get(targetName);
        if (target == null) {
            source.addTransferDeadLetter(m, "MessagingEntityNotFound",
                    "The forwarding destination '" + targetName + "' could not be found.");
            return;
        }
        try {
            target.checkSendable(forwarded);
        } catch (BrokerException e) {
            source.addTransferDeadLetter(m, e.reason() == ErrorReason.ENTITY_DISABLED
                    ? "MessagingEntityDisabled" : "TransferFailed", e.getMessage());
            return;
        }
        journal(Type.FORWARDED, fromDeadLetters ? source.deadLetters.pathText : source.main.pathText, m,
                "to " + targetName);
        target.intake().accept(forwarded);
    }

    /** Starts a transaction (TXN-1). */
    public Transaction beginTransaction() {
        return new BrokerTransaction(this);
    }

    // ---- receiving ----------------------------------------------------------------------------

    /**
     * Receives up to {@code max} messages: returns what is ready at once, else waits in real time up to
     * {@code maxWait} for the first one (CLK-3, LOCK-3). A cancelled {@code cancellation} (nullable)
     * ends the call at once with a {@link CancellationException}, having taken nothing.
     */
    public List<BrokeredMessage> receive(EntityPath path, ReceiveMode mode, int max, Duration maxWait,
                                         Cancellation cancellation) {
        if (max < 1) {
            throw new IllegalArgumentException("maxMessages must be at least 1, was " + max);
        }
        long deadline = System.nanoTime() + Math.max(0, maxWait.toNanos());
        Runnable unregister = cancellation == null ? () -> { } : cancellation.onCancel(this::wakeWaiters);
        lock.lock();
        try {
            while (true) {
                checkNotCancelled(cancellation, path);
                MessageSource source = source(path);
                source.checkReceivable(path.subQueue());
                checkNoSessions(source, path);
                MessageStore store = source.store(path.subQueue());
                long left = deadline - System.nanoTime();
                List<BrokeredMessage> taken = advancing && left > 0 ? List.of()
                        : source.takeReady(store, mode, max, null);
                long remaining = deadline - System.nanoTime();
                if (!taken.isEmpty() || remaining <= 0) {
                    return taken;
                }
                store.readyOrChanged.await(remaining, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } finally {
            lock.unlock();
            unregister.run();
        }
    }

    /** Wakes every waiting receive and accept so that each re-checks its cancellation. */
    private void wakeWaiters() {
        locked(this::signalAll);
    }

    private static void checkNotCancelled(Cancellation cancellation, Object what) {
        if (cancellation != null && cancellation.isCancelled()) {
            throw new CancellationException("The call on '" + what + "' was cancelled: its client is closed.");
        }
    }

    // ---- sessions -------------------------------------------------------------------------------

    /**
     * Locks a named session, or the next available one (sessionId null), waiting in real time up to
     * {@code maxWait} for one to become free (SES-2).
     */
    public SessionLock acceptSession(EntityPath path, String sessionId, Duration maxWait,
                                     Cancellation cancellation) {
        Validation.sessionId(sessionId);
        long deadline = System.nanoTime() + Math.max(0, maxWait.toNanos());
        Runnable unregister = cancellation == null ? () -> { } : cancellation.onCancel(this::wakeWaiters);
        lock.lock();
        try {
            while (true) {
                checkNotCancelled(cancellation, path);
                MessageSource source = sessionSource(path);
                SessionEntry session = source.sessions.tryAccept(sessionId);
                if (session != null) {
                    return new SessionLock(path, session.sessionId, session.holder, session.lockedUntil);
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new BrokerException.ServiceTimeout("No session available to accept on '" + path
                            + "' within " + maxWait + ".");
                }
                source.main.readyOrChanged.await(remaining, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException.ServiceTimeout("Interrupted while waiting for a session on '" + path + "'.");
        } finally {
            lock.unlock();
            unregister.run();
        }
    }

    /** Receives from a held session: what is ready at once, else waits up to {@code maxWait} for the first. */
    public List<BrokeredMessage> receive(SessionLock session, ReceiveMode mode, int max, Duration maxWait,
                                         Cancellation cancellation) {
        if (max < 1) {
            throw new IllegalArgumentException("maxMessages must be at least 1, was " + max);
        }
        long deadline = System.nanoTime() + Math.max(0, maxWait.toNanos());
        Runnable unregister = cancellation == null ? () -> { } : cancellation.onCancel(this::wakeWaiters);
        lock.lock();
        try {
            while (true) {
                checkNotCancelled(cancellation, session.entity());
                MessageSource source = sessionSource(session.entity());
                SessionEntry held = source.sessions.held(session.sessionId(), session.token());
                long left = deadline - System.nanoTime();
                List<BrokeredMessage> taken = advancing && left > 0 ? List.of()
                        : source.sessions.take(held, mode, max);
                long remaining = deadline - System.nanoTime();
                if (!taken.isEmpty() || remaining <= 0) {
                    return taken;
                }
                source.main.readyOrChanged.await(remaining, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } finally {
            lock.unlock();
            unregister.run();
        }
    }

    /** Deferred messages of a held session, by sequence number (DLQ-4); others yield nothing. */
    public List<BrokeredMessage> receiveDeferred(SessionLock session, ReceiveMode mode,
                                                 Collection<Long> sequenceNumbers) {
        return locked(() -> {
            MessageSource source = sessionSource(session.entity());
            SessionEntry held = source.sessions.held(session.sessionId(), session.token());
            return source.takeDeferredFromSession(held, mode, sequenceNumbers);
        });
    }

    public Instant renewSessionLock(SessionLock session) {
        return locked(() -> {
            MessageSource source = sessionSource(session.entity());
            return source.sessions.renew(source.sessions.held(session.sessionId(), session.token()));
        });
    }

    public byte[] getSessionState(SessionLock session) {
        return locked(() -> {
            MessageSource source = sessionSource(session.entity());
            source.sessions.held(session.sessionId(), session.token());
            return source.sessions.state(session.sessionId());
        });
    }

    public void setSessionState(SessionLock session, byte[] state) {
        locked(() -> {
            MessageSource source = sessionSource(session.entity());
            source.sessions.setState(source.sessions.held(session.sessionId(), session.token()), state);
        });
    }

    /** Lets go of a session; a session whose lock was lost already is ignored. */
    public void releaseSession(SessionLock session) {
        locked(() -> {
            MessageSource source = sessionSource(session.entity());
            try {
                source.sessions.release(source.sessions.held(session.sessionId(), session.token()), false);
            } catch (BrokerException.SessionLockLost alreadyGone) {
                // nothing held any more
            }
        });
    }

    private MessageSource sessionSource(EntityPath path) {
        MessageSource source = source(path);
        if (path.subQueue() != EntityPath.Part.NONE || !source.requiresSession()) {
            throw new BrokerException.InvalidOperation("It is not possible for an entity that does not require "
                    + "sessions to create a sessionful message receiver. Entity: '" + path + "'.");
        }
        source.checkReceivable(EntityPath.Part.NONE);
        return source;
    }

    private static void checkNoSessions(MessageSource source, EntityPath path) {
        if (path.subQueue() == EntityPath.Part.NONE && source.requiresSession()) {
            throw new BrokerException.InvalidOperation("It is not possible for an entity that requires sessions "
                    + "to create a non-sessionful message receiver. Entity: '" + source.name + "'.");
        }
    }

    public List<BrokeredMessage> receiveDeferred(EntityPath path, ReceiveMode mode, Collection<Long> sequenceNumbers) {
        return locked(() -> {
            MessageSource source = source(path);
            source.checkReceivable(path.subQueue());
            checkNoSessions(source, path);
            return source.takeDeferred(source.store(path.subQueue()), mode, sequenceNumbers);
        });
    }

    /** PEEK-1: up to {@code max} (at most 250) messages from {@code fromSequenceNumber} on; no lock. */
    public List<BrokeredMessage> peek(EntityPath path, long fromSequenceNumber, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxMessages must be at least 1, was " + max);
        }
        return locked(() -> {
            MessageSource source = source(path);
            return source.peek(source.store(path.subQueue()), fromSequenceNumber, Math.min(max, MAX_PEEK));
        });
    }

    public void complete(EntityPath path, UUID lockToken) {
        locked(() -> {
            MessageSource source = source(path);
            source.complete(source.store(path.subQueue()), lockToken);
        });
    }

    public void abandon(EntityPath path, UUID lockToken, Map<String, Object> propertiesToModify) {
        locked(() -> {
            MessageSource source = source(path);
            source.abandon(source.store(path.subQueue()), lockToken, propertiesToModify);
        });
    }

    public void release(EntityPath path, UUID lockToken) {
        locked(() -> {
            MessageSource source = source(path);
            source.release(source.store(path.subQueue()), lockToken);
        });
    }

    public void defer(EntityPath path, UUID lockToken, Map<String, Object> propertiesToModify) {
        locked(() -> {
            MessageSource source = source(path);
            source.defer(source.store(path.subQueue()), lockToken, propertiesToModify);
        });
    }

    public void deadLetter(EntityPath path, UUID lockToken, String reason, String description,
                           Map<String, Object> propertiesToModify) {
        locked(() -> {
            MessageSource source = source(path);
            source.deadLetter(source.store(path.subQueue()), lockToken, reason, description, propertiesToModify);
        });
    }

    public Instant renewLock(EntityPath path, UUID lockToken) {
        return locked(() -> {
            MessageSource source = source(path);
            return source.renewLock(source.store(path.subQueue()), lockToken);
        });
    }

    // ---- injected faults ----------------------------------------------------------------------

    /** Runs {@code action} under the lock when the virtual clock reaches {@code due} (a delay fault). */
    public TimerQueue.Timer scheduleTimer(Instant due, Runnable action) {
        return locked(() -> timers.schedule(due, action));
    }

    public void cancelTimer(TimerQueue.Timer timer) {
        locked(() -> timers.cancel(timer));
    }

    /** Appends a journal event about an injected fault. */
    public void journalFault(String entity, String detail) {
        journal(Type.FAULT_INJECTED, entity, detail);
    }

    /**
     * Ends a message's lock now, as its expiry would (the message returns, counted as a delivery);
     * false when {@code lockToken} holds no lock on that entity, or holds it through a session.
     */
    public boolean loseLock(EntityPath path, UUID lockToken) {
        return locked(() -> {
            MessageSource source = source(path);
            return source.loseLock(source.store(path.subQueue()), lockToken);
        });
    }

    /** Ends a held session's lock now, as its expiry would; false when no receiver holds the session. */
    public boolean loseSessionLock(EntityPath path, String sessionId) {
        return locked(() -> {
            MessageSource source = sessionSource(path);
            SessionEntry held = source.sessions.heldOrNull(sessionId);
            if (held == null) {
                return false;
            }
            source.sessions.release(held, true);
            return true;
        });
    }

    /** Wakes every blocked receiver so it re-checks (after a clock advance or on close). */
    public void wakeAll() {
        locked(() -> {
            advancing = false;
            signalAll();
        });
    }

    private void signalAll() {
        for (QueueEntity queue : queues.values()) {
            signal(queue);
        }
        for (TopicEntity topic : topics.values()) {
            topic.subscriptions.values().forEach(this::signal);
        }
    }

    private void signal(MessageSource source) {
        source.main.readyOrChanged.signalAll();
        source.deadLetters.readyOrChanged.signalAll();
        source.transferDeadLetters.readyOrChanged.signalAll();
    }

    // ---- lookup and deletion ------------------------------------------------------------------

    QueueEntity queue(String name) {
        QueueEntity queue = queues.get(name);
        if (queue == null) {
            throw new BrokerException.EntityNotFound(name);
        }
        return queue;
    }

    TopicEntity topic(String name) {
        TopicEntity topic = topics.get(name);
        if (topic == null) {
            throw new BrokerException.EntityNotFound(name);
        }
        return topic;
    }

    SubscriptionEntity subscription(String topicName, String name) {
        SubscriptionEntity subscription = topic(topicName).subscriptions.get(name);
        if (subscription == null) {
            throw new BrokerException.EntityNotFound(topicName + "/Subscriptions/" + name);
        }
        return subscription;
    }

    MessageSource source(EntityPath path) {
        return path.isSubscription() ? subscription(path.topicOrQueue(), path.subscription())
                : queue(path.topicOrQueue());
    }

    SendTarget sendTarget(String name) {
        QueueEntity queue = queues.get(name);
        if (queue != null) {
            return queue;
        }
        return topic(name);
    }

    void checkNameFree(String name) {
        if (queues.containsKey(name) || topics.containsKey(name)) {
            throw new BrokerException.EntityAlreadyExists(name);
        }
    }

    void checkForwardTargets(String source, String forwardTo, String forwardDeadLetteredTo) {
        String[] properties = {"forwardTo", "forwardDeadLetteredMessagesTo"};
        String[] targets = {forwardTo, forwardDeadLetteredTo};
        for (int i = 0; i < targets.length; i++) {
            String target = targets[i];
            if (target == null) {
                continue;
            }
            if (target.equalsIgnoreCase(source)) {
                throw new InvalidOptionException(properties[i], target,
                        "an entity cannot forward to itself");
            }
            if (!queues.containsKey(target) && !topics.containsKey(target)) {
                throw new InvalidOptionException(properties[i], target,
                        "the destination must be an existing queue or topic");
            }
        }
    }

    void autoDelete(Entity entity) {
        delete(entity, Type.AUTO_DELETED);
    }

    void delete(Entity entity, Type how) {
        entity.deleted = true;
        entity.cancelAutoDelete();
        entity.onDelete();
        if (entity instanceof QueueEntity queue) {
            queues.remove(queue.name);
            signal(queue);
        } else if (entity instanceof TopicEntity topic) {
            topics.remove(topic.name);
        } else if (entity instanceof SubscriptionEntity subscription) {
            subscription.topic.subscriptions.remove(subscription.subscriptionName);
            signal(subscription);
        }
        journal(how, entity.name, how == Type.AUTO_DELETED ? "idle for " + entity.autoDeleteOnIdle() : "");
    }
}
