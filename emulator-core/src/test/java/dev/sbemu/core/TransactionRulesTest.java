package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** TXN-1 beyond {@link TransactionTest}: several entities, subscriptions, sessions, every settlement kind. */
class TransactionRulesTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath in = EntityPath.queue("in");

    TransactionRulesTest() {
        ns.createQueue("in");
        ns.createQueue("out");
        ns.createTopic("events");
        ns.createSubscription("events", "audit");
        ns.createSubscription("events", "billing");
    }

    private static Message msg(String id) {
        return Message.builder().messageId(id).body(id).build();
    }

    private static List<String> ids(List<BrokeredMessage> messages) {
        return messages.stream().map(m -> m.message().messageId()).toList();
    }

    private List<BrokeredMessage> drain(EntityPath path) {
        return ns.receive(path, ReceiveMode.RECEIVE_AND_DELETE, 100);
    }

    @Test
    @DisplayName("TXN-1 settling a subscription message and sending to a queue and a topic commit together")
    void subscriptionSettlementAndCrossEntitySends() {
        EntityPath audit = EntityPath.subscription("events", "audit");
        ns.send("events", msg("e1"));
        BrokeredMessage e1 = ns.receive(audit, ReceiveMode.PEEK_LOCK, 1).get(0);

        Transaction tx = ns.beginTransaction();
        tx.complete(audit, e1.lockToken());
        tx.send("out", List.of(msg("o1")));
        tx.send("events", List.of(msg("e2")));
        assertEquals(1, ns.runtimeInfo(audit).activeMessageCount(), "the completion is pending");
        assertEquals(List.of("e1"), ids(ns.peek(EntityPath.subscription("events", "billing"), 0, 10)));
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("out")).activeMessageCount());
        tx.commit();

        assertEquals(List.of("e2"), ids(drain(audit)));
        List<BrokeredMessage> billing = drain(EntityPath.subscription("events", "billing"));
        assertEquals(List.of("e1", "e2"), ids(billing));
        assertEquals(
                List.of(1L, 2L),
                billing.stream().map(BrokeredMessage::sequenceNumber).toList());
        assertEquals(List.of("o1"), ids(drain(EntityPath.queue("out"))));
    }

    @Test
    @DisplayName("TXN-1 rollback of subscription settlements and topic sends applies none")
    void subscriptionRollback() {
        EntityPath audit = EntityPath.subscription("events", "audit");
        ns.send("events", msg("e1"));
        BrokeredMessage e1 = ns.receive(audit, ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.deadLetter(audit, e1.lockToken(), "r", "d", Map.of());
        tx.send("events", List.of(msg("e2")));
        tx.rollback();

        assertEquals(0, ns.runtimeInfo(audit).deadLetterMessageCount());
        ns.abandon(audit, e1.lockToken()); // still locked by this receiver
        assertEquals(List.of("e1"), ids(drain(audit)));
        assertThrows(BrokerException.TransactionFailed.class, () -> tx.send("out", List.of(msg("late"))));
    }

    @Test
    @DisplayName("TXN-1 abandon, defer, dead-letter and renew lock in one transaction take effect on commit")
    void everySettlementKind() {
        ns.send("in", List.of(msg("a"), msg("b"), msg("c"), msg("d")));
        List<BrokeredMessage> got = ns.receive(in, ReceiveMode.PEEK_LOCK, 4);
        ns.clock().advance(Duration.ofSeconds(30));

        Transaction tx = ns.beginTransaction();
        tx.abandon(in, got.get(0).lockToken(), Map.of("try", 2));
        tx.defer(in, got.get(1).lockToken(), Map.of());
        tx.deadLetter(in, got.get(2).lockToken(), "Invalid", "no customer", Map.of("k", "v"));
        assertEquals(T0.plusSeconds(90), tx.renewLock(in, got.get(3).lockToken()));
        tx.commit();

        List<BrokeredMessage> dead = drain(in.deadLetter());
        assertEquals(List.of("c"), ids(dead));
        assertEquals("Invalid", dead.get(0).deadLetterReason());
        assertEquals("no customer", dead.get(0).deadLetterErrorDescription());
        assertEquals("v", dead.get(0).message().applicationProperties().get("k"));

        ns.clock().advance(Duration.ofSeconds(45)); // T0+75: past the first lock, inside the renewed one
        ns.complete(in, got.get(3).lockToken());

        List<BrokeredMessage> again = ns.receive(in, ReceiveMode.PEEK_LOCK, 10);
        assertEquals(List.of("a"), ids(again), "b is deferred, c dead-lettered, d completed");
        assertEquals(1, again.get(0).deliveryCount());
        assertEquals(2, again.get(0).message().applicationProperties().get("try"));
        List<BrokeredMessage> deferred = ns.receiveDeferred(in, ReceiveMode.RECEIVE_AND_DELETE, List.of(2L));
        assertEquals(List.of("b"), ids(deferred));
    }

    @Test
    @DisplayName("TXN-1 a destination deleted before commit fails the commit with ENTITY_NOT_FOUND and applies nothing")
    void deletedDestinationFailsCommit() {
        ns.send("in", msg("job"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.complete(in, job.lockToken());
        tx.send("out", List.of(msg("result")));
        ns.deleteQueue("out");

        assertThrows(BrokerException.EntityNotFound.class, tx::commit);
        assertEquals(1, ns.runtimeInfo(in).activeMessageCount());
        ns.complete(in, job.lockToken()); // the lock was never released
        assertThrows(BrokerException.TransactionFailed.class, tx::commit);
    }

    @Test
    @DisplayName("TXN-1 a message settled outside the transaction before commit fails the commit; nothing applies")
    void settledOutsideFailsCommit() {
        ns.send("in", msg("job"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.send("out", List.of(msg("result")));
        tx.complete(in, job.lockToken());
        ns.complete(in, job.lockToken());
        BrokerException.MessageLockLost e = assertThrows(BrokerException.MessageLockLost.class, tx::commit);
        assertEquals(ErrorReason.MESSAGE_LOCK_LOST, e.reason());
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("out")).activeMessageCount());
    }

    @Test
    @DisplayName("TXN-2 a transaction's settlements are on one entity, its send-via entity: a message of another "
            + "entity cannot be settled in it; sends go to any entity via it")
    void sendViaEntity() {
        ns.send("in", msg("job"));
        ns.send("out", msg("other"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        BrokeredMessage other =
                ns.receive(EntityPath.queue("out"), ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.send("out", List.of(msg("result")));
        tx.complete(in, job.lockToken());

        BrokerException e =
                assertThrows(BrokerException.class, () -> tx.complete(EntityPath.queue("out"), other.lockToken()));

        assertEquals(ErrorReason.INVALID_OPERATION, e.reason());
        assertTrue(e.getMessage().contains("cannot span multiple top-level entities"), e.getMessage());
        tx.send("events", List.of(msg("note")));
        tx.commit();
        assertEquals(
                List.of("other", "result"),
                ids(ns.peek(EntityPath.queue("out"), 0, 10)),
                "the refused settlement changed nothing, the transaction went on");
        assertEquals(0, ns.runtimeInfo(in).activeMessageCount());
    }

    @Test
    @DisplayName("TXN-2 the dead-letter queue belongs to its entity: its messages settle in the entity's transaction")
    void deadLetterQueueIsTheSameEntity() {
        ns.send("in", msg("a"));
        ns.send("in", msg("b"));
        BrokeredMessage a = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        ns.deadLetter(in, a.lockToken(), "r", "d", Map.of());
        BrokeredMessage b = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        BrokeredMessage dead =
                ns.receive(in.deadLetter(), ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.complete(in, b.lockToken());
        tx.complete(in.deadLetter(), dead.lockToken());
        tx.commit();
        assertEquals(0, ns.runtimeInfo(in).totalMessageCount());
    }

    @Test
    @DisplayName("TXN-1 settling the same lock twice in one transaction is refused at once; the commit stays atomic")
    void sameLockTwiceInOneTransaction() {
        ns.send("in", msg("job"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.complete(in, job.lockToken());
        tx.send("out", List.of(msg("result")));
        assertThrows(BrokerException.MessageLockLost.class, () -> tx.complete(in, job.lockToken()));
        assertThrows(BrokerException.MessageLockLost.class, () -> tx.abandon(in, job.lockToken(), Map.of()));
        tx.commit();
        assertEquals(0, ns.runtimeInfo(in).activeMessageCount());
        assertEquals(List.of("result"), ids(drain(EntityPath.queue("out"))));
    }

    @Test
    @DisplayName("TXN-1 renew then complete of one lock in a transaction is allowed")
    void renewThenComplete() {
        ns.send("in", msg("job"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.renewLock(in, job.lockToken());
        tx.complete(in, job.lockToken());
        tx.commit();
        assertEquals(0, ns.runtimeInfo(in).totalMessageCount());
    }

    @Test
    @DisplayName("TXN-1 session messages settle in a transaction; a session lock lost before commit fails it")
    void sessionMessages() {
        ns.createQueue("sq", QueueOptions.builder().requiresSession(true).build());
        EntityPath sq = EntityPath.queue("sq");
        ns.send(
                "sq",
                List.of(
                        Message.builder().sessionId("A").messageId("a1").build(),
                        Message.builder().sessionId("A").messageId("a2").build()));
        SessionLock a = ns.acceptSession(sq, "A", Duration.ZERO);
        List<BrokeredMessage> got = ns.receive(a, ReceiveMode.PEEK_LOCK, 2, Duration.ZERO);

        Transaction ok = ns.beginTransaction();
        ok.complete(sq, got.get(0).lockToken());
        ok.send("sq", List.of(Message.builder().sessionId("A").messageId("a3").build()));
        assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ok.send("sq", List.of(msg("no-session"))),
                "SES-1 applies inside transactions");
        ok.commit();

        Transaction late = ns.beginTransaction();
        late.complete(sq, got.get(1).lockToken());
        late.send("out", List.of(msg("never")));
        ns.clock().advance(Duration.ofSeconds(60));
        assertThrows(BrokerException.SessionLockLost.class, late::commit);
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("out")).activeMessageCount());

        SessionLock again = ns.acceptSession(sq, "A", Duration.ZERO);
        List<BrokeredMessage> left = ns.receive(again, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO);
        assertEquals(List.of("a2", "a3"), ids(left));
        assertEquals(1, left.get(0).deliveryCount());
    }

    @Test
    @DisplayName("TXN-1 the timeout runs 2 minutes from the first operation, not from begin")
    void timeoutFromFirstOperation() {
        Transaction tx = ns.beginTransaction();
        ns.clock().advance(Duration.ofMinutes(5));
        tx.send("out", List.of(msg("a"))); // first operation at T0+5
        ns.clock().advance(Duration.ofSeconds(119));
        tx.send("out", List.of(msg("b"))); // T0+6:59
        tx.commit();
        assertEquals(List.of("a", "b"), ids(drain(EntityPath.queue("out"))));

        Transaction expired = ns.beginTransaction();
        expired.send("out", List.of(msg("c")));
        ns.clock().advance(Duration.ofMinutes(2));
        BrokerException.TransactionFailed e =
                assertThrows(BrokerException.TransactionFailed.class, () -> expired.send("out", List.of(msg("d"))));
        assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        assertEquals(ErrorReason.TRANSACTION_FAILED, e.reason());
    }

    @Test
    @DisplayName("TXN-1 a transactional send to a topic fans out on commit, with duplicate detection and rules")
    void topicSendInTransaction() {
        ns.createTopic(
                "dd", TopicOptions.builder().requiresDuplicateDetection(true).build());
        ns.createSubscription("dd", "s");
        ns.send("dd", msg("x"));
        Transaction tx = ns.beginTransaction();
        tx.send("dd", List.of(msg("x"), msg("y")));
        long[] scheduled = tx.schedule("dd", List.of(msg("z")), T0.plusSeconds(30));
        tx.commit();
        assertEquals(1, ns.runtimeInfo(EntityPath.queue("dd")).scheduledMessageCount());
        ns.clock().advance(Duration.ofSeconds(30));
        List<BrokeredMessage> got = drain(EntityPath.subscription("dd", "s"));
        assertEquals(List.of("x", "y", "z"), ids(got));
        assertEquals(2, scheduled[0], "reserved when scheduled, before the commit numbered y");
        assertEquals(
                List.of(1L, 3L, 4L),
                got.stream().map(BrokeredMessage::sequenceNumber).toList(),
                "y numbered at commit; z renumbered on activation (SCH-4)");
    }
}
