package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static dev.sbemu.core.Faults.Failure.ENTITY_DELETED;
import static dev.sbemu.core.Faults.Failure.MESSAGE_LOCK_LOST;
import static dev.sbemu.core.Faults.Failure.SERVICE_BUSY;
import static dev.sbemu.core.Faults.Failure.SESSION_LOCK_LOST;
import static dev.sbemu.core.Faults.Operation.RECEIVE;
import static dev.sbemu.core.Faults.Operation.SEND;
import static dev.sbemu.core.Faults.Operation.SETTLE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FaultsTest {

    @Test
    @DisplayName("FLT-1 FLT-2 failNext fails exactly the next N operations of the kind on the entity, with no effect")
    void failNextFailsNOperations() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.createQueue("other");
        Faults.Script script = ns.faults().on("q").failNext(2, SEND, SERVICE_BUSY);

        ns.send("other", msg("elsewhere"));
        ns.receive(Q, ReceiveMode.PEEK_LOCK, 1);
        BrokerException first = assertThrows(BrokerException.class, () -> ns.send("q", msg("a")));
        assertThrows(BrokerException.ServiceBusy.class, () -> ns.send("q", msg("b")));
        ns.send("q", msg("c"));

        assertEquals(ErrorReason.SERVICE_BUSY, first.reason());
        assertEquals(List.of("c"), ids(ns.peek(Q, 0, 10)), "failed sends left nothing behind");
        assertEquals(2, script.actedOn());
        assertTrue(script.isDone());
    }

    @Test
    @DisplayName("FLT-5 each fault that acts is journalled with the operation and the failure")
    void faultsAreJournalled() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.faults().on("q").failNext(1, SEND, SERVICE_BUSY);

        assertThrows(BrokerException.ServiceBusy.class, () -> ns.send("q", msg("a")));

        List<JournalEvent> faults = events(ns, JournalEvent.Type.FAULT_INJECTED);
        assertEquals(1, faults.size());
        assertEquals("q", faults.get(0).entity());
        assertEquals("SEND failed: SERVICE_BUSY", faults.get(0).detail());
    }

    @Test
    @DisplayName("FLT-1 failFraction with a seed fails the same operations on every run")
    void fractionIsRepeatable() {
        assertEquals(failedSends(7L), failedSends(7L));
        List<Integer> failed = failedSends(7L);
        assertTrue(failed.size() > 10 && failed.size() < 90, "about a third of 100 sends failed: " + failed.size());
    }

    private static List<Integer> failedSends(long seed) {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.faults().onAnyEntity().failFraction(1.0 / 3, seed, SEND, SERVICE_BUSY);
        List<Integer> failed = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            try {
                ns.send("q", msg("m" + i));
            } catch (BrokerException.ServiceBusy e) {
                failed.add(i);
            }
        }
        assertEquals(100 - failed.size(), ns.runtimeInfo(Q).activeMessageCount());
        return failed;
    }

    @Test
    @DisplayName("FLT-1 clear withdraws every script; cancel withdraws one")
    void clearAndCancel() {
        Namespace ns = namespace();
        ns.createQueue("q");
        Faults.Script sends = ns.faults().on("q").failNext(5, SEND, SERVICE_BUSY);
        ns.faults().on("q").failNext(5, RECEIVE, SERVICE_BUSY);

        sends.cancel();
        ns.send("q", msg("a"));
        ns.faults().clear();

        assertEquals(List.of("a"), ids(ns.receive(Q, ReceiveMode.PEEK_LOCK, 1)));
        assertTrue(sends.isDone());
    }

    @Test
    @DisplayName(
            "FLT-1 delaysScripted tells whether a delay is scripted; failures do not count, a used-up delay ends it")
    void delaysScripted() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.faults().on("q").failNext(1, SEND, SERVICE_BUSY);
        assertFalse(ns.faults().delaysScripted());
        Faults.Script delay = ns.faults().on("q").delayNext(1, RECEIVE, Duration.ZERO);
        assertTrue(ns.faults().delaysScripted());
        delay.cancel();
        assertFalse(ns.faults().delaysScripted());
        ns.faults().on("q").delayNextInRealTime(1, SEND, Duration.ZERO);
        assertTrue(ns.faults().delaysScripted());
        ns.faults().clear();
        assertFalse(ns.faults().delaysScripted());
    }

    @Test
    @DisplayName("FLT-1 a virtual-time delay holds the operation until the clock has moved past it")
    void virtualDelayWaitsForTheClock() throws Exception {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.faults().on("q").delayNext(1, SEND, Duration.ofSeconds(30));

        CompletableFuture<Void> send = CompletableFuture.runAsync(() -> ns.send("q", msg("late")));
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> !events(ns, JournalEvent.Type.FAULT_INJECTED).isEmpty());
        ns.clock().advance(Duration.ofSeconds(29));
        assertFalse(send.isDone(), "still held at +29 s");
        ns.clock().advance(Duration.ofSeconds(1));
        send.get(10, TimeUnit.SECONDS);

        BrokeredMessage m = lockOne(ns, Q);
        assertTrue(!m.enqueuedTime().isBefore(T0.plusSeconds(30)), "accepted after the delay: " + m.enqueuedTime());
        assertEquals(
                "SEND delayed by PT30S until " + T0.plusSeconds(30),
                events(ns, JournalEvent.Type.FAULT_INJECTED).get(0).detail());
    }

    @Test
    @DisplayName("FLT-1 a real-time delay ends early when the faults are cleared or the namespace closes")
    void realDelayEndsOnClear() throws Exception {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.faults().on("q").delayNextInRealTime(1, SEND, Duration.ofHours(1));

        CompletableFuture<Void> send = CompletableFuture.runAsync(() -> ns.send("q", msg("a")));
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> !events(ns, JournalEvent.Type.FAULT_INJECTED).isEmpty());
        assertFalse(send.isDone());
        ns.faults().clear();
        send.get(10, TimeUnit.SECONDS);

        assertEquals(1, ns.runtimeInfo(Q).activeMessageCount());
    }

    @Test
    @DisplayName("FLT-3 loseLock ends a lock now as its expiry does: the message returns with one more delivery")
    void loseLock() {
        Namespace ns = namespace();
        ns.createQueue("q", QueueOptions.builder().maxDeliveryCount(2).build());
        ns.send("q", msg("a"));
        BrokeredMessage first = lockOne(ns, Q);

        ns.faults().loseLock(Q, first.lockToken());

        assertThrows(BrokerException.MessageLockLost.class, () -> ns.complete(Q, first.lockToken()));
        BrokeredMessage again = lockOne(ns, Q);
        assertEquals(1, again.deliveryCount());
        ns.faults().loseLock(Q, again.lockToken());
        assertEquals(List.of("a"), ids(ns.peek(Q.deadLetter(), 0, 10)), "DLQ-2 applies to a lost lock");
        IllegalArgumentException noLock =
                assertThrows(IllegalArgumentException.class, () -> ns.faults().loseLock(Q, again.lockToken()));
        assertTrue(noLock.getMessage().contains("nothing to lose"), noLock.getMessage());
    }

    @Test
    @DisplayName("FLT-3 an injected MESSAGE_LOCK_LOST on a settlement loses the lock for real")
    void injectedLockLossOnSettlement() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("a"));
        BrokeredMessage m = lockOne(ns, Q);
        ns.faults().on("q").failNext(1, SETTLE, MESSAGE_LOCK_LOST);

        assertThrows(BrokerException.MessageLockLost.class, () -> ns.complete(Q, m.lockToken()));

        BrokeredMessage again = lockOne(ns, Q);
        assertEquals(1, again.deliveryCount());
        ns.complete(Q, again.lockToken());
        assertEquals(0, ns.runtimeInfo(Q).activeMessageCount());
    }

    @Test
    @DisplayName("FLT-3 loseSessionLock and an injected SESSION_LOCK_LOST end the session's lock")
    void sessionLockLoss() {
        Namespace ns = namespace();
        ns.createQueue("s", QueueOptions.builder().requiresSession(true).build());
        EntityPath s = EntityPath.queue("s");
        ns.send(
                "s",
                Message.builder().messageId("a").sessionId("cart").body("x").build());
        SessionLock session = ns.acceptSession(s, "cart", Duration.ZERO);
        BrokeredMessage m =
                ns.receive(session, ReceiveMode.PEEK_LOCK, 1, Duration.ZERO).get(0);

        ns.faults().loseSessionLock(s, "cart");

        assertThrows(BrokerException.SessionLockLost.class, () -> ns.complete(s, m.lockToken()));
        SessionLock again = ns.acceptSession(s, "cart", Duration.ZERO);
        ns.faults().on(s).failNext(1, RECEIVE, SESSION_LOCK_LOST);
        assertThrows(
                BrokerException.SessionLockLost.class,
                () -> ns.receive(again, ReceiveMode.PEEK_LOCK, 1, Duration.ZERO));
        assertThrows(
                BrokerException.SessionLockLost.class,
                () -> ns.renewSessionLock(again),
                "the session's lock is really gone");
        assertEquals(2, events(ns, JournalEvent.Type.SESSION_LOCK_EXPIRED).size());
    }

    @Test
    @DisplayName("FLT-4 ENTITY_DELETED deletes the entity underneath the operation, which fails with ENTITY_NOT_FOUND")
    void entityDeletedUnderneath() {
        Namespace ns = namespace();
        ns.createTopic("t");
        ns.createSubscription("t", "sub");
        EntityPath sub = EntityPath.subscription("t", "sub");
        ns.send("t", msg("a"));
        ns.faults().on(sub).failNext(1, RECEIVE, ENTITY_DELETED);

        BrokerException e = assertThrows(BrokerException.class, () -> ns.receive(sub, ReceiveMode.PEEK_LOCK, 1));

        assertEquals(ErrorReason.ENTITY_NOT_FOUND, e.reason());
        assertFalse(ns.subscriptionExists("t", "sub"));
        assertTrue(ns.topicExists("t"));
        assertEquals(1, events(ns, JournalEvent.Type.ENTITY_DELETED).size());
    }

    @Test
    @DisplayName("FLT-2 operations in a transaction meet the faults of the same operations outside one")
    void transactionsMeetFaults() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.faults().on("q").failNext(1, SEND, Faults.Failure.QUOTA_EXCEEDED);
        Transaction tx = ns.beginTransaction();

        assertThrows(BrokerException.QuotaExceeded.class, () -> tx.send("q", List.of(msg("a"))));
        tx.send("q", List.of(msg("b")));
        tx.commit();

        assertEquals(List.of("b"), ids(ns.peek(Q, 0, 10)));
    }

    @Test
    @DisplayName("FLT-1 bad scripts are refused with the argument and the allowed range")
    void badScripts() {
        Namespace ns = namespace();
        Faults faults = ns.faults();
        assertEquals(
                "count must be at least 1, was 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> faults.on("q").failNext(0, SEND, SERVICE_BUSY))
                        .getMessage());
        assertEquals(
                "fraction must be between 0 and 1, was 1.5",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> faults.on("q").failFraction(1.5, 1L, SEND, SERVICE_BUSY))
                        .getMessage());
        assertEquals(
                "delay must not be negative, was PT-1S",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> faults.on("q").delayNext(1, SEND, Duration.ofSeconds(-1)))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> faults.on("q").failNext(1, null, SERVICE_BUSY));
        assertThrows(NullPointerException.class, () -> faults.on("q").failNext(1, SEND, null));
    }
}
