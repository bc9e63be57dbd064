package dev.sbemu.core;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Sessions: SES-1..5 and TTL-13. */
class SessionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final String NO_SESSION_ID = "The SessionId was not set on a message, and it cannot be sent to "
            + "the entity. Entities that have session support enabled can only receive messages that have the "
            + "SessionId set to a valid value.";

    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath q = EntityPath.queue("q");
    /** Bound for every real-time wait in this class: far above what a correct run needs, even on a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    SessionTest() {
        ns.createQueue("q", QueueOptions.builder().requiresSession(true).build());
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(BOUND.toSeconds(), TimeUnit.SECONDS));
        ns.close();
    }

    private static Message inSession(String sessionId, String id) {
        return Message.builder().sessionId(sessionId).messageId(id).body(id).build();
    }

    private static List<String> ids(List<BrokeredMessage> messages) {
        return messages.stream().map(m -> m.message().messageId()).toList();
    }

    private static List<Long> sequenceNumbers(List<BrokeredMessage> messages) {
        return messages.stream().map(BrokeredMessage::sequenceNumber).toList();
    }

    // ---- SES-1 --------------------------------------------------------------------------------

    @Test
    @DisplayName(
            "SES-1 a send without session id to a session queue fails with the service's message; nothing is enqueued")
    void sendWithoutSessionIdIsRejected() {
        BrokerException.InvalidOperation e = assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.send("q", Message.builder().messageId("m1").build()));
        assertEquals(ErrorReason.INVALID_OPERATION, e.reason());
        assertEquals(NO_SESSION_ID + " Entity: 'q'.", e.getMessage());

        // a batch with one bad message is refused as a whole
        assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.send(
                        "q",
                        List.of(
                                inSession("A", "ok"),
                                Message.builder().messageId("bad").build())));
        assertEquals(0, ns.runtimeInfo(q).activeMessageCount());

        ns.send("q", inSession("A", "ok"));
        assertEquals(1, ns.peek(q, 0, 10).get(0).sequenceNumber(), "refused sends used no sequence numbers");
    }

    @Test
    @DisplayName(
            "SES-1 a session-enabled subscription dead-letters a message without session id: reason 'Session id is null.'")
    void sessionSubscriptionDeadLettersMessageWithoutSessionId() {
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "sessions",
                SubscriptionOptions.builder().requiresSession(true).build());
        ns.createSubscription("t", "plain");

        ns.send("t", Message.builder().messageId("no-session").body("x").build());
        ns.send("t", inSession("A", "with-session"));

        EntityPath sessions = EntityPath.subscription("t", "sessions");
        List<BrokeredMessage> dead = ns.receive(sessions.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE, 10);
        assertEquals(List.of("no-session"), ids(dead));
        assertEquals("Session id is null.", dead.get(0).deadLetterReason());
        assertEquals(1, dead.get(0).sequenceNumber());
        assertEquals(1, ns.runtimeInfo(sessions).activeMessageCount(), "only the message with a session id");

        SessionLock a = ns.acceptSession(sessions, "A", Duration.ZERO);
        assertEquals(List.of(2L), sequenceNumbers(ns.receive(a, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO)));
        assertEquals(
                List.of("no-session", "with-session"),
                ids(ns.receive(EntityPath.subscription("t", "plain"), ReceiveMode.RECEIVE_AND_DELETE, 10)));
    }

    // ---- SES-2 --------------------------------------------------------------------------------

    @Test
    @DisplayName(
            "SES-2 in-order example: sessions A (1,4,8) and B (2,3,6); two receivers each get their session in order")
    void twoReceiversEachGetTheirSessionInOrder() throws Exception {
        String[] sessionOf = {null, "A", "B", "B", "A", "C", "B", "C", "A"};
        for (int i = 1; i <= 8; i++) {
            ns.send("q", inSession(sessionOf[i], "m" + i));
        }

        SessionLock first = ns.acceptSession(q, null, Duration.ZERO);
        SessionLock second = ns.acceptSession(q, null, Duration.ZERO);
        assertEquals("A", first.sessionId(), "the session whose oldest message came first");
        assertEquals("B", second.sessionId());
        assertEquals(T0.plus(Duration.ofSeconds(60)), first.lockedUntil());

        CompletableFuture<List<BrokeredMessage>> fromA = CompletableFuture.supplyAsync(
                () -> ns.receive(first, ReceiveMode.PEEK_LOCK, 10, Duration.ofSeconds(5)), pool);
        CompletableFuture<List<BrokeredMessage>> fromB = CompletableFuture.supplyAsync(
                () -> ns.receive(second, ReceiveMode.PEEK_LOCK, 10, Duration.ofSeconds(5)), pool);
        List<BrokeredMessage> a = fromA.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        List<BrokeredMessage> b = fromB.get(BOUND.toSeconds(), TimeUnit.SECONDS);

        assertEquals(List.of(1L, 4L, 8L), sequenceNumbers(a));
        assertEquals(List.of("m1", "m4", "m8"), ids(a));
        assertEquals(List.of(2L, 3L, 6L), sequenceNumbers(b));
        a.forEach(m -> assertEquals(T0.plus(Duration.ofSeconds(60)), m.lockedUntil()));
        for (BrokeredMessage m : a) {
            ns.complete(q, m.lockToken());
        }
        for (BrokeredMessage m : b) {
            ns.complete(q, m.lockToken());
        }
        SessionLock third = ns.acceptSession(q, null, Duration.ZERO);
        assertEquals("C", third.sessionId());
        assertEquals(
                List.of(5L, 7L), sequenceNumbers(ns.receive(third, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO)));
    }

    @Test
    @DisplayName("SES-2 FIFO within a session even when later messages of other sessions interleave, after abandon too")
    void fifoWithinSession() {
        for (int i = 1; i <= 5; i++) {
            ns.send("q", inSession("S", "s" + i));
            ns.send("q", inSession("T", "t" + i));
        }
        SessionLock s = ns.acceptSession(q, "S", Duration.ZERO);
        List<BrokeredMessage> two = ns.receive(s, ReceiveMode.PEEK_LOCK, 2, Duration.ZERO);
        assertEquals(List.of(1L, 3L), sequenceNumbers(two));
        ns.abandon(q, two.get(0).lockToken());
        List<BrokeredMessage> rest = ns.receive(s, ReceiveMode.PEEK_LOCK, 10, Duration.ZERO);
        assertEquals(List.of(1L, 5L, 7L, 9L), sequenceNumbers(rest), "the abandoned message comes first again");
        assertEquals(1, rest.get(0).deliveryCount());
    }

    @Test
    @DisplayName("SES-2 a named session held by another receiver cannot be locked: SESSION_CANNOT_BE_LOCKED")
    void namedSessionHeldByAnother() {
        ns.send("q", inSession("A", "m1"));
        SessionLock held = ns.acceptSession(q, "A", Duration.ZERO);
        BrokerException.SessionCannotBeLocked e = assertThrows(
                BrokerException.SessionCannotBeLocked.class, () -> ns.acceptSession(q, "A", Duration.ofSeconds(5)));
        assertEquals(ErrorReason.SESSION_CANNOT_BE_LOCKED, e.reason());
        assertTrue(e.getMessage().startsWith("The requested session 'A' cannot be accepted."), e.getMessage());

        // the next-available accept skips the held session
        assertThrows(BrokerException.ServiceTimeout.class, () -> ns.acceptSession(q, null, Duration.ZERO));

        ns.releaseSession(held);
        assertEquals("A", ns.acceptSession(q, "A", Duration.ZERO).sessionId());
    }

    @Test
    @DisplayName("SES-2 accept-next waits in real time up to maxWait, then fails with SERVICE_TIMEOUT")
    void acceptNextTimesOut() {
        long start = System.nanoTime();
        BrokerException.ServiceTimeout e = assertThrows(
                BrokerException.ServiceTimeout.class, () -> ns.acceptSession(q, null, Duration.ofMillis(200)));
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(ErrorReason.SERVICE_TIMEOUT, e.reason());
        assertTrue(waitedMillis >= 150, "waited " + waitedMillis + " ms"); // a lower bound holds under any load
        assertEquals(T0, ns.clock().instant(), "the virtual clock did not move");
    }

    @Test
    @DisplayName("SES-2 a waiting accept-next returns as soon as another thread sends to a session")
    void acceptNextWakesOnSend() throws Exception {
        CompletableFuture<SessionLock> accepted =
                CompletableFuture.supplyAsync(() -> ns.acceptSession(q, null, Duration.ofMinutes(5)), pool);
        ns.send("q", inSession("late", "m1"));
        SessionLock session = accepted.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertEquals("late", session.sessionId());
        assertEquals(List.of("m1"), ids(ns.receive(session, ReceiveMode.RECEIVE_AND_DELETE, 1, Duration.ZERO)));
    }

    @Test
    @DisplayName("SES-2 a session receive waits in real time for a message of its own session only")
    void sessionReceiveWaitsForOwnSession() throws Exception {
        SessionLock a = ns.acceptSession(q, "A", Duration.ZERO);
        CompletableFuture<List<BrokeredMessage>> received = CompletableFuture.supplyAsync(
                () -> ns.receive(a, ReceiveMode.RECEIVE_AND_DELETE, 5, Duration.ofMinutes(5)), pool);
        ns.send("q", inSession("B", "other"));
        ns.send("q", inSession("A", "mine"));
        assertEquals(List.of("mine"), ids(received.get(BOUND.toSeconds(), TimeUnit.SECONDS)));
        assertEquals(List.of(), ns.receive(a, ReceiveMode.RECEIVE_AND_DELETE, 5, Duration.ZERO));
    }

    // ---- SES-3 --------------------------------------------------------------------------------

    @Test
    @DisplayName(
            "SES-3 renewing the session lock extends lockedUntil by the lock duration from now, for its messages too")
    void renewExtendsSessionLock() {
        ns.createQueue(
                "q30",
                QueueOptions.builder()
                        .requiresSession(true)
                        .lockDuration(Duration.ofSeconds(30))
                        .build());
        EntityPath q30 = EntityPath.queue("q30");
        ns.send("q30", inSession("A", "m1"));
        SessionLock a = ns.acceptSession(q30, "A", Duration.ZERO);
        assertEquals(T0.plusSeconds(30), a.lockedUntil());
        BrokeredMessage m =
                ns.receive(a, ReceiveMode.PEEK_LOCK, 1, Duration.ZERO).get(0);
        assertEquals(T0.plusSeconds(30), m.lockedUntil());

        ns.clock().advance(Duration.ofSeconds(20));
        assertEquals(T0.plusSeconds(50), ns.renewSessionLock(a));
        ns.clock().advance(Duration.ofSeconds(25)); // T0+45: past the first lock, inside the renewed one
        ns.setSessionState(a, new byte[] {1});
        ns.complete(q30, m.lockToken());
        assertEquals(0, ns.runtimeInfo(q30).activeMessageCount());
    }

    @Test
    @DisplayName("SES-3 when the session lock expires: settling fails with SESSION_LOCK_LOST, the session is free "
            + "again, and its locked messages' delivery count rises by one")
    void sessionLockExpiry() {
        ns.send("q", inSession("A", "m1"));
        ns.send("q", inSession("A", "m2"));
        SessionLock a = ns.acceptSession(q, "A", Duration.ZERO);
        List<BrokeredMessage> got = ns.receive(a, ReceiveMode.PEEK_LOCK, 2, Duration.ZERO);
        assertEquals(
                List.of(0, 0), got.stream().map(BrokeredMessage::deliveryCount).toList());

        ns.clock().advance(Duration.ofSeconds(60));

        BrokerException.SessionLockLost e = assertThrows(
                BrokerException.SessionLockLost.class,
                () -> ns.complete(q, got.get(0).lockToken()));
        assertEquals(ErrorReason.SESSION_LOCK_LOST, e.reason());
        assertThrows(
                BrokerException.SessionLockLost.class,
                () -> ns.abandon(q, got.get(1).lockToken()));
        assertThrows(
                BrokerException.SessionLockLost.class, () -> ns.receive(a, ReceiveMode.PEEK_LOCK, 1, Duration.ZERO));
        assertThrows(BrokerException.SessionLockLost.class, () -> ns.renewSessionLock(a));
        assertThrows(BrokerException.SessionLockLost.class, () -> ns.getSessionState(a));

        SessionLock again = ns.acceptSession(q, null, Duration.ZERO);
        assertEquals("A", again.sessionId());
        assertEquals(T0.plusSeconds(120), again.lockedUntil());
        List<BrokeredMessage> redelivered = ns.receive(again, ReceiveMode.PEEK_LOCK, 2, Duration.ZERO);
        assertEquals(List.of(1L, 2L), sequenceNumbers(redelivered));
        assertEquals(
                List.of(1, 1),
                redelivered.stream().map(BrokeredMessage::deliveryCount).toList());
        assertEquals(
                JournalEvent.Type.SESSION_LOCK_EXPIRED,
                ns.journal().events().stream()
                        .filter(ev -> ev.at().equals(T0.plusSeconds(60)))
                        .findFirst()
                        .orElseThrow()
                        .type());
    }

    @Test
    @DisplayName("SES-3 a message settled before the session lock expired is not redelivered")
    void settledMessagesStaySettled() {
        ns.send("q", inSession("A", "m1"));
        ns.send("q", inSession("A", "m2"));
        SessionLock a = ns.acceptSession(q, "A", Duration.ZERO);
        List<BrokeredMessage> got = ns.receive(a, ReceiveMode.PEEK_LOCK, 2, Duration.ZERO);
        ns.complete(q, got.get(0).lockToken());
        ns.clock().advance(Duration.ofSeconds(61));
        SessionLock again = ns.acceptSession(q, "A", Duration.ZERO);
        List<BrokeredMessage> redelivered = ns.receive(again, ReceiveMode.PEEK_LOCK, 5, Duration.ZERO);
        assertEquals(List.of("m2"), ids(redelivered));
        assertEquals(1, redelivered.get(0).deliveryCount());
    }

    @Test
    @DisplayName("SES-3 a session lock expiry that exhausts maxDeliveryCount dead-letters the locked message "
            + "(MaxDeliveryCountExceeded) into the non-session dead-letter queue")
    void sessionLockExpiryCountsTowardsMaxDelivery() {
        ns.createQueue(
                "once",
                QueueOptions.builder().requiresSession(true).maxDeliveryCount(1).build());
        EntityPath once = EntityPath.queue("once");
        ns.send("once", inSession("A", "m1"));
        ns.receive(ns.acceptSession(once, "A", Duration.ZERO), ReceiveMode.PEEK_LOCK, 1, Duration.ZERO);
        ns.clock().advance(Duration.ofSeconds(60));

        List<BrokeredMessage> dead = ns.receive(once.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE, 10);
        assertEquals(List.of("m1"), ids(dead));
        assertEquals("MaxDeliveryCountExceeded", dead.get(0).deadLetterReason());
        assertEquals(
                "Message could not be consumed after 1 delivery attempts.",
                dead.get(0).deadLetterErrorDescription());
        assertEquals("A", dead.get(0).message().sessionId());
    }

    @Test
    @DisplayName("SES-3 a session receive blocked in real time fails with SESSION_LOCK_LOST when a clock advance "
            + "expires the session lock")
    void blockedReceiveSeesLockLoss() throws Exception {
        SessionLock a = ns.acceptSession(q, "A", Duration.ZERO);
        AtomicReference<Thread> receiver = new AtomicReference<>();
        CompletableFuture<List<BrokeredMessage>> blocked = CompletableFuture.supplyAsync(
                () -> {
                    receiver.set(Thread.currentThread());
                    return ns.receive(a, ReceiveMode.PEEK_LOCK, 1, Duration.ofMinutes(5));
                },
                pool);
        // the advance comes while the receive waits, not before it starts
        await().atMost(BOUND)
                .until(() -> receiver.get() != null && receiver.get().getState() == Thread.State.TIMED_WAITING);
        ns.clock().advance(Duration.ofSeconds(60));
        ExecutionException e =
                assertThrows(ExecutionException.class, () -> blocked.get(BOUND.toSeconds(), TimeUnit.SECONDS));
        assertInstanceOf(BrokerException.SessionLockLost.class, e.getCause());
    }

    @Test
    @DisplayName("SES-3 a waiting accept-next gets a session as soon as a clock advance expires its holder's lock")
    void waitingAcceptGetsExpiredSession() throws Exception {
        ns.send("q", inSession("A", "m1"));
        SessionLock held = ns.acceptSession(q, null, Duration.ZERO);
        ns.receive(held, ReceiveMode.PEEK_LOCK, 1, Duration.ZERO);
        CompletableFuture<SessionLock> waiting =
                CompletableFuture.supplyAsync(() -> ns.acceptSession(q, null, Duration.ofMinutes(5)), pool);
        ns.clock().advance(Duration.ofSeconds(60));
        SessionLock next = waiting.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertEquals("A", next.sessionId());
        assertEquals(T0.plusSeconds(120), next.lockedUntil());
        BrokeredMessage again =
                ns.receive(next, ReceiveMode.PEEK_LOCK, 1, Duration.ZERO).get(0);
        assertEquals(1, again.deliveryCount());
    }

    // ---- SES-4 --------------------------------------------------------------------------------

    @Test
    @DisplayName("SES-4 session state is null until set, cleared by null, kept after the messages are consumed")
    void sessionState() {
        ns.send("q", inSession("A", "m1"));
        SessionLock a = ns.acceptSession(q, "A", Duration.ZERO);
        assertNull(ns.getSessionState(a));

        byte[] state = "step-1".getBytes(StandardCharsets.UTF_8);
        ns.setSessionState(a, state);
        state[0] = 'X'; // the broker keeps its own copy
        assertArrayEquals("step-1".getBytes(StandardCharsets.UTF_8), ns.getSessionState(a));

        ns.receive(a, ReceiveMode.RECEIVE_AND_DELETE, 1, Duration.ZERO);
        assertEquals(0, ns.runtimeInfo(q).activeMessageCount());
        ns.releaseSession(a);

        SessionLock again = ns.acceptSession(q, "A", Duration.ZERO);
        assertArrayEquals(
                "step-1".getBytes(StandardCharsets.UTF_8),
                ns.getSessionState(again),
                "kept after the session's messages were consumed and the session released");
        ns.setSessionState(again, null);
        assertNull(ns.getSessionState(again));
        ns.releaseSession(again);
        assertNull(ns.getSessionState(ns.acceptSession(q, "A", Duration.ZERO)));
    }

    @Test
    @DisplayName("SES-4 session states are per session")
    void statePerSession() {
        SessionLock a = ns.acceptSession(q, "A", Duration.ZERO);
        SessionLock b = ns.acceptSession(q, "B", Duration.ZERO);
        ns.setSessionState(a, new byte[] {1, 2});
        assertNull(ns.getSessionState(b));
        assertArrayEquals(new byte[] {1, 2}, ns.getSessionState(a));
    }

    // ---- SES-5 --------------------------------------------------------------------------------

    @Test
    @DisplayName("SES-5 a non-session receiver on a session queue or subscription fails with INVALID_OPERATION")
    void nonSessionReceiveOnSessionEntity() {
        ns.send("q", inSession("A", "m1"));
        BrokerException.InvalidOperation e =
                assertThrows(BrokerException.InvalidOperation.class, () -> ns.receive(q, ReceiveMode.PEEK_LOCK, 1));
        assertEquals(
                "It is not possible for an entity that requires sessions to create a non-sessionful message "
                        + "receiver. Entity: 'q'.",
                e.getMessage());

        ns.createTopic("t");
        ns.createSubscription(
                "t", "s", SubscriptionOptions.builder().requiresSession(true).build());
        assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.receive(EntityPath.subscription("t", "s"), ReceiveMode.RECEIVE_AND_DELETE, 1));
        // the dead-letter queue of a session entity is not sessionful (DLQ-1)
        assertEquals(List.of(), ns.receive(q.deadLetter(), ReceiveMode.PEEK_LOCK, 1));
        assertEquals(1, ns.runtimeInfo(q).activeMessageCount());
    }

    @Test
    @DisplayName("SES-5 a session receiver on a non-session queue or subscription fails with INVALID_OPERATION")
    void sessionReceiveOnNonSessionEntity() {
        ns.createQueue("plain");
        BrokerException.InvalidOperation e = assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.acceptSession(EntityPath.queue("plain"), "A", Duration.ZERO));
        assertEquals(
                "It is not possible for an entity that does not require sessions to create a sessionful "
                        + "message receiver. Entity: 'plain'.",
                e.getMessage());
        assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.acceptSession(EntityPath.queue("plain"), null, Duration.ofSeconds(5)));
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.acceptSession(EntityPath.subscription("t", "s"), "A", Duration.ZERO));
        assertThrows(
                BrokerException.InvalidOperation.class, () -> ns.acceptSession(q.deadLetter(), null, Duration.ZERO));
    }

    // ---- TTL-13 -------------------------------------------------------------------------------

    @Test
    @DisplayName("TTL-13 a message expiring in a session held by a receiver expires all of the session's messages")
    void expiryInHeldSessionExpiresWholeSession() {
        ns.createQueue(
                "sq",
                QueueOptions.builder()
                        .requiresSession(true)
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        EntityPath sq = EntityPath.queue("sq");
        ns.send(
                "sq",
                Message.builder()
                        .sessionId("A")
                        .messageId("short")
                        .timeToLive(Duration.ofMinutes(1))
                        .build());
        ns.send("sq", Message.builder().sessionId("A").messageId("long").build());
        ns.send("sq", Message.builder().sessionId("B").messageId("other").build());
        SessionLock a = ns.acceptSession(sq, "A", Duration.ZERO);

        ns.clock().advance(Duration.ofSeconds(50)); // within the lock, past nothing
        ns.renewSessionLock(a);
        ns.clock().advance(Duration.ofSeconds(20)); // T0+70s: "short" expired while A is held

        assertEquals(List.of(), ns.receive(a, ReceiveMode.PEEK_LOCK, 10, Duration.ZERO));
        List<BrokeredMessage> dead = ns.receive(sq.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE, 10);
        assertEquals(List.of("short", "long"), ids(dead));
        dead.forEach(m -> assertEquals("TTLExpiredException", m.deadLetterReason()));
        SessionLock b = ns.acceptSession(sq, "B", Duration.ZERO);
        assertEquals(List.of("other"), ids(ns.receive(b, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO)));
    }

    @Test
    @DisplayName("TTL-13 accepting a session with an expired message expires all its messages (LAZY mode)")
    void acceptingSessionWithExpiredMessageExpiresAll() {
        Namespace lazy =
                Namespace.builder().startingAt(T0).expiryMode(ExpiryMode.LAZY).build();
        lazy.createQueue("sq", QueueOptions.builder().requiresSession(true).build());
        EntityPath sq = EntityPath.queue("sq");
        lazy.send(
                "sq",
                Message.builder()
                        .sessionId("A")
                        .messageId("short")
                        .timeToLive(Duration.ofMinutes(1))
                        .build());
        lazy.send("sq", Message.builder().sessionId("A").messageId("long").build());
        lazy.clock().advance(Duration.ofMinutes(2));
        assertEquals(2, lazy.runtimeInfo(sq).activeMessageCount(), "LAZY: still counted before a receiver comes");

        SessionLock a = lazy.acceptSession(sq, "A", Duration.ZERO);
        assertEquals(List.of(), lazy.receive(a, ReceiveMode.PEEK_LOCK, 10, Duration.ZERO));
        assertEquals(0, lazy.runtimeInfo(sq).activeMessageCount(), "both dropped (no dead-lettering on expiry)");
        assertEquals(0, lazy.runtimeInfo(sq).deadLetterMessageCount());
        lazy.close();
    }
}
