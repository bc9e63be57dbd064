package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Message;
import dev.sbemu.core.PendingTimer;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionInfo;
import dev.sbemu.core.SessionLock;
import dev.sbemu.core.Tier;
import dev.sbemu.core.Transaction;
import dev.sbemu.core.VirtualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The messaging façade of one namespace (send, receive, settle, sessions, transactions) and the
 * clock's timer driver. It owns the namespace's parts: the {@link Services}, the {@link EntityRegistry},
 * the {@link EntityAdministration} (management), the {@link FaultActions} and {@link BlockingCalls};
 * none of them refers back to it. Locking (see {@link Services}): every public method takes the
 * namespace's one lock for its work, so transitions that cross entities are atomic; blocking calls
 * wait on conditions of that lock, and timers fire under it.
 */
public final class Broker implements VirtualClock.TimerDriver {
    private static final int MAX_PEEK = 250;

    private final Services services;
    private final EntityRegistry registry;
    private final EntityAdministration administration;
    private final BlockingCalls blocking;
    private final FaultActions faultActions;

    public Broker(
            Clock clock, ExpiryMode expiryMode, Tier tier, int maxQueuesAndTopics, Consumer<JournalEvent> journal) {
        this.services = new Services(clock, expiryMode, tier, maxQueuesAndTopics, journal);
        this.registry = new EntityRegistry(services);
        this.administration = new EntityAdministration(registry);
        this.blocking = new BlockingCalls(registry);
        this.faultActions = new FaultActions(registry);
    }

    /** The management side of the same namespace: its entities, under the same lock. */
    public EntityAdministration administration() {
        return administration;
    }

    /** What injected faults do to the same namespace. */
    public FaultActions faultActions() {
        return faultActions;
    }

    // ---- timers -------------------------------------------------------------------------------

    @Override
    public Instant nextDue() {
        return services.locked(services.timers::nextDue);
    }

    @Override
    public void fireDue(Instant now) {
        services.locked(() -> {
            blocking.advancing();
            services.timers.fireDue(now);
        });
    }

    /** Wakes every blocked receiver so it re-checks (after a clock advance or on close). */
    public void wakeAll() {
        blocking.wakeAll(false);
    }

    /** Wakes every blocked receiver and fires every receive-wait callback: the namespace closes. */
    public void wakeAllOnClose() {
        blocking.wakeAll(true);
    }

    // ---- sending ------------------------------------------------------------------------------

    /** Sends messages as one batch: all are accepted or none (LIM-1 counts the batch too). */
    public void send(String entityName, List<Message> messages) {
        List<StoredMessage> stored = Sending.prepare(registry, entityName, messages);
        services.locked(() -> {
            SendTarget target = registry.sendTarget(entityName);
            stored.forEach(target::checkSendable);
            Sending.checkQuota(target, stored);
            stored.forEach(target.intake()::accept);
        });
    }

    /** Schedules messages for {@code at} (SCH-1); returns their sequence numbers. */
    public long[] schedule(String entityName, List<Message> messages, Instant at) {
        Objects.requireNonNull(at, "at");
        Validation.scheduledEnqueueTime(at);
        List<StoredMessage> stored = Sending.prepare(registry, entityName, messages);
        stored.forEach(m -> m.scheduledEnqueueTime = at);
        return services.locked(() -> {
            SendTarget target = registry.sendTarget(entityName);
            stored.forEach(target::checkSendable);
            Sending.checkQuota(target, stored);
            return stored.stream().mapToLong(target.intake()::schedule).toArray();
        });
    }

    /** Cancels scheduled messages (SCH-2); MESSAGE_NOT_FOUND when one is not scheduled. */
    public void cancelScheduled(String entityName, Collection<Long> sequenceNumbers) {
        services.locked(() -> {
            SendTarget target = registry.sendTarget(entityName);
            sequenceNumbers.forEach(target.intake()::cancelScheduled);
        });
    }

    /** Starts a transaction (TXN-1). */
    public Transaction beginTransaction() {
        return new BrokerTransaction(registry);
    }

    // ---- receiving ----------------------------------------------------------------------------

    /**
     * Receives up to {@code max} messages: returns what is ready at once, else waits in real time up to
     * {@code maxWait} for the first one (CLK-3, LOCK-3). A cancelled {@code cancellation} (nullable)
     * ends the call at once with a {@link java.util.concurrent.CancellationException}, having taken nothing.
     */
    public List<BrokeredMessage> receive(
            EntityPath path, ReceiveMode mode, int max, Duration maxWait, Cancellation cancellation) {
        Validation.maxMessages(max);
        return receiving(path, maxWait, cancellation, wait -> {
            MessageSource source = registry.source(path);
            source.checkReceivable(path.subQueue());
            source.checkNoSessions(path);
            MessageStore store = source.store(path.subQueue());
            wait.on(store.readyOrChanged);
            countRequest(wait, source);
            return wait.mayTake() ? nullIfEmpty(source.takeReady(store, mode, max, null)) : null;
        });
    }

    /**
     * Registers {@code callback} to run once, under the namespace's lock, when a message may have become
     * ready on {@code path} (a send, an activation, an unlock, a lock expiry, the end of a clock advance, a
     * deletion, the close); at once when one may be ready already. While registered it counts as a waiting
     * receive (ADI-5) without being an access. Checks that the entity can be received from, as a receive does.
     * Returns the cancel action: true when it removed the registration before it fired.
     */
    public BooleanSupplier whenReceivable(EntityPath path, Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        return services.locked(() -> {
            MessageSource source = registry.source(path);
            source.checkReceivable(path.subQueue());
            source.checkNoSessions(path);
            MessageStore store = source.store(path.subQueue());
            Signal.Waiter waiter = store.readyOrChanged.new Waiter(source, null, true, callback);
            if (!services.advancing && store.mayHaveReady()) {
                waiter.fired();
            }
            return () -> services.locked((Supplier<Boolean>) waiter::cancel);
        });
    }

    /**
     * As {@link #whenReceivable(EntityPath, Runnable)} for the receiver of a held session: fired when a message of
     * that session may have become ready, when the session's lock is lost (expired, released), on the entity's
     * deletion or update, the end of a clock advance that made one of its messages ready, the close. Keeps the
     * entity in use while registered (ADI-5). Checks the session is held, as a receive does.
     */
    public BooleanSupplier whenReceivable(SessionLock session, Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        return services.locked(() -> {
            MessageSource source = registry.sessionSource(session.entity());
            source.sessions.held(session.sessionId(), session.token());
            Signal signal = source.main.readyOrChanged;
            Signal.Waiter waiter = signal.new Waiter(source, session.sessionId(), true, callback);
            if (!services.advancing && signal.sessionHasReady(session.sessionId())) {
                waiter.fired();
            }
            return () -> services.locked((Supplier<Boolean>) waiter::cancel);
        });
    }

    /**
     * Registers {@code callback} to run once, under the namespace's lock, when a session of {@code path} may have
     * become available to accept as the next session (a message for a free session, a session let go with messages,
     * the end of a clock advance), on the entity's deletion or update, or the close; at once when one may be free
     * already. Waiters are woken oldest first, one per session that became available. Does not keep the entity in
     * use nor access it (ADI-5: a waiting session accept is not a receive). Checks the entity as an accept does.
     */
    public BooleanSupplier whenSessionAvailable(EntityPath path, Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        return services.locked(() -> {
            MessageSource source = registry.sessionSource(path);
            Signal signal = source.main.readyOrChanged;
            Signal.Waiter waiter = signal.new Waiter(source, null, false, callback);
            if (!services.advancing && signal.mayServeAny()) {
                waiter.fired();
            }
            return () -> services.locked((Supplier<Boolean>) waiter::cancel);
        });
    }

    /** The registered accepts of the next session now waiting on {@code path}'s entity. */
    public int waitingSessionAccepts(EntityPath path) {
        return services.locked(
                () -> registry.sessionSource(path).main.readyOrChanged.waitersForAny());
    }

    /** The receive calls and registered waits now waiting on {@code path}'s entity (ADI-5). */
    public int waitingReceivers(EntityPath path) {
        return services.locked(() -> registry.source(path).waitingReceivers());
    }

    /** Receives from a held session: what is ready at once, else waits up to {@code maxWait} for the first. */
    public List<BrokeredMessage> receive(
            SessionLock session, ReceiveMode mode, int max, Duration maxWait, Cancellation cancellation) {
        Validation.maxMessages(max);
        return receiving(session.entity(), maxWait, cancellation, wait -> {
            MessageSource source = registry.sessionSource(session.entity());
            SessionEntry held = source.sessions.held(session.sessionId(), session.token());
            wait.on(source.main.readyOrChanged);
            countRequest(wait, source);
            return wait.mayTake() ? nullIfEmpty(source.sessions.take(held, mode, max)) : null;
        });
    }

    /**
     * ADI-5: a receive call is one request: it accesses its entity when it is made (not at each look after a
     * wake-up), and while it waits the entity is in use.
     */
    private static void countRequest(BlockingCalls.Wait wait, MessageSource source) {
        if (wait.firstTry()) {
            source.touch();
        }
        wait.receivesFrom(source);
    }

    /** A blocking receive: the messages a try took, or none when the time was up or the thread interrupted. */
    private List<BrokeredMessage> receiving(
            Object what,
            Duration maxWait,
            Cancellation cancellation,
            BlockingCalls.Attempt<List<BrokeredMessage>> take) {
        try {
            List<BrokeredMessage> taken = blocking.call(what, maxWait, cancellation, take);
            return taken == null ? List.of() : taken;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** A try that took nothing got nothing: the call waits for more. */
    private static List<BrokeredMessage> nullIfEmpty(List<BrokeredMessage> taken) {
        return taken.isEmpty() ? null : taken;
    }

    public List<BrokeredMessage> receiveDeferred(EntityPath path, ReceiveMode mode, Collection<Long> sequenceNumbers) {
        return services.locked(() -> {
            MessageSource source = registry.source(path);
            source.checkReceivable(path.subQueue());
            source.checkNoSessions(path);
            return source.takeDeferred(source.store(path.subQueue()), mode, sequenceNumbers);
        });
    }

    /** PEEK-1: up to {@code max} (at most 250) messages from {@code fromSequenceNumber} on; no lock. */
    public List<BrokeredMessage> peek(EntityPath path, long fromSequenceNumber, int max) {
        Validation.maxMessages(max);
        return onStore(path, (source, store) -> source.peek(store, fromSequenceNumber, Math.min(max, MAX_PEEK)));
    }

    // ---- settlement ---------------------------------------------------------------------------

    public void complete(EntityPath path, UUID lockToken) {
        settle(path, (source, store) -> source.complete(store, lockToken));
    }

    public void abandon(EntityPath path, UUID lockToken, Map<String, Object> propertiesToModify) {
        settle(path, (source, store) -> source.abandon(store, lockToken, propertiesToModify));
    }

    public void release(EntityPath path, UUID lockToken) {
        settle(path, (source, store) -> source.release(store, lockToken));
    }

    public void defer(EntityPath path, UUID lockToken, Map<String, Object> propertiesToModify) {
        settle(path, (source, store) -> source.defer(store, lockToken, propertiesToModify));
    }

    public void deadLetter(
            EntityPath path,
            UUID lockToken,
            String reason,
            String description,
            Map<String, Object> propertiesToModify) {
        settle(path, (source, store) -> source.deadLetter(store, lockToken, reason, description, propertiesToModify));
    }

    public Instant renewLock(EntityPath path, UUID lockToken) {
        return onStore(path, (source, store) -> source.renewLock(store, lockToken));
    }

    private void settle(EntityPath path, BiConsumer<MessageSource, MessageStore> settlement) {
        onStore(path, (source, store) -> {
            settlement.accept(source, store);
            return null;
        });
    }

    /** Runs {@code action} under the lock on the queue or subscription of {@code path} and its sub-queue's store. */
    private <T> T onStore(EntityPath path, BiFunction<MessageSource, MessageStore, T> action) {
        services.lock.lock(); // not services.locked(...): one lambda less per settlement on the hot path
        try {
            MessageSource source = registry.source(path);
            return action.apply(source, source.store(path.subQueue()));
        } finally {
            services.lock.unlock();
        }
    }

    // ---- sessions -------------------------------------------------------------------------------

    /**
     * Locks a named session, or the next available one (sessionId null), waiting in real time up to
     * {@code maxWait} for one to become free (SES-2).
     */
    public SessionLock acceptSession(EntityPath path, String sessionId, Duration maxWait, Cancellation cancellation) {
        SessionLock lock = acceptSessionOrNull(path, sessionId, maxWait, cancellation);
        if (lock == null) {
            throw new BrokerException.ServiceTimeout(
                    "No session available to accept on '" + path + "' within " + maxWait + ".");
        }
        return lock;
    }

    /** As {@link #acceptSession}, null when no session became available in time. */
    public SessionLock acceptSessionOrNull(
            EntityPath path, String sessionId, Duration maxWait, Cancellation cancellation) {
        Validation.sessionId(sessionId);
        SessionEntry session;
        try {
            session = blocking.call(path, maxWait, cancellation, wait -> {
                MessageSource source = registry.sessionSource(path);
                wait.on(source.main.readyOrChanged);
                return source.sessions.tryAccept(sessionId, wait.firstTry());
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException.ServiceTimeout("Interrupted while waiting for a session on '" + path + "'.");
        }
        if (session == null) {
            return null;
        }
        return new SessionLock(path, session.sessionId, session.holder, session.lockedUntil);
    }

    /** The {@code max} earliest pending timers. */
    public List<PendingTimer> pendingTimers(int max) {
        return services.locked(() -> services.timers.pending(max));
    }

    /** The sessions of a session-enabled queue or subscription: held, with a state, or with ready messages. */
    public List<SessionInfo> sessions(EntityPath path) {
        return services.locked(() -> registry.sessionSource(path).sessions.view());
    }

    /** Deferred messages of a held session, by sequence number (DLQ-4); others yield nothing. */
    public List<BrokeredMessage> receiveDeferred(
            SessionLock session, ReceiveMode mode, Collection<Long> sequenceNumbers) {
        return onSession(session, (source, held) -> source.takeDeferredFromSession(held, mode, sequenceNumbers));
    }

    public Instant renewSessionLock(SessionLock session) {
        return onSession(session, (source, held) -> source.sessions.renew(held));
    }

    public byte[] getSessionState(SessionLock session) {
        return onSession(session, (source, held) -> source.sessions.state(held.sessionId));
    }

    /** See {@link SessionTable#list}; pages by {@code skip} and {@code top}. */
    public List<String> listSessions(EntityPath path, Instant stateUpdatedAfter, int skip, int top) {
        return services.locked(() -> {
            List<String> all = registry.sessionSource(path).sessions.list(stateUpdatedAfter);
            int from = Math.min(Math.max(skip, 0), all.size());
            return List.copyOf(all.subList(from, Math.min(all.size(), from + Math.max(top, 0))));
        });
    }

    public void setSessionState(SessionLock session, byte[] state) {
        onSession(session, (source, held) -> {
            source.sessions.setState(held, state);
            return null;
        });
    }

    /** Lets go of a session; a session whose lock was lost already is ignored. */
    public void releaseSession(SessionLock session) {
        try {
            onSession(session, (source, held) -> {
                source.sessions.release(held, false);
                return null;
            });
        } catch (BrokerException.SessionLockLost alreadyGone) {
            // nothing held any more
        }
    }

    /** Runs {@code action} under the lock on a held session, or SESSION_LOCK_LOST (SES-3). */
    private <T> T onSession(SessionLock session, BiFunction<MessageSource, SessionEntry, T> action) {
        return services.locked(() -> {
            MessageSource source = registry.sessionSource(session.entity());
            return action.apply(source, source.sessions.held(session.sessionId(), session.token()));
        });
    }
}
