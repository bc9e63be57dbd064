package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lazyNamespace;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PeekTest {

    @Test
    @DisplayName("PEEK-1 peek never locks: the peeked message has no lock token and can still be received")
    void peekDoesNotLock() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("m"));

        BrokeredMessage peeked = ns.peek(Q, 0, 1).get(0);
        ns.peek(Q, 0, 1);
        BrokeredMessage received = lockOne(ns, Q);

        assertNull(peeked.lockToken());
        assertNull(peeked.lockedUntil());
        assertEquals(0, peeked.deliveryCount());
        assertEquals(0, received.deliveryCount(), "peeking is no delivery");
        assertEquals("m", received.message().messageId());
    }

    @Test
    @DisplayName("PEEK-1 peek returns active, locked, deferred and scheduled messages in sequence-number order; "
            + "dead-lettered ones only on the dead-letter queue")
    void peekShowsEveryState() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("locked"), msg("deferred"), msg("dead"), msg("active")));
        ns.schedule("q", msg("scheduled"), T0.plusSeconds(300));
        List<BrokeredMessage> taken = ns.receive(Q, ReceiveMode.PEEK_LOCK, 3);
        ns.defer(Q, taken.get(1).lockToken());
        ns.deadLetter(Q, taken.get(2).lockToken(), "R", "D", Map.of());

        List<BrokeredMessage> peeked = ns.peek(Q, 0, 100);

        assertEquals(List.of("locked", "deferred", "active", "scheduled"), ids(peeked));
        assertEquals(
                List.of(1L, 2L, 4L, 5L),
                peeked.stream().map(BrokeredMessage::sequenceNumber).toList());
        assertEquals(
                List.of(MessageState.ACTIVE, MessageState.DEFERRED, MessageState.ACTIVE, MessageState.SCHEDULED),
                peeked.stream().map(BrokeredMessage::state).toList());
        assertNull(peeked.get(0).lockToken(), "a peek never reveals the lock token");
        List<BrokeredMessage> dead = ns.peek(Q.deadLetter(), 0, 100);
        assertEquals(List.of("dead"), ids(dead));
        assertEquals("R", dead.get(0).deadLetterReason());
        assertEquals(List.of("dead"), ids(ns.peek(Q.deadLetter(), 0, 100)), "peeking the DLQ locks nothing either");
    }

    @Test
    @DisplayName("PEEK-1 peek starts at the given sequence number and returns at most 250 messages")
    void peekFromAndLimit() {
        Namespace ns = namespace();
        ns.createQueue("q");
        List<Message> batch = new ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            batch.add(Message.builder().messageId("m" + i).body(new byte[0]).build());
        }
        ns.send("q", batch.subList(0, 150));
        ns.send("q", batch.subList(150, 300));

        List<BrokeredMessage> all = ns.peek(Q, 0, 1000);
        List<BrokeredMessage> tail = ns.peek(Q, 280, 50);
        List<BrokeredMessage> three = ns.peek(Q, 10, 3);

        assertEquals(250, all.size());
        assertEquals(1, all.get(0).sequenceNumber());
        assertEquals(250, all.get(249).sequenceNumber());
        assertEquals(21, tail.size());
        assertEquals(280, tail.get(0).sequenceNumber());
        assertEquals(List.of("m10", "m11", "m12"), ids(three));
        assertEquals(List.of(), ns.peek(Q, 301, 10));
    }

    @Test
    @DisplayName("PEEK-1 expired messages appear in peek in LAZY mode only")
    void expiredMessagesInPeekOnlyWhenLazy() {
        Namespace eager = namespace();
        Namespace lazy = lazyNamespace();
        for (Namespace ns : List.of(eager, lazy)) {
            ns.createQueue("q");
            ns.send("q", List.of(msg("expired", Duration.ofSeconds(10)), msg("alive")));
            ns.clock().advance(Duration.ofSeconds(10));
        }

        assertEquals(List.of("alive"), ids(eager.peek(Q, 0, 10)));
        assertEquals(List.of("expired", "alive"), ids(lazy.peek(Q, 0, 10)));
    }
}
