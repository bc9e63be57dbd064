package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.JournalEvent.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The running clock (CLK-6..8): with "wall" time moved by hand, and once with the real wall clock. */
class RunningClockTest {
    /** Bound for every real-time wait in this class: far above what a correct run needs, even on a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    private final ManualWallTime wall = new ManualWallTime();
    private Namespace ns;

    @AfterEach
    void close() {
        if (ns != null) {
            ns.close();
        }
    }

    private Namespace running() {
        ns = Namespace.builder()
                .clock(VirtualClock.startingAt(T0, wall))
                .clockMode(ClockMode.RUNNING)
                .build();
        return ns;
    }

    private static List<Type> clockEvents(Namespace ns) {
        return ns.journal().events().stream()
                .map(JournalEvent::type)
                .filter(t -> t == Type.CLOCK_RUNNING || t == Type.CLOCK_FROZEN || t == Type.CLOCK_ADVANCED)
                .toList();
    }

    @Test
    @DisplayName("CLK-6 a running clock follows the wall clock from where it stands; freeze stops it there")
    void followsWallClock() {
        VirtualClock clock = VirtualClock.startingAt(T0, wall);
        assertEquals(ClockMode.FROZEN, clock.mode());
        wall.advance(Duration.ofSeconds(5));
        assertEquals(T0, clock.instant(), "frozen: the wall clock does not move it");

        clock.run();
        assertEquals(ClockMode.RUNNING, clock.mode());
        assertEquals(T0, clock.instant(), "it runs from where it stands");
        wall.advance(Duration.ofMillis(2500));
        assertEquals(T0.plusMillis(2500), clock.instant());

        clock.freeze();
        assertEquals(ClockMode.FROZEN, clock.mode());
        wall.advance(Duration.ofSeconds(7));
        assertEquals(T0.plusMillis(2500), clock.instant());

        clock.run();
        wall.advance(Duration.ofSeconds(1));
        assertEquals(T0.plusMillis(3500), clock.instant(), "it runs again from where it was frozen");
    }

    @Test
    @DisplayName("CLK-6 advance and advanceTo jump ahead while running; the clock goes on running from there")
    void advanceWhileRunning() {
        Namespace ns = running();
        VirtualClock clock = ns.clock();
        wall.advance(Duration.ofSeconds(10));
        clock.advance(Duration.ofMinutes(10));
        assertEquals(T0.plusSeconds(610), clock.instant());
        assertEquals(ClockMode.RUNNING, clock.mode());
        wall.advance(Duration.ofSeconds(5));
        assertEquals(T0.plusSeconds(615), clock.instant());

        clock.advanceTo(T0.plusSeconds(3600));
        wall.advance(Duration.ofSeconds(1));
        assertEquals(T0.plusSeconds(3601), clock.instant());
        IllegalArgumentException back =
                assertThrows(IllegalArgumentException.class, () -> clock.advanceTo(T0.plusSeconds(3600)));
        assertTrue(back.getMessage().contains("cannot go back"), back.getMessage());

        clock.freeze();
        clock.freeze();
        clock.run();
        clock.run();
        assertEquals(
                List.of(
                        Type.CLOCK_RUNNING,
                        Type.CLOCK_ADVANCED,
                        Type.CLOCK_ADVANCED,
                        Type.CLOCK_FROZEN,
                        Type.CLOCK_RUNNING),
                clockEvents(ns),
                "a run, two jumps, a freeze and a run; repeats record nothing");
        List<JournalEvent> frozen = events(ns, Type.CLOCK_FROZEN);
        assertEquals(T0.plusSeconds(3601), frozen.get(0).at(), "the freeze is journalled at the instant it stopped at");
    }

    @Test
    @DisplayName("CLK-6 timers fall due as wall time passes, in due-time order, each at its own due instant")
    void timersFallDueAsWallTimePasses() {
        Namespace ns = running();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(30))
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        ns.schedule("q", msg("scheduled"), T0.plusSeconds(20));
        ns.send("q", msg("short-lived", Duration.ofSeconds(45)));
        ns.send("q", msg("locked"));
        BrokeredMessage shortLived = lockOne(ns, Q);
        ns.complete(Q, shortLived.lockToken()); // not this one
        ns.send("q", msg("short-lived2", Duration.ofSeconds(45)));
        BrokeredMessage locked = lockOne(ns, Q);
        assertEquals("locked", locked.message().messageId());

        wall.advance(Duration.ofSeconds(21));
        await().atMost(BOUND).until(() -> !events(ns, Type.ACTIVATED).isEmpty());
        assertEquals(T0.plusSeconds(20), events(ns, Type.ACTIVATED).get(0).at(), "activated at its due instant");
        assertTrue(events(ns, Type.LOCK_EXPIRED).isEmpty());

        wall.advance(Duration.ofSeconds(60)); // past the lock (+30 s) and the TTL (+45 s) at once
        await().atMost(BOUND)
                .until(() -> !events(ns, Type.EXPIRED).isEmpty()
                        && ns.clock().instant().equals(T0.plusSeconds(81)));
        List<JournalEvent> timed = ns.journal().events().stream()
                .filter(e -> e.type() == Type.LOCK_EXPIRED || e.type() == Type.EXPIRED)
                .toList();
        assertEquals(
                List.of(Type.LOCK_EXPIRED, Type.EXPIRED),
                timed.stream().map(JournalEvent::type).toList());
        assertEquals(
                List.of(T0.plusSeconds(30), T0.plusSeconds(45)),
                timed.stream().map(JournalEvent::at).toList());
        BrokerException lost = assertThrows(BrokerException.class, () -> ns.complete(Q, locked.lockToken()));
        assertEquals(ErrorReason.MESSAGE_LOCK_LOST, lost.reason());
        assertEquals(List.of("short-lived2"), ids(ns.receive(Q.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE, 10)));
        assertEquals(
                List.of("locked", "scheduled"),
                ids(ns.peek(Q, 0, 10)).stream().sorted().toList());
    }

    @Test
    @DisplayName("CLK-6 an idle entity is deleted as wall time passes")
    void idleEntityDeleted() {
        Namespace ns = running();
        ns.createQueue(
                "idle",
                QueueOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(5)).build());
        wall.advance(Duration.ofMinutes(4));
        await().atMost(BOUND).until(() -> ns.clock().instant().equals(T0.plusSeconds(240)));
        assertTrue(ns.queueExists("idle"));
        wall.advance(Duration.ofMinutes(2));
        await().atMost(BOUND).until(() -> !ns.queueExists("idle"));
        assertEquals(T0.plusSeconds(300), events(ns, Type.AUTO_DELETED).get(0).at());
    }

    @Test
    @DisplayName("CLK-6 the clock shows no instant past a timer that has not fired yet")
    void neverPassesAPendingTimer() throws Exception {
        VirtualClock clock = VirtualClock.startingAt(T0, wall);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Instant due = T0.plusSeconds(10);
        Instant[] seen = new Instant[1];
        VirtualClock.TimerDriver driver = new VirtualClock.TimerDriver() {
            private volatile boolean fired;

            @Override
            public Instant nextDue() {
                return fired ? null : due;
            }

            @Override
            public void fireDue(Instant now) {
                fired = true;
                seen[0] = now;
                entered.countDown();
                try {
                    release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        clock.register(driver);
        try {
            clock.run();
            wall.advance(Duration.ofSeconds(25));
            assertTrue(entered.await(BOUND.toSeconds(), TimeUnit.SECONDS), "the timer fired");
            assertEquals(due, seen[0], "it fired seeing its own due instant");
            assertEquals(due, clock.instant(), "while it fires, the clock shows its due instant, not the wall clock");
            release.countDown();
            await().atMost(BOUND).until(() -> clock.instant().equals(T0.plusSeconds(25)));
        } finally {
            release.countDown();
            clock.unregister(driver);
        }
    }

    @Test
    @DisplayName("CLK-3 a blocking receive wakes when the running clock activates a scheduled message")
    void blockingReceiveWakes() throws Exception {
        Namespace ns = running();
        ns.createQueue("q");
        ns.schedule("q", msg("later"), T0.plusSeconds(30));
        CompletableFuture<List<BrokeredMessage>> receive =
                CompletableFuture.supplyAsync(() -> ns.receive(Q, ReceiveMode.PEEK_LOCK, 1, BOUND));
        await().atMost(BOUND).until(() -> ns.clock().instant().equals(T0)); // nothing moves on its own
        wall.advance(Duration.ofSeconds(30));
        List<BrokeredMessage> got = receive.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertEquals(List.of("later"), ids(got));
        assertEquals(T0.plusSeconds(30), got.get(0).enqueuedTime());
    }

    @Test
    @DisplayName("CLK-7 a running namespace has one clock thread; freezing or closing it ends the thread")
    void threadEndsWithTheNamespace() {
        Namespace frozen =
                Namespace.builder().clock(VirtualClock.startingAt(T0, wall)).build();
        assertFalse(frozen.clock().hasSchedulerThread(), "a frozen clock has no thread");
        frozen.close();

        Namespace ns = running();
        Thread thread = ns.clock().schedulerThread();
        assertNotNull(thread);
        assertTrue(thread.isDaemon());
        ns.clock().freeze();
        await().atMost(BOUND).until(() -> !thread.isAlive());
        ns.clock().run();
        Thread second = ns.clock().schedulerThread();
        assertNotNull(second);
        ns.close();
        await().atMost(BOUND).until(() -> !second.isAlive());
        assertNull(ns.clock().schedulerThread());
        assertEquals(ClockMode.RUNNING, ns.clock().mode(), "the clock itself still runs, with nothing to fire");
    }

    @Test
    @DisplayName("CLK-6 with the real wall clock: a scheduled message appears, a TTL and a lock run out, no advance")
    void realWallClock() throws Exception {
        ns = Namespace.builder().clockMode(ClockMode.RUNNING).build();
        // set up on a frozen clock, so that however long it takes, the message is scheduled ahead of the clock
        // (one scheduled for an instant already past arrives at once, with no ACTIVATED) and the lock and the TTL
        // start from the instant the clock shows when it runs again
        ns.clock().freeze();
        Instant start = ns.clock().instant();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(5))
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        ns.send("q", msg("locked"));
        BrokeredMessage locked = lockOne(ns, Q);
        ns.send("q", msg("short-lived", Duration.ofMillis(500)));
        ns.schedule("q", msg("scheduled"), start.plusSeconds(1));
        ns.clock().run();
        CompletableFuture<List<BrokeredMessage>> dead = CompletableFuture.supplyAsync(
                () -> ns.receive(Q.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE, 1, BOUND));

        assertEquals(
                List.of("short-lived"),
                ids(dead.get(BOUND.toSeconds(), TimeUnit.SECONDS)),
                "the TTL ran out and the blocked receive of the dead-letter queue woke");
        await().atMost(BOUND).until(() -> !events(ns, Type.ACTIVATED).isEmpty());
        await().atMost(BOUND).until(() -> !events(ns, Type.LOCK_EXPIRED).isEmpty());
        assertThrows(BrokerException.class, () -> ns.complete(Q, locked.lockToken()));
        assertTrue(events(ns, Type.CLOCK_ADVANCED).isEmpty(), "no jump: real time moved it");
        Instant expired = events(ns, Type.LOCK_EXPIRED).get(0).at();
        assertEquals(locked.lockedUntil(), expired, "the lock ran out at its own instant");
        assertFalse(ns.clock().instant().isBefore(expired));
    }
}
