package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.minutes;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClockTest {
    /** Bound for every real-time wait in this class: far above what a correct run needs, even on a loaded machine. */
    private static final long BOUND_SECONDS = 60;
    /**
     * The maxWait of a receive that something else must end: so long that a receive which returns within
     * {@link #BOUND_SECONDS} was woken, not timed out, however slow the machine.
     */
    private static final Duration NEVER = Duration.ofHours(1);

    private ExecutorService threads;

    @BeforeEach
    void startThreads() {
        threads = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(BOUND_SECONDS, TimeUnit.SECONDS), "receiver threads ended");
    }

    // ---- CLK-1 --------------------------------------------------------------------------------

    @Test
    @DisplayName("CLK-1 the clock starts frozen at the wall-clock start, truncated to milliseconds")
    void startsFrozenAtWallClock() {
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Namespace ns = Namespace.create();
        Instant after = Instant.now();

        Instant start = ns.clock().instant();
        ns.createQueue("q");
        ns.send("q", msg("m"));
        lockOne(ns, Q);

        assertEquals(0, start.getNano() % 1_000_000, "truncated to milliseconds: " + start);
        assertFalse(start.isBefore(before), start + " before " + before);
        assertFalse(start.isAfter(after), start + " after " + after);
        assertEquals(start, ns.clock().instant(), "frozen until the test moves it");
        assertEquals(start, ns.peek(Q, 0, 1).get(0).enqueuedTime());
    }

    @Test
    @DisplayName("CLK-1 a fixed start instant is kept; the clock moves only by advance and advanceTo")
    void fixedStart() {
        Namespace ns = namespace();
        VirtualClock clock = ns.clock();

        assertEquals(T0, clock.instant());
        assertEquals(T0.toEpochMilli(), clock.millis());
        assertEquals(ZoneId.of("Z"), clock.getZone());
        clock.advance(Duration.ofMillis(250));
        assertEquals(T0.plusMillis(250), clock.instant());
        clock.advanceTo(minutes(3));
        assertEquals(minutes(3), clock.instant());
        VirtualClock paris = clock.withZone(ZoneId.of("Europe/Paris"));
        paris.advance(Duration.ofMinutes(1));
        assertEquals(minutes(4), clock.instant(), "a zoned view shares the time");

        assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> clock.advanceTo(minutes(3)));
        assertEquals(minutes(4), clock.instant());
    }

    // ---- CLK-2 --------------------------------------------------------------------------------

    private static Namespace busyNamespace() {
        Namespace ns = namespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .deadLetteringOnMessageExpiration(true)
                        .lockDuration(Duration.ofSeconds(30))
                        .autoDeleteOnIdle(Duration.ofMinutes(10))
                        .build());
        ns.send("q", msg("locked"));
        lockOne(ns, Q);
        ns.send("q", msg("expires", Duration.ofSeconds(90)));
        ns.schedule("q", msg("scheduled", Duration.ofSeconds(60)), T0.plusSeconds(60));
        return ns;
    }

    private static List<String> transitions(Namespace ns) {
        return ns.journal().events().stream()
                .filter(e -> e.type() != JournalEvent.Type.CLOCK_ADVANCED && !e.at().equals(T0))
                .map(e -> e.at() + " " + e.type() + " " + e.messageId())
                .toList();
    }

    @Test
    @DisplayName("CLK-2 one advance fires every due transition in due-time order, each at its own instant")
    void timersFireInDueOrder() {
        Namespace ns = busyNamespace();

        ns.clock().advance(Duration.ofMinutes(30));

        assertEquals(
                List.of(
                        "2026-01-01T10:00:30Z LOCK_EXPIRED locked",
                        "2026-01-01T10:01:00Z ACTIVATED scheduled",
                        "2026-01-01T10:01:30Z EXPIRED expires",
                        "2026-01-01T10:01:30Z DEAD_LETTERED expires",
                        "2026-01-01T10:02:00Z EXPIRED scheduled",
                        "2026-01-01T10:02:00Z DEAD_LETTERED scheduled",
                        "2026-01-01T10:11:00Z AUTO_DELETED null"),
                transitions(ns));
        assertEquals(minutes(30), ns.clock().instant());
    }

    @Test
    @DisplayName("CLK-2 one big advance and many small ones give the same transitions at the same instants")
    void oneAdvanceEqualsManySmallOnes() {
        Namespace oneStep = busyNamespace();
        Namespace manySteps = busyNamespace();

        oneStep.clock().advance(Duration.ofMinutes(30));
        for (int i = 0; i < 30 * 60; i += 7) {
            manySteps.clock().advanceTo(T0.plusSeconds(i));
        }
        manySteps.clock().advanceTo(minutes(30));

        assertEquals(transitions(oneStep), transitions(manySteps));
    }

    @Test
    @DisplayName("CLK-2 a transition due at the advance's target fires; one due 1 ms later does not")
    void boundaryInclusive() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.schedule("q", msg("at"), minutes(1));
        ns.schedule("q", msg("after"), minutes(1).plusMillis(1));

        ns.clock().advanceTo(minutes(1));

        assertEquals(List.of("at"), ids(ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10)));
        assertEquals(1, ns.runtimeInfo(Q).scheduledMessageCount());
    }

    @Test
    @DisplayName("CLK-2 namespaces sharing one clock each see their timers at their own due instants")
    void sharedClock() {
        VirtualClock clock = VirtualClock.startingAt(T0);
        Namespace a = Namespace.builder().clock(clock).build();
        Namespace b = Namespace.builder().clock(clock).build();
        a.createQueue("q");
        b.createQueue("q");
        a.schedule("q", msg("a"), minutes(2));
        b.schedule("q", msg("b"), minutes(1));

        clock.advance(Duration.ofMinutes(5));

        assertEquals(minutes(2), a.peek(Q, 0, 1).get(0).enqueuedTime());
        assertEquals(minutes(1), b.peek(Q, 0, 1).get(0).enqueuedTime());
        a.close();
        a.schedule("q", msg("late"), minutes(6));
        clock.advance(Duration.ofMinutes(5));
        assertEquals(1, a.runtimeInfo(Q).scheduledMessageCount(), "a closed namespace no longer follows the clock");
    }

    // ---- CLK-3 --------------------------------------------------------------------------------

    private CompletableFuture<List<BrokeredMessage>> receiveInBackground(
            Namespace ns, Duration maxWait, AtomicReference<Thread> receiver) {
        return CompletableFuture.supplyAsync(
                () -> {
                    receiver.set(Thread.currentThread());
                    return ns.receive(Q, ReceiveMode.PEEK_LOCK, 5, maxWait);
                },
                threads);
    }

    /** Spins (bounded) until the receiver thread is parked in its timed wait; no sleeping. */
    private static void awaitBlocked(AtomicReference<Thread> receiver) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (receiver.get() == null || receiver.get().getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the receiver did not block within " + BOUND_SECONDS + " s");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    @DisplayName("CLK-3 a blocking receive returns as soon as another thread sends")
    void blockedReceiveWakesOnSend() throws Exception {
        Namespace ns = namespace();
        ns.createQueue("q");
        AtomicReference<Thread> receiver = new AtomicReference<>();
        long started = System.nanoTime();
        CompletableFuture<List<BrokeredMessage>> received = receiveInBackground(ns, NEVER, receiver);
        awaitBlocked(receiver);

        ns.send("q", msg("hello"));

        List<BrokeredMessage> got = received.get(BOUND_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of("hello"), ids(got));
        assertTrue(System.nanoTime() - started < NEVER.toNanos(), "woke before maxWait");
        assertEquals(T0, ns.clock().instant(), "real waiting does not move the virtual clock");
    }

    @Test
    @DisplayName("CLK-3 a blocking receive returns when a clock advance activates a scheduled message")
    void blockedReceiveWakesOnAdvance() throws Exception {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.schedule("q", msg("scheduled"), minutes(1));
        AtomicReference<Thread> receiver = new AtomicReference<>();
        CompletableFuture<List<BrokeredMessage>> received = receiveInBackground(ns, NEVER, receiver);
        awaitBlocked(receiver);
        assertFalse(received.isDone());

        ns.clock().advance(Duration.ofMinutes(2));

        List<BrokeredMessage> got = received.get(BOUND_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of("scheduled"), ids(got));
        assertEquals(minutes(1), got.get(0).enqueuedTime());
        assertEquals(minutes(3), got.get(0).lockedUntil(), "received at the clock's instant after the advance");
        ns.complete(Q, got.get(0).lockToken());
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
    }

    @Test
    @DisplayName("CLK-3 a blocking receive returns when a clock advance ends another receiver's lock")
    void blockedReceiveWakesOnLockExpiry() throws Exception {
        Namespace ns = namespace();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(10)).build());
        ns.send("q", msg("m"));
        lockOne(ns, Q);
        AtomicReference<Thread> receiver = new AtomicReference<>();
        CompletableFuture<List<BrokeredMessage>> received = receiveInBackground(ns, NEVER, receiver);
        awaitBlocked(receiver);

        ns.clock().advance(Duration.ofSeconds(10));

        List<BrokeredMessage> got = received.get(BOUND_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of("m"), ids(got));
        assertEquals(1, got.get(0).deliveryCount());
    }

    @Test
    @DisplayName("CLK-3 with nothing arriving, a receive returns empty after its maxWait (real time)")
    void receiveTimesOutEmpty() {
        Namespace ns = namespace();
        ns.createQueue("q");
        long started = System.nanoTime();

        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.PEEK_LOCK, 1, Duration.ofMillis(300));

        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(List.of(), got);
        assertTrue(waitedMillis >= 300, "waited " + waitedMillis + " ms");
        assertTrue(waitedMillis < BOUND_SECONDS * 1000, "waited " + waitedMillis + " ms");
        assertEquals(T0, ns.clock().instant());
    }

    @Test
    @DisplayName("CLK-3 LOCK-3 with messages available, a receive returns them at once without waiting for more")
    void receiveReturnsAvailableAtOnce() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("a"), msg("b")));
        long started = System.nanoTime();

        Duration maxWait = Duration.ofMinutes(10); // a receive that waited for more would fail the bound below
        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.PEEK_LOCK, 10, maxWait);

        assertEquals(List.of("a", "b"), ids(got));
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(BOUND_SECONDS));
    }

    @Test
    @DisplayName("CLK-2 whileStill: an advance on another thread waits until the action returns")
    void whileStill() throws Exception {
        VirtualClock clock = VirtualClock.startingAt(T0);
        AtomicReference<Thread> mover = new AtomicReference<>();
        CompletableFuture<Void> advance = new CompletableFuture<>();
        Instant seen = clock.whileStill(() -> {
            threads.execute(() -> {
                mover.set(Thread.currentThread());
                clock.advance(Duration.ofMinutes(1));
                advance.complete(null);
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
            while (mover.get() == null || mover.get().getState() != Thread.State.BLOCKED) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the advance did not wait for the action");
                }
                Thread.onSpinWait();
            }
            return clock.instant();
        });
        assertEquals(T0, seen);
        advance.get(BOUND_SECONDS, TimeUnit.SECONDS);
        assertEquals(T0.plus(Duration.ofMinutes(1)), clock.instant());
    }

    @Test
    @DisplayName("CLK-4 advance reaches the latest instant exactly, and refuses one nanosecond past it")
    void advanceUpToLatest() {
        VirtualClock clock = VirtualClock.startingAt(T0);
        Duration toLatest = Duration.ofSeconds(
                VirtualClock.LATEST.getEpochSecond() - T0.getEpochSecond(),
                VirtualClock.LATEST.getNano() - T0.getNano());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> clock.advance(toLatest.plusNanos(1)));
        assertTrue(e.getMessage().contains("cannot go past " + VirtualClock.LATEST), e.getMessage());
        assertEquals(T0, clock.instant());
        clock.advance(toLatest);
        assertEquals(VirtualClock.LATEST, clock.instant());
    }
}
