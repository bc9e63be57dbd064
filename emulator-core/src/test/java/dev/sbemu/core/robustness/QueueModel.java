package dev.sbemu.core.robustness;

import dev.sbemu.core.Faults;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately simple reference model of one non-session queue and its dead-letter queue, written
 * from SPEC.md alone: a flat list of messages and linear scans, no indexes, no timers, nothing shared
 * with the core. Time-based transitions are found by scanning for the earliest due instant (CLK-2).
 *
 * <p>Where SPEC.md is silent the model follows the core, and says so in a comment.
 */
final class QueueModel {
    static final String TTL_REASON = "TTLExpiredException";
    static final String TTL_DESCRIPTION = "The message expired and was dead lettered.";
    static final String MAX_DELIVERY_REASON = "MaxDeliveryCountExceeded";

    enum Where {
        MAIN,
        DLQ,
        GONE
    }

    enum State {
        ACTIVE,
        DEFERRED,
        SCHEDULED
    }

    /** What the model expects an operation to throw. */
    enum Failure {
        LOCK_LOST,
        NOT_FOUND,
        INVALID_OPERATION
    }

    /** A failed operation, expected by the model. */
    static final class Expected extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final Failure failure;

        Expected(Failure failure) {
            super(failure.name(), null, false, false);
            this.failure = failure;
        }
    }

    /** The queue's settings for one run. */
    record Config(Duration lockDuration, int maxDeliveryCount, Duration defaultTtl, boolean deadLetterOnExpiry) {
        @Override
        public String toString() {
            return "lockDuration=" + lockDuration + " maxDeliveryCount=" + maxDeliveryCount + " defaultTtl="
                    + (defaultTtl == null ? "never" : defaultTtl) + " deadLetteringOnMessageExpiration="
                    + deadLetterOnExpiry;
        }
    }

    /** One message as the model sees it. */
    static final class Msg {
        final String id;
        final Duration ownTtl;
        long seq;
        Instant enqueued;
        Duration effectiveTtl;
        Instant expiresAt;
        Instant scheduledAt;
        long scheduleOrder;
        Where where = Where.MAIN;
        State state = State.ACTIVE;
        boolean locked;
        /** Peek-lock deliveries so far; a lock token is named by (id, generation). */
        int generation;

        Instant lockedUntil;
        int deliveryCount;
        final Map<String, Object> properties = new LinkedHashMap<>();

        Msg(String id, Duration ownTtl) {
            this.id = id;
            this.ownTtl = ownTtl;
        }

        boolean expiredAt(Instant now) {
            return expiresAt != null && !expiresAt.isAfter(now);
        }
    }

    final Config config;
    final Instant start;
    Instant now;
    private long nextSequence = 1;
    private long scheduleCounter;
    final List<Msg> messages = new ArrayList<>();

    QueueModel(Config config, Instant start) {
        this.config = config;
        this.start = start;
        this.now = start;
    }

    // ---- lookups (linear) -----------------------------------------------------------------------

    Msg byId(String id) {
        for (Msg m : messages) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        return null;
    }

    List<Msg> in(Where where) {
        List<Msg> result = new ArrayList<>();
        for (Msg m : messages) {
            if (m.where == where) {
                result.add(m);
            }
        }
        result.sort(Comparator.comparingLong(m -> m.seq));
        return result;
    }

    long count(Where where, State state) {
        long n = 0;
        for (Msg m : messages) {
            if (m.where == where && (state == null || m.state == state)) {
                n++;
            }
        }
        return n;
    }

    // ---- sending --------------------------------------------------------------------------------

    /** TTL-1, TTL-6: the message's own TTL capped by the entity default; null means never. */
    private void enqueueNow(Msg m) {
        m.seq = nextSequence++;
        m.enqueued = now;
        m.state = State.ACTIVE;
        m.where = Where.MAIN;
        Duration ttl = m.ownTtl;
        if (config.defaultTtl != null && (ttl == null || config.defaultTtl.compareTo(ttl) < 0)) {
            ttl = config.defaultTtl;
        }
        m.effectiveTtl = ttl;
        m.expiresAt = ttl == null ? null : now.plus(ttl);
    }

    void send(String id, Duration ownTtl) {
        Msg m = new Msg(id, ownTtl);
        messages.add(m);
        enqueueNow(m);
    }

    /** SCH-1, SCH-6: a time at or before now enqueues at once. Returns the sequence number. */
    long schedule(String id, Duration ownTtl, Instant at) {
        Msg m = new Msg(id, ownTtl);
        messages.add(m);
        if (!at.isAfter(now)) {
            enqueueNow(m);
            return m.seq;
        }
        m.seq = nextSequence++;
        m.state = State.SCHEDULED;
        m.scheduledAt = at;
        m.scheduleOrder = scheduleCounter++;
        return m.seq;
    }

    /** SCH-2, SCH-4: only a message that is still scheduled can be cancelled by its number. */
    void cancel(long seq) {
        for (Msg m : messages) {
            if (m.where == Where.MAIN && m.state == State.SCHEDULED && m.seq == seq) {
                m.where = Where.GONE;
                return;
            }
        }
        throw new Expected(Failure.NOT_FOUND);
    }

    // ---- receiving ------------------------------------------------------------------------------

    /** LOCK-1, LOCK-2, SEQ-3, TTL-2: the n lowest-numbered ready messages. */
    List<Msg> receive(Where where, boolean peekLock, int n) {
        List<Msg> taken = new ArrayList<>();
        for (Msg m : in(where)) {
            if (taken.size() == n) {
                break;
            }
            if (m.state != State.ACTIVE || m.locked) {
                continue;
            }
            if (where == Where.MAIN && m.expiredAt(now)) {
                expire(m);
                continue;
            }
            deliver(m, peekLock);
            taken.add(m);
        }
        return taken;
    }

    private void deliver(Msg m, boolean peekLock) {
        if (peekLock) {
            m.locked = true;
            m.generation++;
            m.lockedUntil = now.plus(config.lockDuration);
        } else {
            m.where = Where.GONE;
        }
    }

    /**
     * DLQ-4, TTL-15: deferred messages by number; an expired one expires now and is not returned. DLQ-7: a number
     * that is no deferred message to take fails the whole request (not found), and none is taken.
     */
    List<Msg> receiveDeferred(boolean peekLock, List<Long> seqs) {
        List<Msg> found = new ArrayList<>();
        boolean missing = false;
        for (long seq : seqs) {
            boolean any = false;
            for (Msg m : in(Where.MAIN)) {
                if (m.seq != seq || m.state != State.DEFERRED || m.locked) {
                    continue;
                }
                if (m.expiredAt(now)) {
                    expire(m);
                    continue;
                }
                if (!found.contains(m)) {
                    found.add(m);
                }
                any = true;
            }
            missing |= !any;
        }
        if (missing) {
            throw new Expected(Failure.NOT_FOUND);
        }
        for (Msg m : found) {
            deliver(m, peekLock);
        }
        return found;
    }

    /**
     * PEEK-1: every state, by number; in EAGER mode an unlocked expired message is not shown, except a
     * deferred one, which the clock never expires (TTL-15).
     */
    List<Msg> peek(Where where, long from, int n) {
        List<Msg> peeked = new ArrayList<>();
        for (Msg m : in(where)) {
            if (peeked.size() == Math.min(n, 250)) {
                break;
            }
            if (m.seq < from) {
                continue;
            }
            if (where == Where.MAIN && !m.locked && m.state != State.DEFERRED && m.expiredAt(now)) {
                continue;
            }
            peeked.add(m);
        }
        return peeked;
    }

    // ---- settlement -----------------------------------------------------------------------------

    enum Settlement {
        COMPLETE,
        ABANDON,
        DEFER,
        DEAD_LETTER,
        RENEW
    }

    /** DLQ-3: the lock named by (id, generation) in {@code where}, or LOCK_LOST. */
    private Msg locked(Where where, String id, int generation) {
        Msg m = byId(id);
        if (m == null || m.where != where || !m.locked || m.generation != generation || !m.lockedUntil.isAfter(now)) {
            throw new Expected(Failure.LOCK_LOST);
        }
        return m;
    }

    /** Returns the new locked-until for RENEW, else null. */
    Instant settle(
            Settlement kind,
            Where where,
            String id,
            int generation,
            Map<String, Object> properties,
            String reason,
            String description) {
        if (kind == Settlement.DEAD_LETTER && where == Where.DLQ) {
            // TTL-14: a message cannot be dead-lettered from a dead-letter queue
            throw new Expected(Failure.INVALID_OPERATION);
        }
        Msg m = locked(where, id, generation);
        switch (kind) {
            case COMPLETE -> {
                m.where = Where.GONE;
                m.locked = false;
                m.lockedUntil = null;
            }
            case ABANDON -> {
                m.properties.putAll(properties);
                endDelivery(m);
            }
            case DEFER -> {
                m.properties.putAll(properties);
                m.locked = false;
                m.lockedUntil = null;
                // Deferring does not count as a delivery: only abandon and lock expiry do (the SDK's
                // getDeliveryCount() documentation).
                m.state = State.DEFERRED;
            }
            case DEAD_LETTER -> {
                m.properties.putAll(properties);
                deadLetter(m, reason, description);
            }
            case RENEW -> {
                m.lockedUntil = now.plus(config.lockDuration);
                return m.lockedUntil;
            }
        }
        return null;
    }

    /** DLQ-2, TTL-4, TTL-10: a delivery ended without completion (abandon or lock expiry); DLQ-6. */
    private void endDelivery(Msg m) {
        m.locked = false;
        m.lockedUntil = null;
        if (m.where == Where.DLQ) {
            return;
        }
        m.deliveryCount++;
        if (m.expiredAt(now)) {
            expire(m);
        } else if (m.deliveryCount >= config.maxDeliveryCount) {
            deadLetter(
                    m,
                    MAX_DELIVERY_REASON,
                    "Message could not be consumed after " + config.maxDeliveryCount + " delivery attempts.");
        }
    }

    /** TTL-9. */
    private void expire(Msg m) {
        if (config.deadLetterOnExpiry) {
            deadLetter(m, TTL_REASON, TTL_DESCRIPTION);
        } else {
            m.where = Where.GONE;
        }
    }

    /** DLQ-1, DLQ-5. */
    private void deadLetter(Msg m, String reason, String description) {
        m.where = Where.DLQ;
        m.state = State.ACTIVE;
        m.locked = false;
        m.lockedUntil = null;
        if (reason != null) {
            m.properties.put("DeadLetterReason", reason);
        }
        if (description != null) {
            m.properties.put("DeadLetterErrorDescription", description);
        }
    }

    // ---- injected faults ------------------------------------------------------------------------

    /** A failure scripted for the next operation of a kind (FLT-2). */
    record PendingFault(Faults.Operation operation, Faults.Failure failure) {}

    final List<PendingFault> pendingFaults = new ArrayList<>();

    /** FLT-2: the first failure scripted for {@code operation}, consumed; null when none is. */
    PendingFault takeFault(Faults.Operation operation) {
        for (PendingFault fault : pendingFaults) {
            if (fault.operation() == operation) {
                pendingFaults.remove(fault);
                return fault;
            }
        }
        return null;
    }

    /** FLT-3: a lost lock ends the delivery as its expiry does; false when (id, generation) holds no lock in {@code where}. */
    boolean loseLock(Where where, String id, int generation) {
        Msg m = byId(id);
        if (m == null || m.where != where || !m.locked || m.generation != generation || !m.lockedUntil.isAfter(now)) {
            return false;
        }
        endDelivery(m);
        return true;
    }

    // ---- time -----------------------------------------------------------------------------------

    /**
     * CLK-2: every transition due up to {@code target}, earliest first, each at its own instant.
     * Activations due at the same instant run in scheduling order (their sequence numbers depend on
     * it); other coinciding transitions do not affect each other.
     */
    void advance(Duration by) {
        Instant target = now.plus(by);
        while (true) {
            Msg next = null;
            Instant due = null;
            int kind = -1;
            for (Msg m : messages) {
                Instant d = null;
                int k = -1;
                if (m.where == Where.MAIN && m.state == State.SCHEDULED) {
                    d = m.scheduledAt;
                    k = 0;
                } else if (m.where != Where.GONE && m.locked) {
                    d = m.lockedUntil;
                    k = 1;
                } else if (m.where == Where.MAIN && m.state == State.ACTIVE && m.expiresAt != null) {
                    d = m.expiresAt;
                    k = 2;
                }
                if (d == null || d.isAfter(target)) {
                    continue;
                }
                if (due == null
                        || d.isBefore(due)
                        || (d.equals(due) && k == 0 && kind == 0 && m.scheduleOrder < next.scheduleOrder)) {
                    next = m;
                    due = d;
                    kind = k;
                }
            }
            if (next == null) {
                break;
            }
            if (due.isAfter(now)) {
                now = due;
            }
            switch (kind) {
                case 0 -> enqueueNow(next); // SCH-4: a new number, enqueued at the activation instant
                case 1 -> endDelivery(next); // LOCK-2, DLQ-2
                default -> expire(next); // TTL-2, TTL-9
            }
        }
        now = target;
    }

    /** Instants at which something is due, for advances that land exactly on (or next to) one. */
    List<Instant> dueInstants() {
        List<Instant> due = new ArrayList<>();
        for (Msg m : messages) {
            if (m.where == Where.MAIN && m.state == State.SCHEDULED) {
                due.add(m.scheduledAt);
            } else if (m.where != Where.GONE && m.locked) {
                due.add(m.lockedUntil);
            }
            if (m.where != Where.GONE && m.expiresAt != null) {
                due.add(m.expiresAt);
            }
        }
        return due;
    }
}
