package dev.sbemu.core.internal;

import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.Tier;
import dev.sbemu.core.VirtualClock;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What every part of one namespace works with: its lock, its clock, its timers, its journal, lock
 * tokens, its expiry mode and its tier. The registry, the entities, their stores, intakes and session
 * tables receive this instead of the {@link Broker}.
 *
 * <p>Locking: this one {@link ReentrantLock} per namespace guards all of the namespace's state, so
 * transitions that cross entities (dead-lettering, forwarding, fan-out, deletion) are atomic. Only the
 * entry points take it, through {@link #locked} or around their own work: the messaging façade
 * {@link Broker} (also as the clock's timer driver, so timers fire under it) with its parts
 * {@link BlockingCalls} and {@link FaultActions}, the management side {@link EntityAdministration},
 * transactions ({@link BrokerTransaction}), and {@link Sending#prepare}, which reads an entity's size
 * limit under it before the façade's send takes it for the send itself. Everything below them (the
 * {@link EntityRegistry}, entities, {@link MessageStore}s, {@link Intake}s, {@link SessionTable}s, the
 * {@link TimerQueue}) runs with it held and never takes it. Blocking calls wait on conditions of it,
 * one per store ({@link #newCondition}), which releases it while they wait.
 */
final class Services {
    final ReentrantLock lock = new ReentrantLock();
    final TimerQueue timers;
    final Clock clock;
    final ExpiryMode expiryMode;
    final Tier tier;
    /** The most queues and topics together (RES-6): the tier's, or the namespace's own (NS-9). */
    final int maxQueuesAndTopics;

    private final Consumer<JournalEvent> journal;
    /**
     * The clock is firing timers and has not reached its target yet: blocked receivers and receive-wait
     * callbacks wait for the advance's end ({@link BlockingCalls#wakeAll}).
     */
    boolean advancing;

    Services(Clock clock, ExpiryMode expiryMode, Tier tier, int maxQueuesAndTopics, Consumer<JournalEvent> journal) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.timers =
                clock instanceof VirtualClock virtual ? new TimerQueue(virtual::timerScheduled) : new TimerQueue();
        this.expiryMode = Objects.requireNonNull(expiryMode, "expiryMode");
        this.tier = Objects.requireNonNull(tier, "tier");
        this.maxQueuesAndTopics = maxQueuesAndTopics > 0 ? maxQueuesAndTopics : tier.maxQueuesAndTopics();
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    Instant now() {
        return clock.instant();
    }

    /** A condition of the namespace's lock, for receivers blocked on one store. */
    Condition newCondition() {
        return lock.newCondition();
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

    /**
     * A new random lock token. The masks make it a well-formed random (version 4, IETF variant) UUID, as
     * {@link UUID#randomUUID()} would return and as the service's lock tokens are: the high word's
     * version nibble (bits 12-15) is set to 4, the low word's two top bits to {@code 10}. The bits come
     * from {@link ThreadLocalRandom} rather than {@code randomUUID}'s one shared {@code SecureRandom},
     * which is slower and shared by all threads, on this hot path (one token per peek-locked delivery
     * and per accepted session): a lock token must be unique, not unguessable, and 122
     * random bits make a collision negligible.
     */
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
        journal.accept(new JournalEvent(
                now(), type, entity, -1, null, "session " + sessionId + (detail.isEmpty() ? "" : ", " + detail)));
    }

    void journal(Type type, String entity, String detail) {
        journal.accept(new JournalEvent(now(), type, entity, -1, null, detail));
    }
}
