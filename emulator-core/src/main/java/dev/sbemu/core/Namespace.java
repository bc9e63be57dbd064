package dev.sbemu.core;

import dev.sbemu.core.filter.RuleFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import dev.sbemu.core.internal.Broker;
import dev.sbemu.core.internal.EntityAdministration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * One emulated Service Bus namespace: its queues, topics and subscriptions, its virtual clock and its
 * journal. Thread-safe. Each test should have its own; {@link #close()} detaches it from its clock (a running
 * clock's thread ends with its last namespace, CLK-7).
 *
 * <pre>{@code
 * Namespace ns = Namespace.create();
 * ns.createQueue("orders", QueueOptions.builder()
 *         .defaultMessageTimeToLive(Duration.ofMinutes(10)).deadLetteringOnMessageExpiration(true).build());
 * ns.send("orders", Message.ofText("order-42"));
 * ns.clock().advance(Duration.ofMinutes(11));
 * ns.receive(EntityPath.queue("orders").deadLetter(), ReceiveMode.PEEK_LOCK, 1, Duration.ZERO);
 * }</pre>
 */
public final class Namespace implements MessageOperations, AutoCloseable {
    /** Journal events kept by default. */
    public static final int DEFAULT_JOURNAL_CAPACITY = 10_000;
    /** The most messages one core peek returns. */
    private static final int PEEK_PAGE = 250;

    private final VirtualClock clock;
    private final Tier tier;
    private final int maxQueuesAndTopics;
    private final ExpiryMode expiryMode;
    private final Journal journal;
    private final Broker broker;
    private final EntityAdministration admin;
    private final VirtualClock.Listener onClockChange;
    private final List<Runnable> closeListeners = new ArrayList<>();
    private boolean closed;
    private final Faults faults;
    private volatile List<AuthorizationRule> authorizationRules = List.of();

    private Namespace(Builder b) {
        this.clock = b.clock != null ? b.clock : VirtualClock.startingNow();
        this.tier = b.tier;
        this.maxQueuesAndTopics = b.maxQueuesAndTopics > 0 ? b.maxQueuesAndTopics : b.tier.maxQueuesAndTopics();
        this.expiryMode = b.expiryMode;
        this.journal = new Journal(b.journalCapacity);
        this.broker = new Broker(clock, expiryMode, tier, maxQueuesAndTopics, journal::append);
        this.admin = broker.administration();
        this.faults = new Faults(this, broker.faultActions());
        this.onClockChange = (change, now) -> {
            switch (change) {
                case JUMPED ->
                    journal.append(
                            new JournalEvent(now, JournalEvent.Type.CLOCK_ADVANCED, "clock", -1, null, "now " + now));
                case RAN ->
                    journal.append(new JournalEvent(
                            now,
                            JournalEvent.Type.CLOCK_RUNNING,
                            "clock",
                            -1,
                            null,
                            "follows the wall clock from " + now));
                case FROZE ->
                    journal.append(new JournalEvent(
                            now, JournalEvent.Type.CLOCK_FROZEN, "clock", -1, null, "stopped at " + now));
                case TICKED -> {}
            }
            if (change == VirtualClock.Change.JUMPED || change == VirtualClock.Change.TICKED) {
                broker.wakeAll();
            }
        };
        clock.register(broker);
        clock.onChange(onClockChange);
        if (b.clockMode == ClockMode.RUNNING) {
            clock.run();
        }
    }

    /** A Standard namespace in EAGER expiry mode, with a clock frozen at the wall-clock now. */
    public static Namespace create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public VirtualClock clock() {
        return clock;
    }

    public Tier tier() {
        return tier;
    }

    /**
     * The most queues and topics this namespace holds together (RES-6): its tier's ({@link Tier#maxQueuesAndTopics()})
     * unless it was given its own ({@link Builder#maxQueuesAndTopics}, NS-9).
     */
    public int maxQueuesAndTopics() {
        return maxQueuesAndTopics;
    }

    public ExpiryMode expiryMode() {
        return expiryMode;
    }

    /**
     * The namespace's own shared access authorization rules (spec SEC-1): none by default, when the endpoint's key
     * mode alone decides (any key with every right, or its one key). Its queues and topics carry theirs in their
     * options.
     */
    public List<AuthorizationRule> authorizationRules() {
        return authorizationRules;
    }

    /** Replaces the namespace's own authorization rules ({@link #authorizationRules()}). Any thread. */
    public void authorizationRules(List<AuthorizationRule> rules) {
        this.authorizationRules = List.copyOf(rules);
    }

    /**
     * Every shared access policy of the namespace: its own rules, then its queues' and topics' (SEC-1, SEC-2), what
     * the endpoint checks tokens and keys against.
     */
    public List<SharedAccessPolicy> sharedAccessPolicies() {
        List<SharedAccessPolicy> policies = new ArrayList<>();
        for (AuthorizationRule rule : authorizationRules) {
            policies.add(new SharedAccessPolicy(null, rule));
        }
        for (String queue : queueNames()) {
            QueueOptions options = queueOptionsOrNull(queue);
            if (options != null) {
                for (AuthorizationRule rule : options.authorizationRules()) {
                    policies.add(new SharedAccessPolicy(queue, rule));
                }
            }
        }
        for (String topic : topicNames()) {
            TopicOptions options = topicOptionsOrNull(topic);
            if (options != null) {
                for (AuthorizationRule rule : options.authorizationRules()) {
                    policies.add(new SharedAccessPolicy(topic, rule));
                }
            }
        }
        return policies;
    }

    private QueueOptions queueOptionsOrNull(String queue) {
        try {
            return getQueue(queue);
        } catch (RuntimeException deletedMeanwhile) {
            return null;
        }
    }

    private TopicOptions topicOptionsOrNull(String topic) {
        try {
            return getTopic(topic);
        } catch (RuntimeException deletedMeanwhile) {
            return null;
        }
    }

    /** What happened on the bus, with virtual times. */
    public Journal journal() {
        return journal;
    }

    /** Scripts faults (failures, delays, lost locks) into this namespace's operations (FLT-1). */
    public Faults faults() {
        return faults;
    }

    // ---- queues -------------------------------------------------------------------------------

    /** Creates a queue with the service's defaults. */
    public QueueOptions createQueue(String name) {
        return createQueue(name, QueueOptions.defaults());
    }

    /**
     * Creates a queue.
     *
     * @throws InvalidOptionException for a bad name or property, naming it and the allowed range
     * @throws BrokerException.EntityAlreadyExists when a queue or topic has that name
     */
    public QueueOptions createQueue(String name, QueueOptions options) {
        return admin.createQueue(name, Objects.requireNonNull(options, "options"));
    }

    public QueueOptions getQueue(String name) {
        return admin.getQueue(name);
    }

    public QueueOptions updateQueue(String name, QueueOptions options) {
        return admin.updateQueue(name, Objects.requireNonNull(options, "options"));
    }

    public void deleteQueue(String name) {
        admin.deleteQueue(name);
    }

    public List<String> queueNames() {
        return admin.queueNames();
    }

    public boolean queueExists(String name) {
        return admin.queueExists(name);
    }

    // ---- topics and subscriptions ---------------------------------------------------------------

    public TopicOptions createTopic(String name) {
        return createTopic(name, TopicOptions.defaults());
    }

    public TopicOptions createTopic(String name, TopicOptions options) {
        return admin.createTopic(name, Objects.requireNonNull(options, "options"));
    }

    public TopicOptions getTopic(String name) {
        return admin.getTopic(name);
    }

    public TopicOptions updateTopic(String name, TopicOptions options) {
        return admin.updateTopic(name, Objects.requireNonNull(options, "options"));
    }

    public void deleteTopic(String name) {
        admin.deleteTopic(name);
    }

    public List<String> topicNames() {
        return admin.topicNames();
    }

    public boolean topicExists(String name) {
        return admin.topicExists(name);
    }

    /** Creates a subscription with the service's defaults and the {@code $Default} rule. */
    public SubscriptionOptions createSubscription(String topic, String name) {
        return createSubscription(topic, name, SubscriptionOptions.defaults());
    }

    public SubscriptionOptions createSubscription(String topic, String name, SubscriptionOptions options) {
        return createSubscription(topic, name, options, List.of());
    }

    /** Creates a subscription with exactly {@code rules}, or with {@code $Default} when the list is empty. */
    public SubscriptionOptions createSubscription(
            String topic, String name, SubscriptionOptions options, List<RuleDescription> rules) {
        return admin.createSubscription(topic, name, Objects.requireNonNull(options, "options"), List.copyOf(rules));
    }

    public SubscriptionOptions getSubscription(String topic, String name) {
        return admin.getSubscription(topic, name);
    }

    public SubscriptionOptions updateSubscription(String topic, String name, SubscriptionOptions options) {
        return admin.updateSubscription(topic, name, Objects.requireNonNull(options, "options"));
    }

    public void deleteSubscription(String topic, String name) {
        admin.deleteSubscription(topic, name);
    }

    public List<String> subscriptionNames(String topic) {
        return admin.subscriptionNames(topic);
    }

    public boolean subscriptionExists(String topic, String name) {
        return admin.subscriptionExists(topic, name);
    }

    // ---- rules ----------------------------------------------------------------------------------

    /**
     * Adds a rule to a subscription (RUL-1).
     *
     * @param filter e.g. {@code SqlFilter.parse("color = 'red'")}, a {@code CorrelationFilter}, {@code TrueFilter}
     * @param action a {@code SqlRuleAction}, or null
     * @throws BrokerException.EntityAlreadyExists when the subscription has a rule of that name
     */
    public RuleDescription createRule(
            String topic, String subscription, String ruleName, RuleFilter filter, SqlRuleAction action) {
        return admin.createRule(topic, subscription, new RuleDescription(ruleName, filter, action));
    }

    public RuleDescription getRule(String topic, String subscription, String ruleName) {
        return admin.getRule(topic, subscription, ruleName);
    }

    /** Replaces the filter and action of an existing rule. */
    public RuleDescription updateRule(
            String topic, String subscription, String ruleName, RuleFilter filter, SqlRuleAction action) {
        return admin.updateRule(topic, subscription, new RuleDescription(ruleName, filter, action));
    }

    public void deleteRule(String topic, String subscription, String ruleName) {
        admin.deleteRule(topic, subscription, ruleName);
    }

    /** The subscription's rules, in creation order. */
    public List<RuleDescription> listRules(String topic, String subscription) {
        return admin.listRules(topic, subscription);
    }

    /** Message counts and timestamps of a queue, topic ({@code EntityPath.queue(topicName)}) or subscription. */
    public EntityRuntimeInfo runtimeInfo(EntityPath entity) {
        return admin.runtimeInfo(entity);
    }

    // ---- sending ------------------------------------------------------------------------------

    /**
     * Sends a message to a queue or topic. A message with a future {@code scheduledEnqueueTime} is
     * scheduled (SCH-1).
     *
     * @throws BrokerException when the entity does not exist or is disabled, the message is too large, or a
     *         session-enabled entity gets a message without a session id (SES-1)
     */
    public void send(String entity, Message message) {
        faults.before(Faults.Operation.SEND, EntityPath.queue(entity));
        broker.send(entity, List.of(message));
    }

    /** Sends messages as one batch: all are accepted or none. */
    @Override
    public void send(String entity, List<Message> messages) {
        faults.before(Faults.Operation.SEND, EntityPath.queue(entity));
        broker.send(entity, List.copyOf(messages));
    }

    /** Schedules a message for {@code at} and returns its sequence number (SCH-1, SCH-6). */
    public long schedule(String entity, Message message, Instant at) {
        faults.before(Faults.Operation.SEND, EntityPath.queue(entity));
        return broker.schedule(entity, List.of(message), at)[0];
    }

    @Override
    public long[] schedule(String entity, List<Message> messages, Instant at) {
        faults.before(Faults.Operation.SEND, EntityPath.queue(entity));
        return broker.schedule(entity, List.copyOf(messages), at);
    }

    /** Cancels a scheduled message (SCH-2). @throws BrokerException.MessageNotFound when it is not scheduled */
    public void cancelScheduled(String entity, long sequenceNumber) {
        faults.before(Faults.Operation.MANAGEMENT, EntityPath.queue(entity));
        broker.cancelScheduled(entity, List.of(sequenceNumber));
    }

    public void cancelScheduled(String entity, Collection<Long> sequenceNumbers) {
        faults.before(Faults.Operation.MANAGEMENT, EntityPath.queue(entity));
        broker.cancelScheduled(entity, List.copyOf(sequenceNumbers));
    }

    /** Starts a transaction (TXN-1): operations through it take effect together on commit. */
    public Transaction beginTransaction() {
        return new FaultingTransaction(broker.beginTransaction(), faults);
    }

    // ---- receiving ----------------------------------------------------------------------------

    /**
     * Receives up to {@code maxMessages}: whatever is available at once; when nothing is, waits in
     * real time up to {@code maxWait} for the first message (CLK-3, LOCK-3).
     */
    public List<BrokeredMessage> receive(EntityPath entity, ReceiveMode mode, int maxMessages, Duration maxWait) {
        faults.before(Faults.Operation.RECEIVE, entity);
        return broker.receive(entity, mode, maxMessages, maxWait, null);
    }

    /**
     * As {@link #receive(EntityPath, ReceiveMode, int, Duration)}, ended by {@code cancellation}: when it
     * is cancelled, before or during the wait, the call throws {@link java.util.concurrent.CancellationException}
     * at once and takes no message (a closed client's pending receive).
     */
    public List<BrokeredMessage> receive(
            EntityPath entity, ReceiveMode mode, int maxMessages, Duration maxWait, Cancellation cancellation) {
        faults.before(Faults.Operation.RECEIVE, entity);
        return broker.receive(entity, mode, maxMessages, maxWait, Objects.requireNonNull(cancellation, "cancellation"));
    }

    /**
     * Waits for {@code entity} without a thread: runs {@code callback} once when a message may have become
     * available there (a send, a scheduled message's activation, an unlock or abandon, a lock expiry, the end of a
     * clock advance, the entity's deletion or disabling, this namespace's close), or at once when one may be
     * available already. Waiters are woken oldest first, as many as messages became available (every one on a
     * deletion, an update, the close). The callback may be spurious (another receiver took the message): it then
     * receives nothing, and registers again. A server's receiver tries {@link #receive(EntityPath, ReceiveMode, int)
     * receive} without waiting, and registers when it got nothing, so that a waiting receiver holds no thread
     * (AMQP-11); one that will not receive after its callback ran passes the wake-up on ({@link ReceiveWait#cancel}).
     *
     * <p>The callback runs on the thread that made the message available, with this namespace's lock held: it must
     * only hand the work on (to an executor or event loop), never block nor call this namespace. While registered,
     * the wait counts as a waiting receive (the entity is in use, ADI-5) without being an access. Faults are
     * applied by the receive, not here.
     *
     * @return the registration, which {@link ReceiveWait#cancel()} removes
     * @throws BrokerException as a receive on the entity would (not found, disabled, sessions required)
     */
    public ReceiveWait whenReceivable(EntityPath entity, Runnable callback) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(callback, "callback");
        return registeredUnlessClosed(broker.whenReceivable(entity, callback), callback);
    }

    /**
     * As {@link #whenReceivable(EntityPath, Runnable)} for the receiver of a held session: runs {@code callback} once
     * when a message of that session may have become available, when the session's lock is lost (expired or
     * released: the next receive says so), on the entity's deletion or disabling, this namespace's close; at once
     * when one of its messages may be available already. While registered the wait keeps the entity in use (ADI-5,
     * a waiting receive) without being an access. The same rules for the callback apply.
     *
     * @throws BrokerException as a receive on the session would (lock lost, not found, disabled)
     */
    public ReceiveWait whenReceivable(SessionLock session, Runnable callback) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(callback, "callback");
        return registeredUnlessClosed(broker.whenReceivable(session, callback), callback);
    }

    /**
     * Waits without a thread for a session of {@code entity} to become available to accept as the next session:
     * runs {@code callback} once when one may be (a message for a session no receiver holds, a session let go with
     * messages left, the end of a clock advance), on the entity's deletion or disabling, or this namespace's close;
     * at once when one may be free already. Waiters are woken oldest first, one per session that became available; a
     * server's accept tries {@link #acceptSession(EntityPath, String, Duration) acceptSession} without waiting and
     * registers again when it got none (SES-2, AMQP-6). The wait neither accesses the entity nor keeps it in use
     * (ADI-5). The same rules for the callback apply as for {@link #whenReceivable(EntityPath, Runnable)}.
     *
     * @throws BrokerException as an accept would (not found, disabled, not session-enabled)
     */
    public ReceiveWait whenSessionAvailable(EntityPath entity, Runnable callback) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(callback, "callback");
        return registeredUnlessClosed(broker.whenSessionAvailable(entity, callback), callback);
    }

    private ReceiveWait registeredUnlessClosed(BooleanSupplier cancel, Runnable callback) {
        boolean isClosed;
        synchronized (closeListeners) {
            isClosed = closed;
        }
        if (isClosed && cancel.getAsBoolean()) {
            callback.run(); // registered after close woke everything: there is nothing more to wait for
        }
        return cancel::getAsBoolean;
    }

    /**
     * How many receivers wait on {@code entity} now (a queue or subscription): blocked receive calls and
     * {@link #whenReceivable} registrations, each of which keeps it in use (ADI-5). For tests and diagnostics.
     *
     * @throws BrokerException.EntityNotFound when the entity does not exist
     */
    public int waitingReceivers(EntityPath entity) {
        return broker.waitingReceivers(Objects.requireNonNull(entity, "entity"));
    }

    /**
     * How many accepts of the next session wait on {@code entity} now ({@link #whenSessionAvailable} registrations,
     * which do not keep it in use, ADI-5). For tests and diagnostics.
     *
     * @throws BrokerException when the entity does not exist or does not require sessions
     */
    public int waitingSessionAccepts(EntityPath entity) {
        return broker.waitingSessionAccepts(Objects.requireNonNull(entity, "entity"));
    }

    /** A registration of {@link #whenReceivable}. */
    @FunctionalInterface
    public interface ReceiveWait {
        /**
         * Removes the registration: its callback will not run. Returns false when it had run or was cancelled
         * already. Idempotent, thread-safe. Waiters are woken one per message that became available, so a waiter
         * whose callback ran and that will not receive after all (it went away, or cannot take now) calls this to
         * pass its wake-up on to the next waiter; one that receives, or registers again, need not.
         */
        boolean cancel();
    }

    /** Receives what is available now, without waiting. */
    public List<BrokeredMessage> receive(EntityPath entity, ReceiveMode mode, int maxMessages) {
        return receive(entity, mode, maxMessages, Duration.ZERO);
    }

    /** Deferred messages by sequence number (DLQ-4); numbers that are not deferred messages yield nothing. */
    public List<BrokeredMessage> receiveDeferred(
            EntityPath entity, ReceiveMode mode, Collection<Long> sequenceNumbers) {
        faults.before(Faults.Operation.RECEIVE, entity);
        return broker.receiveDeferred(entity, mode, List.copyOf(sequenceNumbers));
    }

    /** Up to {@code maxMessages} (at most 250) messages from {@code fromSequenceNumber} on, without locking (PEEK-1). */
    public List<BrokeredMessage> peek(EntityPath entity, long fromSequenceNumber, int maxMessages) {
        faults.before(Faults.Operation.MANAGEMENT, entity);
        return broker.peek(entity, fromSequenceNumber, maxMessages);
    }

    /**
     * Up to {@code maxMessages} messages of one session from {@code fromSequenceNumber} on, without locking,
     * as the service's peek with a session id shows them (PEEK-1); the session need not be locked.
     */
    public List<BrokeredMessage> peek(EntityPath entity, String sessionId, long fromSequenceNumber, int maxMessages) {
        Objects.requireNonNull(sessionId, "sessionId");
        faults.before(Faults.Operation.MANAGEMENT, entity);
        List<BrokeredMessage> mine = new ArrayList<>();
        long from = fromSequenceNumber;
        while (mine.size() < maxMessages) {
            List<BrokeredMessage> page = broker.peek(entity, from, PEEK_PAGE);
            for (BrokeredMessage m : page) {
                if (sessionId.equals(m.message().sessionId()) && mine.size() < maxMessages) {
                    mine.add(m);
                }
            }
            if (page.size() < PEEK_PAGE) {
                break;
            }
            from = page.get(page.size() - 1).sequenceNumber() + 1;
        }
        return mine;
    }

    /** @throws BrokerException.MessageLockLost when the lock expired or the message was settled (DLQ-3) */
    @Override
    public void complete(EntityPath entity, UUID lockToken) {
        faults.before(Faults.Operation.SETTLE, entity, lockToken, null);
        broker.complete(entity, Objects.requireNonNull(lockToken, "lockToken"));
    }

    public void abandon(EntityPath entity, UUID lockToken) {
        abandon(entity, lockToken, Map.of());
    }

    @Override
    public void abandon(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify) {
        faults.before(Faults.Operation.SETTLE, entity, lockToken, null);
        broker.abandon(entity, Objects.requireNonNull(lockToken, "lockToken"), propertiesToModify);
    }

    /**
     * Hands a locked message back without counting a delivery, as a receiver that took it but never
     * delivered it to the application does (the AMQP "released" outcome).
     */
    public void release(EntityPath entity, UUID lockToken) {
        broker.release(entity, Objects.requireNonNull(lockToken, "lockToken"));
    }

    public void defer(EntityPath entity, UUID lockToken) {
        defer(entity, lockToken, Map.of());
    }

    @Override
    public void defer(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify) {
        faults.before(Faults.Operation.SETTLE, entity, lockToken, null);
        broker.defer(entity, Objects.requireNonNull(lockToken, "lockToken"), propertiesToModify);
    }

    public void deadLetter(EntityPath entity, UUID lockToken) {
        deadLetter(entity, lockToken, null, null, Map.of());
    }

    /** Dead-letters a locked message with an optional reason, description and properties (DLQ-5). */
    @Override
    public void deadLetter(
            EntityPath entity,
            UUID lockToken,
            String reason,
            String description,
            Map<String, Object> propertiesToModify) {
        faults.before(Faults.Operation.SETTLE, entity, lockToken, null);
        broker.deadLetter(
                entity, Objects.requireNonNull(lockToken, "lockToken"), reason, description, propertiesToModify);
    }

    /** Extends the lock by the entity's lock duration from now (LOCK-1); returns the new locked-until. */
    @Override
    public Instant renewLock(EntityPath entity, UUID lockToken) {
        faults.before(Faults.Operation.RENEW_LOCK, entity, lockToken, null);
        return broker.renewLock(entity, Objects.requireNonNull(lockToken, "lockToken"));
    }

    // ---- sessions -------------------------------------------------------------------------------

    /**
     * Locks a session of a session-enabled queue or subscription (SES-2): the named one, or with
     * {@code sessionId} null the next one with messages, waiting in real time up to {@code maxWait}.
     *
     * @throws BrokerException.SessionCannotBeLocked when another receiver holds the named session
     * @throws BrokerException.ServiceTimeout when no session became available in time
     * @throws BrokerException.InvalidOperation on an entity that does not require sessions (SES-5)
     */
    public SessionLock acceptSession(EntityPath entity, String sessionId, Duration maxWait) {
        faults.before(Faults.Operation.ACCEPT_SESSION, entity);
        return broker.acceptSession(entity, sessionId, maxWait, null);
    }

    /**
     * As {@link #acceptSession(EntityPath, String, Duration)}, ended by {@code cancellation}: when it is
     * cancelled, before or during the wait, the call throws {@link java.util.concurrent.CancellationException}
     * at once and locks no session.
     */
    public SessionLock acceptSession(EntityPath entity, String sessionId, Duration maxWait, Cancellation cancellation) {
        faults.before(Faults.Operation.ACCEPT_SESSION, entity);
        return broker.acceptSession(entity, sessionId, maxWait, Objects.requireNonNull(cancellation, "cancellation"));
    }

    /**
     * Locks the named session, or the next available one ({@code sessionId} null), if one is available now, without
     * waiting: null when none is (where {@link #acceptSession(EntityPath, String, Duration) acceptSession} would
     * wait, and then fail with {@code SERVICE_TIMEOUT}). With {@link #whenSessionAvailable}, how a server accepts
     * without a thread. Faults apply as to an accept.
     *
     * @throws BrokerException.SessionCannotBeLocked when another receiver holds the named session
     */
    public SessionLock acceptSessionIfAvailable(EntityPath entity, String sessionId) {
        faults.before(Faults.Operation.ACCEPT_SESSION, entity);
        return broker.acceptSessionOrNull(entity, sessionId, Duration.ZERO, null);
    }

    /** Receives from a held session, in sequence order: what is ready at once, else waits up to {@code maxWait}. */
    public List<BrokeredMessage> receive(SessionLock session, ReceiveMode mode, int maxMessages, Duration maxWait) {
        faults.before(Faults.Operation.RECEIVE, session.entity(), null, session.sessionId());
        return broker.receive(session, mode, maxMessages, maxWait, null);
    }

    /** As {@link #receive(SessionLock, ReceiveMode, int, Duration)}, ended by {@code cancellation}. */
    public List<BrokeredMessage> receive(
            SessionLock session, ReceiveMode mode, int maxMessages, Duration maxWait, Cancellation cancellation) {
        faults.before(Faults.Operation.RECEIVE, session.entity(), null, session.sessionId());
        return broker.receive(
                session, mode, maxMessages, maxWait, Objects.requireNonNull(cancellation, "cancellation"));
    }

    /** Deferred messages of the held session by sequence number (DLQ-4); others yield nothing. */
    public List<BrokeredMessage> receiveDeferred(
            SessionLock session, ReceiveMode mode, Collection<Long> sequenceNumbers) {
        faults.before(Faults.Operation.RECEIVE, session.entity(), null, session.sessionId());
        return broker.receiveDeferred(session, mode, List.copyOf(sequenceNumbers));
    }

    /** Extends the session lock by the entity's lock duration from now (SES-3). */
    public Instant renewSessionLock(SessionLock session) {
        faults.before(Faults.Operation.RENEW_LOCK, session.entity(), null, session.sessionId());
        return broker.renewSessionLock(session);
    }

    /** The session's state, or null when none is set (SES-4). */
    public byte[] getSessionState(SessionLock session) {
        faults.before(Faults.Operation.MANAGEMENT, session.entity(), null, session.sessionId());
        return broker.getSessionState(session);
    }

    /**
     * The ids of a session-enabled queue's or subscription's sessions that have active messages or a state, or,
     * with {@code stateUpdatedAfter}, whose state was set after it (SES-9); from the {@code skip}-th, at most
     * {@code top}.
     */
    public List<String> listSessions(EntityPath entity, Instant stateUpdatedAfter, int skip, int top) {
        faults.before(Faults.Operation.MANAGEMENT, entity, null, null);
        return broker.listSessions(entity, stateUpdatedAfter, skip, top);
    }

    /** Sets the session's state; null clears it (SES-4). */
    public void setSessionState(SessionLock session, byte[] state) {
        faults.before(Faults.Operation.MANAGEMENT, session.entity(), null, session.sessionId());
        broker.setSessionState(session, state);
    }

    /**
     * The sessions of a session-enabled queue or subscription as they are now: each one held, with a state kept, or
     * with ready messages; who holds it until when and its state, for diagnostics (the control API). Not a broker
     * operation: no fault applies, nothing is accessed.
     *
     * @throws BrokerException when the entity does not exist or does not require sessions
     */
    public List<SessionInfo> sessions(EntityPath entity) {
        return broker.sessions(Objects.requireNonNull(entity, "entity"));
    }

    /**
     * The namespace's next timed transitions, earliest first, at most {@code max} of them: which message expires,
     * activates (scheduled) or gets unlocked, which session lock ends, which entity is deleted when idle, and when.
     * What {@code clock().advanceTo(pendingTimers(1).get(0).due())} makes happen next. A read-only view for
     * diagnostics (the control API): nothing is accessed, no fault applies.
     *
     * @throws IllegalArgumentException when {@code max} is below 1
     */
    public List<PendingTimer> pendingTimers(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        return broker.pendingTimers(max);
    }

    /** Lets go of the session: its locked messages become available again. */
    public void releaseSession(SessionLock session) {
        broker.releaseSession(session);
    }

    /**
     * Runs {@code onClose} when this namespace closes (at once if it is closed already), so that what
     * is built on it (clients, processors, an endpoint) stops with it. Returns what unregisters it, for
     * a user that closes first.
     */
    public Runnable onClose(Runnable onClose) {
        Objects.requireNonNull(onClose, "onClose");
        synchronized (closeListeners) {
            if (!closed) {
                closeListeners.add(onClose);
                return () -> {
                    synchronized (closeListeners) {
                        closeListeners.remove(onClose);
                    }
                };
            }
        }
        onClose.run();
        return () -> {};
    }

    /**
     * Closes the namespace: first stops what was registered with {@link #onClose} (in registration
     * order; a failing one does not keep the others from running), then detaches from its clock and
     * wakes blocked receivers. Idempotent.
     *
     * @throws IllegalStateException when an {@code onClose} action failed (after all have run)
     */
    @Override
    public void close() {
        List<Runnable> toRun;
        synchronized (closeListeners) {
            toRun = closed ? List.of() : List.copyOf(closeListeners);
            closed = true;
            closeListeners.clear();
        }
        RuntimeException failure = null;
        for (Runnable action : toRun) {
            try {
                action.run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = new IllegalStateException("Closing what was built on the namespace failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        clock.unregister(broker);
        clock.removeOnChange(onClockChange);
        faults.releaseWaiting();
        broker.wakeAllOnClose();
        if (failure != null) {
            throw failure;
        }
    }

    /** Configures a {@link Namespace}. */
    public static final class Builder {
        private VirtualClock clock;
        private Tier tier = Tier.STANDARD;
        private ExpiryMode expiryMode = ExpiryMode.EAGER;
        private int journalCapacity = DEFAULT_JOURNAL_CAPACITY;
        private int maxQueuesAndTopics;
        private ClockMode clockMode = ClockMode.FROZEN;

        private Builder() {}

        /** The clock to use (default: a new clock frozen at the wall-clock now). */
        public Builder clock(VirtualClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Starts a new clock frozen at {@code start}. */
        public Builder startingAt(Instant start) {
            return clock(VirtualClock.startingAt(start));
        }

        /**
         * Whether the clock runs from the start ({@link ClockMode#RUNNING}: the namespace runs it once built, CLK-6)
         * or stays as it is ({@link ClockMode#FROZEN}, the default: a new clock is frozen, a given one is left in
         * its mode).
         */
        public Builder clockMode(ClockMode clockMode) {
            this.clockMode = Objects.requireNonNull(clockMode, "clockMode");
            return this;
        }

        public Builder tier(Tier tier) {
            this.tier = Objects.requireNonNull(tier, "tier");
            return this;
        }

        public Builder expiryMode(ExpiryMode expiryMode) {
            this.expiryMode = Objects.requireNonNull(expiryMode, "expiryMode");
            return this;
        }

        public Builder journalCapacity(int journalCapacity) {
            if (journalCapacity < 1) {
                throw new IllegalArgumentException("journalCapacity must be at least 1, was " + journalCapacity);
            }
            this.journalCapacity = journalCapacity;
            return this;
        }

        /**
         * The most queues and topics the namespace holds together (RES-6, NS-9); 0, the default, for the tier's.
         *
         * @throws IllegalArgumentException for a negative value
         */
        public Builder maxQueuesAndTopics(int maxQueuesAndTopics) {
            if (maxQueuesAndTopics < 0) {
                throw new IllegalArgumentException(
                        "maxQueuesAndTopics must be positive (or 0 for the tier's), was " + maxQueuesAndTopics);
            }
            this.maxQueuesAndTopics = maxQueuesAndTopics;
            return this;
        }

        public Namespace build() {
            return new Namespace(this);
        }
    }
}
