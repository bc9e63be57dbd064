package dev.sbemu.core;

import dev.sbemu.core.internal.FaultActions;
import dev.sbemu.core.internal.TimerQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Scripted faults of one namespace (FLT-1..5), obtained from {@link Namespace#faults()}: fail or delay
 * the next operations of a kind on an entity, lose a lock now, clear everything.
 *
 * <pre>{@code
 * namespace.faults().on("orders").failNext(2, Operation.SEND, Failure.SERVICE_BUSY);
 * namespace.faults().on(EntityPath.subscription("events", "audit"))
 *         .failFraction(0.25, 42L, Operation.RECEIVE, Failure.SERVICE_TIMEOUT);
 * namespace.faults().on("orders").delayNext(1, Operation.SEND, Duration.ofSeconds(30));  // virtual time
 * namespace.faults().loseLock(EntityPath.queue("orders"), message.lockToken());
 * namespace.faults().clear();
 * }</pre>
 *
 * <p>A failure surfaces as the {@link BrokerException} the service's own refusal maps to (its
 * {@link ErrorReason} is listed on each {@link Failure}); the SDK adapter turns it into the SDK's
 * {@code ServiceBusException} with the same reason and transience as the real one. Every fault that
 * acts appends a {@link JournalEvent.Type#FAULT_INJECTED} event. Scripts are checked in the order
 * they were added; the first that matches an operation acts on it. Thread-safe.
 */
public final class Faults {
    /** How long, in real time, an operation waits for the virtual clock to end its delay (the SDK's try-timeout). */
    static final Duration MAX_VIRTUAL_DELAY_WAIT = Duration.ofMinutes(1);

    /** The kinds of operation a fault can target. */
    public enum Operation {
        /** Sending and scheduling messages (also in a transaction). */
        SEND,
        /** Receiving messages, from an entity or a session, and receiving deferred messages. */
        RECEIVE,
        /** Completing, abandoning, deferring and dead-lettering a message. */
        SETTLE,
        /** Renewing a message's or a session's lock. */
        RENEW_LOCK,
        /** Accepting a session (named or the next available). */
        ACCEPT_SESSION,
        /** The other requests of the SDK's management link: peek, cancel scheduled, session state. */
        MANAGEMENT
    }

    /** The failures that can be injected, each with the {@link ErrorReason} it surfaces as. */
    public enum Failure {
        /** {@link ErrorReason#SERVICE_BUSY}: the entity is throttled; transient. */
        SERVICE_BUSY,
        /** {@link ErrorReason#QUOTA_EXCEEDED}: the entity is full; not transient. */
        QUOTA_EXCEEDED,
        /** {@link ErrorReason#SERVICE_TIMEOUT}: the service did not answer in time; transient. */
        SERVICE_TIMEOUT,
        /**
         * {@link ErrorReason#MESSAGE_LOCK_LOST}; not transient. On a settlement or lock renewal the
         * message's lock is really lost: the message returns, counted as a delivery.
         */
        MESSAGE_LOCK_LOST,
        /**
         * {@link ErrorReason#SESSION_LOCK_LOST}; not transient. On an operation of a held session the
         * session's lock is really lost: its locked messages return, counted as a delivery.
         */
        SESSION_LOCK_LOST,
        /** {@link ErrorReason#ENTITY_DISABLED} for this operation only; the entity's status is unchanged. */
        ENTITY_DISABLED,
        /**
         * The entity (a queue, topic or subscription; for a sub-queue its owner) is deleted, with its
         * messages, and the operation fails with {@link ErrorReason#ENTITY_NOT_FOUND}.
         */
        ENTITY_DELETED
    }

    /** A scripted fault: how often it acted, and a way to withdraw it. */
    public interface Script {
        /** How many operations it has acted on so far. */
        int actedOn();

        /** True once it will act on no further operation (its count is used up, or it was cancelled). */
        boolean isDone();

        /** Withdraws it; a delay it imposes right now ends. */
        void cancel();
    }

    /** The operations of one entity (or of every entity) that scripts added through it target. */
    public final class Target {
        private final EntityPath entity;

        private Target(EntityPath entity) {
            this.entity = entity;
        }

        /** Fails the next {@code count} operations of the kind with {@code failure}. */
        public Script failNext(int count, Operation operation, Failure failure) {
            return add(new Rule(
                    entity,
                    operation,
                    positive(count),
                    -1,
                    null,
                    Objects.requireNonNull(failure, "failure"),
                    null,
                    false));
        }

        /**
         * Fails each operation of the kind with probability {@code fraction} (0 to 1), drawn from a
         * random sequence seeded with {@code seed}, so a run can be repeated; until cancelled or cleared.
         */
        public Script failFraction(double fraction, long seed, Operation operation, Failure failure) {
            if (!(fraction >= 0 && fraction <= 1)) {
                throw new IllegalArgumentException("fraction must be between 0 and 1, was " + fraction);
            }
            return add(new Rule(
                    entity,
                    operation,
                    Integer.MAX_VALUE,
                    fraction,
                    new Random(seed),
                    Objects.requireNonNull(failure, "failure"),
                    null,
                    false));
        }

        /**
         * Holds each of the next {@code count} operations of the kind until the virtual clock has moved
         * {@code delay} past the moment it arrived; then it runs. The calling thread waits (in real
         * time, at most one minute, after which the operation fails with SERVICE_TIMEOUT) for another
         * thread to advance the clock.
         */
        public Script delayNext(int count, Operation operation, Duration delay) {
            return add(new Rule(entity, operation, positive(count), -1, null, null, nonNegative(delay), false));
        }

        /** Holds each of the next {@code count} operations of the kind for {@code delay} of real time. */
        public Script delayNextInRealTime(int count, Operation operation, Duration delay) {
            return add(new Rule(entity, operation, positive(count), -1, null, null, nonNegative(delay), true));
        }

        private Script add(Rule rule) {
            Objects.requireNonNull(rule.operation, "operation");
            synchronized (Faults.this) {
                rules.add(rule);
            }
            return rule;
        }
    }

    private final Namespace namespace;
    private final FaultActions actions;
    /** Copy-on-write, so that the hot path's emptiness check needs no lock. */
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    /** The delays under way, which {@link #clear()} and closing the namespace end. */
    private final List<CountDownLatch> waiting = new ArrayList<>();

    Faults(Namespace namespace, FaultActions actions) {
        this.namespace = namespace;
        this.actions = actions;
    }

    /** Scripts for operations on a queue or topic. */
    public Target on(String queueOrTopic) {
        return on(EntityPath.queue(queueOrTopic));
    }

    /** Scripts for operations on exactly this entity path (a sub-queue is a path of its own). */
    public Target on(EntityPath entity) {
        return new Target(Objects.requireNonNull(entity, "entity"));
    }

    /** Scripts for operations on every entity. */
    public Target onAnyEntity() {
        return new Target(null);
    }

    /**
     * Loses the lock of a received message now, as if it had expired: the message returns (counted as a
     * delivery, so it may be dead-lettered), and settling it fails with MESSAGE_LOCK_LOST.
     *
     * @throws IllegalArgumentException when {@code lockToken} holds no lock on {@code entity}, or holds
     *                                  it through a session (use {@link #loseSessionLock})
     */
    public void loseLock(EntityPath entity, UUID lockToken) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(lockToken, "lockToken");
        actions.journalFault(entity.toString(), "lock of " + lockToken + " lost");
        if (!actions.loseLock(entity, lockToken)) {
            throw new IllegalArgumentException("No message of '" + entity + "' is locked by " + lockToken
                    + " outside a session: nothing to lose.");
        }
    }

    /**
     * Loses the lock of a held session now, as if it had expired: its locked messages return, and the
     * receiver's next operation on it fails with SESSION_LOCK_LOST.
     *
     * @throws IllegalArgumentException when no receiver holds that session
     */
    public void loseSessionLock(EntityPath entity, String sessionId) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(sessionId, "sessionId");
        actions.journalFault(entity.toString(), "lock of session " + sessionId + " lost");
        if (!actions.loseSessionLock(entity, sessionId)) {
            throw new IllegalArgumentException(
                    "No receiver holds session '" + sessionId + "' of '" + entity + "': nothing to lose.");
        }
    }

    /**
     * Whether a delay is scripted now ({@link Target#delayNext}, {@link Target#delayNextInRealTime}): for a transport
     * that runs broker calls on its I/O thread, which must then run them elsewhere, since a delay holds the calling
     * thread. Lock-free; a script withdrawn or used up makes it false again.
     */
    public boolean delaysScripted() {
        for (Rule rule : rules) {
            if (rule.failure == null) {
                return true;
            }
        }
        return false;
    }

    /** Withdraws every script; operations held by a delay go on now. */
    public void clear() {
        List<Rule> cleared;
        synchronized (this) {
            cleared = new ArrayList<>(rules);
            rules.clear();
        }
        cleared.forEach(Rule::cancel);
        releaseWaiting();
    }

    /** Ends every delay now (on close). */
    synchronized void releaseWaiting() {
        waiting.forEach(CountDownLatch::countDown);
        waiting.clear();
    }

    // ---- the hook the namespace calls before each operation --------------------------------------

    /** Applies the first matching script to an operation without a lock token or session. */
    void before(Operation operation, EntityPath entity) {
        before(operation, entity, null, null);
    }

    /**
     * Applies the first script that matches {@code operation} on {@code entity}: returns at once when
     * none does, returns after a delay, or throws the failure.
     *
     * @param lockToken the message lock the operation uses, or null
     * @param sessionId the held session the operation uses, or null
     */
    void before(Operation operation, EntityPath entity, UUID lockToken, String sessionId) {
        Rule rule = take(operation, entity);
        if (rule == null) {
            return;
        }
        String path = entity.toString();
        if (rule.failure == null) {
            delay(rule, path, operation);
            return;
        }
        actions.journalFault(path, operation + " failed: " + rule.failure);
        throw failure(rule.failure, operation, entity, lockToken, sessionId);
    }

    private Rule take(Operation operation, EntityPath entity) {
        if (rules.isEmpty()) {
            return null;
        }
        synchronized (this) {
            for (Rule rule : rules) {
                if (rule.matches(operation, entity) && rule.draw()) {
                    if (rule.isDone()) {
                        rules.remove(rule);
                    }
                    return rule;
                }
            }
            return null;
        }
    }

    /** Holds the calling thread; the journal event comes once the delay's timer is set, so a test can wait for it. */
    private void delay(Rule rule, String path, Operation operation) {
        CountDownLatch done = new CountDownLatch(1);
        synchronized (this) {
            waiting.add(done);
            rule.waiters.add(done);
        }
        TimerQueue.Timer timer = null;
        try {
            boolean ended = true;
            if (rule.realTime) {
                actions.journalFault(path, operation + " delayed by " + rule.delay + " of real time");
                done.await(rule.delay.toNanos(), TimeUnit.NANOSECONDS); // ends early on cancel or clear
            } else {
                Instant due = namespace.clock().instant().plus(rule.delay);
                timer = actions.scheduleTimer(due, path, operation.toString(), done::countDown);
                actions.journalFault(path, operation + " delayed by " + rule.delay + " until " + due);
                ended = done.await(MAX_VIRTUAL_DELAY_WAIT.toNanos(), TimeUnit.NANOSECONDS);
            }
            if (!ended) {
                throw new BrokerException.ServiceTimeout("The operation was held by an injected delay of "
                        + rule.delay + " of virtual time, and the clock did not get there within "
                        + MAX_VIRTUAL_DELAY_WAIT + " of real time: advance the clock from another thread.");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException.ServiceTimeout("Interrupted during an injected delay.");
        } finally {
            actions.cancelTimer(timer);
            synchronized (this) {
                waiting.remove(done);
                rule.waiters.remove(done);
            }
        }
    }

    private BrokerException failure(
            Failure failure, Operation operation, EntityPath entity, UUID lockToken, String sessionId) {
        String injected = " (injected fault on " + operation + ", " + entity + ")";
        return switch (failure) {
            case SERVICE_BUSY ->
                new BrokerException.ServiceBusy("The request was terminated because the entity "
                        + "is being throttled. Please wait 2 seconds and try again." + injected);
            case QUOTA_EXCEEDED ->
                new BrokerException.QuotaExceeded(
                        "The maximum entity size has been reached or " + "exceeded for '" + entity + "'." + injected);
            case SERVICE_TIMEOUT ->
                new BrokerException.ServiceTimeout(
                        "The operation did not complete within the " + "allocated time." + injected);
            case MESSAGE_LOCK_LOST -> {
                if (lockToken != null) {
                    actions.loseLock(entity, lockToken);
                }
                yield new BrokerException.MessageLockLost("The lock supplied is invalid. Either the lock expired, "
                        + "or the message has already been removed from the queue." + injected);
            }
            case SESSION_LOCK_LOST -> {
                if (sessionId != null) {
                    actions.loseSessionLock(entity.withSubQueue(EntityPath.Part.NONE), sessionId);
                }
                yield new BrokerException.SessionLockLost(
                        "The session lock was lost. Request a new session " + "receiver." + injected);
            }
            case ENTITY_DISABLED ->
                new BrokerException.EntityDisabled(entity.toString(), EntityStatus.DISABLED, operation + injected);
            case ENTITY_DELETED -> {
                delete(entity);
                yield new BrokerException.EntityNotFound(entity.toString());
            }
        };
    }

    private void delete(EntityPath entity) {
        try {
            if (entity.isSubscription()) {
                namespace.deleteSubscription(entity.topicOrQueue(), entity.subscription());
            } else if (namespace.queueExists(entity.topicOrQueue())) {
                namespace.deleteQueue(entity.topicOrQueue());
            } else {
                namespace.deleteTopic(entity.topicOrQueue());
            }
        } catch (BrokerException.EntityNotFound goneAlready) {
            // deleted meanwhile: the operation fails all the same
        }
    }

    private static int positive(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        return count;
    }

    private static Duration nonNegative(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        return delay;
    }

    /** One script: what it matches, how often it acts, and what it does. */
    private final class Rule implements Script {
        private final EntityPath entity;
        private final Operation operation;
        private final double fraction;
        private final Random random;
        private final Failure failure;
        private final Duration delay;
        private final boolean realTime;
        private int remaining;
        private int actedOn;
        private boolean cancelled;
        private final List<CountDownLatch> waiters = new ArrayList<>();

        Rule(
                EntityPath entity,
                Operation operation,
                int count,
                double fraction,
                Random random,
                Failure failure,
                Duration delay,
                boolean realTime) {
            this.entity = entity;
            this.operation = operation;
            this.remaining = count;
            this.fraction = fraction;
            this.random = random;
            this.failure = failure;
            this.delay = delay;
            this.realTime = realTime;
        }

        boolean matches(Operation op, EntityPath path) {
            return op == operation
                    && !isDone()
                    && (entity == null
                            || entity.topicOrQueue().equalsIgnoreCase(path.topicOrQueue())
                                    && Objects.equals(lower(entity.subscription()), lower(path.subscription()))
                                    && entity.subQueue() == path.subQueue());
        }

        /** Whether it acts on this operation (a fraction draws); counts the act. Under the Faults' lock. */
        boolean draw() {
            if (random != null && random.nextDouble() >= fraction) {
                return false;
            }
            actedOn++;
            if (remaining != Integer.MAX_VALUE) {
                remaining--;
            }
            return true;
        }

        private String lower(String name) {
            return name == null ? null : name.toLowerCase(Locale.ROOT);
        }

        @Override
        public int actedOn() {
            synchronized (Faults.this) {
                return actedOn;
            }
        }

        @Override
        public boolean isDone() {
            synchronized (Faults.this) {
                return cancelled || remaining == 0;
            }
        }

        @Override
        public void cancel() {
            synchronized (Faults.this) {
                cancelled = true;
                rules.remove(this);
                waiters.forEach(CountDownLatch::countDown);
            }
        }
    }
}
