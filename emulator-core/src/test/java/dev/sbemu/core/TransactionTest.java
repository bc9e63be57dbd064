package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TransactionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath in = EntityPath.queue("in");
    private final EntityPath out = EntityPath.queue("out");

    TransactionTest() {
        ns.createQueue("in");
        ns.createQueue("out");
    }

    @Test
    @DisplayName("TXN-1 commit applies a completion and a send together")
    void commitAppliesAll() {
        ns.send("in", Message.ofText("job"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);

        Transaction tx = ns.beginTransaction();
        tx.complete(in, job.lockToken());
        tx.send("out", List.of(Message.ofText("result")));
        assertEquals(0, ns.runtimeInfo(out).activeMessageCount(), "nothing visible before commit");
        tx.commit();

        assertEquals(0, ns.runtimeInfo(in).activeMessageCount());
        assertEquals(1, ns.runtimeInfo(out).activeMessageCount());
    }

    @Test
    @DisplayName("TXN-1 rollback applies nothing; the locked message stays locked")
    void rollbackAppliesNothing() {
        ns.send("in", Message.ofText("job"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);

        Transaction tx = ns.beginTransaction();
        tx.complete(in, job.lockToken());
        tx.send("out", List.of(Message.ofText("result")));
        tx.rollback();

        assertEquals(1, ns.runtimeInfo(in).activeMessageCount());
        assertEquals(0, ns.runtimeInfo(out).activeMessageCount());
        assertThrows(BrokerException.TransactionFailed.class, tx::commit);
        ns.complete(in, job.lockToken());
    }

    @Test
    @DisplayName("TXN-1 a transaction times out 2 minutes after its first operation")
    void timesOut() {
        Transaction tx = ns.beginTransaction();
        tx.send("out", List.of(Message.ofText("x")));
        ns.clock().advance(Duration.ofMinutes(2));
        assertThrows(BrokerException.TransactionFailed.class, tx::commit);
        assertEquals(0, ns.runtimeInfo(out).activeMessageCount());
    }

    @Test
    @DisplayName("TXN-1 a lock lost before commit fails the commit and applies nothing")
    void lockLostFailsCommit() {
        ns.send("in", Message.ofText("job"));
        BrokeredMessage job = ns.receive(in, ReceiveMode.PEEK_LOCK, 1).get(0);
        Transaction tx = ns.beginTransaction();
        tx.send("out", List.of(Message.ofText("result")));
        tx.abandon(in, job.lockToken(), Map.of());
        ns.clock().advance(Duration.ofSeconds(61));
        assertThrows(BrokerException.MessageLockLost.class, tx::commit);
        assertEquals(0, ns.runtimeInfo(out).activeMessageCount());
    }

    @Test
    @DisplayName("TXN-1 at most 100 operations")
    void atMostHundred() {
        Transaction tx = ns.beginTransaction();
        for (int i = 0; i < 100; i++) {
            tx.send("out", List.of(Message.ofText("m" + i)));
        }
        assertThrows(BrokerException.QuotaExceeded.class, () -> tx.send("out", List.of(Message.ofText("x"))));
    }

    @Test
    @DisplayName("TXN-1 a scheduled message in a transaction keeps its reserved sequence number")
    void scheduleInTransaction() {
        Transaction tx = ns.beginTransaction();
        long[] seq = tx.schedule("out", List.of(Message.ofText("later")), T0.plus(Duration.ofMinutes(5)));
        tx.commit();
        List<BrokeredMessage> peeked = ns.peek(out, 0, 10);
        assertEquals(1, peeked.size());
        assertEquals(seq[0], peeked.get(0).sequenceNumber());
        assertEquals(MessageState.SCHEDULED, peeked.get(0).state());
    }
}
