package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link Namespace#whenSessionAvailable} and {@link Namespace#whenReceivable(SessionLock, Runnable)}: session receivers
 * and session accepts wait without a thread (AMQP-11, AMQP-6).
 */
class SessionWaitTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath q = EntityPath.queue("q");

    SessionWaitTest() {
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .requiresSession(true)
                        .autoDeleteOnIdle(Duration.ofMinutes(5))
                        .build());
    }

    @AfterEach
    void close() {
        ns.close();
    }

    private static Message inSession(String sessionId, String id) {
        return Message.builder().sessionId(sessionId).messageId(id).body(id).build();
    }

    @Test
    @DisplayName("AMQP-6 a waiting accept of the next session is woken once per session that became available, oldest "
            + "first; not by a message of a held session")
    void acceptWokenPerSession() {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        ns.whenSessionAvailable(q, first::incrementAndGet);
        ns.whenSessionAvailable(q, second::incrementAndGet);
        ns.send("q", inSession("A", "a1"));
        assertEquals(1, first.get());
        assertEquals(0, second.get(), "one session, one wake-up");
        SessionLock a = ns.acceptSession(q, null, Duration.ZERO);
        ns.send("q", inSession("A", "a2"));
        assertEquals(0, second.get(), "A is held: its message is its holder's");
        ns.send("q", inSession("B", "b1"));
        assertEquals(1, second.get());
        ns.whenSessionAvailable(q, first::incrementAndGet);
        assertEquals(2, first.get(), "B is free with a message: fired at once");
        ns.acceptSession(q, "B", Duration.ZERO);
        AtomicInteger third = new AtomicInteger();
        ns.whenSessionAvailable(q, third::incrementAndGet);
        assertEquals(0, third.get(), "every session with messages is held");
        ns.releaseSession(a);
        assertEquals(1, third.get(), "A was let go with a message left");
    }

    @Test
    @DisplayName("ADI-5 a waiting session accept neither accesses the entity nor keeps it in use: it is auto-deleted")
    void acceptDoesNotKeepInUse() {
        AtomicInteger fired = new AtomicInteger();
        ns.whenSessionAvailable(q, fired::incrementAndGet);
        assertEquals(0, ns.waitingReceivers(q));
        ns.clock().advance(Duration.ofMinutes(5));
        assertTrue(!ns.queueExists("q"), "deleted while the accept waited");
        assertEquals(1, fired.get(), "the deletion woke it");
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.acceptSession(q, null, Duration.ZERO));
    }

    @Test
    @DisplayName("AMQP-11 ADI-5 a held session's waiting receiver is woken by a message of its session only, keeps the "
            + "entity in use without accessing it, and learns of its lock's expiry at once")
    void sessionReceiverWait() {
        ns.send("q", inSession("A", "a1"));
        SessionLock a = ns.acceptSession(q, null, Duration.ZERO);
        ns.receive(a, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO);
        AtomicInteger fired = new AtomicInteger();
        Instant accessed = ns.runtimeInfo(q).accessedAt();
        ns.whenReceivable(a, fired::incrementAndGet);
        assertEquals(1, ns.waitingReceivers(q));
        ns.clock().advance(Duration.ofSeconds(45));
        assertEquals(accessed, ns.runtimeInfo(q).accessedAt(), "waiting is not an access (no re-wait counted)");
        ns.renewSessionLock(a);
        ns.send("q", inSession("B", "b1"));
        assertEquals(0, fired.get(), "another session's message");
        ns.send("q", inSession("A", "a2"));
        assertEquals(1, fired.get());
        assertEquals(
                "a2",
                ns.receive(a, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO)
                        .get(0)
                        .message()
                        .messageId());
        ns.whenReceivable(a, fired::incrementAndGet);
        for (int i = 0; i < 12; i++) { // 6 minutes, the lock renewed
            ns.clock().advance(Duration.ofSeconds(30));
            ns.renewSessionLock(a);
        }
        assertTrue(ns.queueExists("q"), "in use while its receiver waits");
        assertEquals(1, fired.get());
        ns.clock().advance(Duration.ofMinutes(2)); // past the lock (1 minute)
        assertEquals(2, fired.get(), "the lock expired");
        assertThrows(
                BrokerException.SessionLockLost.class,
                () -> ns.receive(a, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO));
        assertThrows(BrokerException.SessionLockLost.class, () -> ns.whenReceivable(a, fired::incrementAndGet));
    }
}
