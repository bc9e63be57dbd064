package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DeliveryCountTest {
    private final Namespace ns = Namespace.builder()
            .startingAt(Instant.parse("2026-01-01T10:00:00Z"))
            .build();
    private final EntityPath q = EntityPath.queue("q");

    @Test
    @DisplayName("DLQ-2 a released message is available again without counting a delivery")
    void releaseDoesNotCount() {
        ns.createQueue("q");
        ns.send("q", Message.ofText("x"));
        BrokeredMessage first = ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0);

        ns.release(q, first.lockToken());

        BrokeredMessage again = ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0);
        assertEquals(0, again.deliveryCount());
        assertEquals(first.sequenceNumber(), again.sequenceNumber());
        assertThrows(BrokerException.MessageLockLost.class, () -> ns.complete(q, first.lockToken()));
    }

    @Test
    @DisplayName("DLQ-4 deferring does not count as a delivery: only abandon and lock expiry do")
    void deferDoesNotCount() {
        ns.createQueue("q");
        ns.send("q", Message.ofText("x"));
        BrokeredMessage first = ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0);

        ns.defer(q, first.lockToken());

        BrokeredMessage deferred = ns.receiveDeferred(q, ReceiveMode.PEEK_LOCK, List.of(first.sequenceNumber()))
                .get(0);
        assertEquals(0, deferred.deliveryCount());
    }
}
