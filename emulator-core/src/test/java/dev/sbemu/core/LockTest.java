package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LockTest {

    @Test
    @DisplayName("LOCK-1 peek-lock locks for the default 60 s; lockedUntil says until when")
    void defaultLockDuration() {
        Namespace ns = namespace();
        assertEquals(Duration.ofSeconds(60), ns.createQueue("q").lockDuration());
        ns.send("q", msg("m"));
        ns.clock().advance(Duration.ofSeconds(7));

        BrokeredMessage m = lockOne(ns, Q);

        assertEquals(T0.plusSeconds(67), m.lockedUntil());
        assertNull(ns.peek(Q, 0, 1).get(0).lockedUntil(), "peek shows no lock");
        assertEquals(1, events(ns, JournalEvent.Type.RECEIVED).size());
    }

    @Test
    @DisplayName("LOCK-1 renewMessageLock extends the lock by lockDuration from now, repeatedly")
    void renewExtendsFromNow() {
        Namespace ns = namespace();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        ns.send("q", msg("m"));
        BrokeredMessage m = lockOne(ns, Q);
        assertEquals(T0.plusSeconds(30), m.lockedUntil());

        ns.clock().advance(Duration.ofSeconds(20));
        assertEquals(T0.plusSeconds(50), ns.renewLock(Q, m.lockToken()));
        ns.clock().advance(Duration.ofSeconds(29));
        assertEquals(T0.plusSeconds(79), ns.renewLock(Q, m.lockToken()));
        ns.clock().advance(Duration.ofSeconds(29));

        ns.complete(Q, m.lockToken());
        assertEquals(List.of(), events(ns, JournalEvent.Type.LOCK_EXPIRED));
        assertEquals(2, events(ns, JournalEvent.Type.LOCK_RENEWED).size());
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
    }

    @Test
    @DisplayName("LOCK-1 receive-and-delete: the message is gone once delivered and carries no lock")
    void receiveAndDelete() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("m"));

        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 5);

        assertEquals(List.of("m"), ids(got));
        assertNull(got.get(0).lockToken());
        assertNull(got.get(0).lockedUntil());
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
        assertEquals(List.of(), ns.peek(Q, 0, 10));
    }

    @Test
    @DisplayName("LOCK-1 lockDuration must lie between 5 seconds and 5 minutes")
    void lockDurationRange() {
        Namespace ns = namespace();

        InvalidOptionException tooShort = assertThrows(
                InvalidOptionException.class,
                () -> ns.createQueue(
                        "a",
                        QueueOptions.builder()
                                .lockDuration(Duration.ofMillis(4999))
                                .build()));
        InvalidOptionException tooLong = assertThrows(
                InvalidOptionException.class,
                () -> ns.createSubscription(
                        createdTopic(ns),
                        "s",
                        SubscriptionOptions.builder()
                                .lockDuration(Duration.ofSeconds(301))
                                .build()));

        assertEquals("lockDuration", tooShort.property());
        assertEquals("lockDuration", tooLong.property());
        assertEquals(
                Duration.ofSeconds(5),
                ns.createQueue(
                                "min",
                                QueueOptions.builder()
                                        .lockDuration(Duration.ofSeconds(5))
                                        .build())
                        .lockDuration());
        assertEquals(
                Duration.ofMinutes(5),
                ns.createQueue(
                                "max",
                                QueueOptions.builder()
                                        .lockDuration(Duration.ofMinutes(5))
                                        .build())
                        .lockDuration());
        assertEquals(List.of("max", "min"), ns.queueNames());
    }

    private static String createdTopic(Namespace ns) {
        ns.createTopic("t");
        return "t";
    }

    @Test
    @DisplayName("LOCK-2 while a message is locked no other receiver gets it; at the lock's end it is available "
            + "again with its delivery count raised")
    void lockedMessageIsExclusive() {
        Namespace ns = namespace();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        ns.send("q", List.of(msg("a"), msg("b")));

        BrokeredMessage first = lockOne(ns, Q);
        BrokeredMessage second = lockOne(ns, Q);
        assertEquals(
                List.of("a", "b"),
                List.of(first.message().messageId(), second.message().messageId()));
        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 10));

        ns.clock().advance(Duration.ofSeconds(30).minusMillis(1));
        assertEquals(List.of(), ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10));
        ns.complete(Q, second.lockToken());
        ns.clock().advance(Duration.ofMillis(1));

        BrokeredMessage again = lockOne(ns, Q);
        assertEquals("a", again.message().messageId());
        assertEquals(1, again.deliveryCount());
        assertEquals(T0.plusSeconds(60), again.lockedUntil());
        JournalEvent lockExpired = events(ns, JournalEvent.Type.LOCK_EXPIRED).get(0);
        assertEquals(T0.plusSeconds(30), lockExpired.at());
        assertEquals(1, lockExpired.sequenceNumber());
    }

    @Test
    @DisplayName("LOCK-2 a renewed lock keeps the message from other receivers past the original lock's end")
    void renewedLockStaysExclusive() {
        Namespace ns = namespace();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(10)).build());
        ns.send("q", msg("a"));
        BrokeredMessage m = lockOne(ns, Q);
        ns.clock().advance(Duration.ofSeconds(9));
        ns.renewLock(Q, m.lockToken());

        ns.clock().advance(Duration.ofSeconds(5));

        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 1));
        ns.clock().advance(Duration.ofSeconds(5));
        assertEquals(1, lockOne(ns, Q).deliveryCount());
        assertEquals(
                T0.plusSeconds(19),
                events(ns, JournalEvent.Type.LOCK_EXPIRED).get(0).at());
    }
}
