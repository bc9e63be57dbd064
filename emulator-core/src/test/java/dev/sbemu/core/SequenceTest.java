package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SequenceTest {

    private static List<Long> sequenceNumbers(List<BrokeredMessage> messages) {
        return messages.stream().map(BrokeredMessage::sequenceNumber).toList();
    }

    @Test
    @DisplayName("SEQ-1 every received and peeked message has a sequence number and an enqueued time")
    void receivedAndPeekedMessagesCarrySequenceAndTime() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("a"), msg("b")));

        BrokeredMessage peeked = ns.peek(Q, 0, 1).get(0);
        BrokeredMessage received =
                ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 1).get(0);

        assertEquals(1, peeked.sequenceNumber());
        assertEquals(T0, peeked.enqueuedTime());
        assertEquals(1, received.sequenceNumber());
        assertEquals(T0, received.enqueuedTime());
        assertEquals("a", received.message().messageId());
    }

    @Test
    @DisplayName("SEQ-2 sequence numbers are gap-free, increasing and per queue")
    void gapFreePerQueue() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.createQueue("other");

        for (int i = 0; i < 5; i++) {
            ns.send("q", msg("q" + i));
        }
        ns.send("other", List.of(msg("o0"), msg("o1"), msg("o2")));
        ns.send("q", msg("q5"));

        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), sequenceNumbers(ns.peek(Q, 0, 100)));
        assertEquals(List.of(1L, 2L, 3L), sequenceNumbers(ns.peek(EntityPath.queue("other"), 0, 100)));
    }

    @Test
    @DisplayName("SEQ-2 a topic numbers its messages; every subscription sees the topic's number")
    void topicNumbersMessages() {
        Namespace ns = namespace();
        ns.createTopic("t");
        ns.createSubscription("t", "s1");
        ns.send("t", List.of(msg("a"), msg("b")));
        ns.createSubscription("t", "s2");
        ns.send("t", msg("c"));

        assertEquals(List.of(1L, 2L, 3L), sequenceNumbers(ns.peek(EntityPath.subscription("t", "s1"), 0, 10)));
        assertEquals(List.of(3L), sequenceNumbers(ns.peek(EntityPath.subscription("t", "s2"), 0, 10)));
    }

    @Test
    @DisplayName("SEQ-2 on a partitioned queue the top 16 bits hold the partition id and each partition counts "
            + "gap-free on its own")
    void partitionedSequenceNumbers() {
        Namespace ns = namespace();
        ns.createQueue("q", QueueOptions.builder().enablePartitioning(true).build());
        List<Message> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sent.add(Message.builder()
                    .messageId("m" + i)
                    .partitionKey("key" + (i % 5))
                    .body("x")
                    .build());
        }
        ns.send("q", sent);

        List<BrokeredMessage> all = ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 40);
        assertEquals(40, all.size());
        Map<Integer, List<Long>> lowBitsByPartition = new HashMap<>();
        Map<String, Integer> partitionByKey = new HashMap<>();
        for (BrokeredMessage m : all) {
            int partition = (int) (m.sequenceNumber() >>> 48);
            assertEquals(
                    m.partitionId(),
                    partition,
                    "top 16 bits = partition id of " + m.message().messageId());
            assertTrue(partition >= 0 && partition < 16);
            Integer before = partitionByKey.putIfAbsent(m.message().partitionKey(), partition);
            assertTrue(before == null || before == partition, "one partition per key");
            lowBitsByPartition
                    .computeIfAbsent(partition, p -> new ArrayList<>())
                    .add(m.sequenceNumber() & 0xFFFF_FFFF_FFFFL);
        }
        for (List<Long> numbers : lowBitsByPartition.values()) {
            List<Long> sorted = new ArrayList<>(numbers);
            sorted.sort(null);
            for (int i = 0; i < sorted.size(); i++) {
                assertEquals(i + 1L, sorted.get(i), "gap-free within a partition: " + sorted);
            }
        }
    }

    @Test
    @DisplayName("SEQ-3 receive order is sequence-number order even when all enqueued times tie")
    void receiveOrderIsSequenceOrder() {
        Namespace ns = namespace();
        ns.createQueue("q");
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            batch.add(msg("m" + i));
        }
        ns.send("q", batch);

        List<BrokeredMessage> first = ns.receive(Q, ReceiveMode.PEEK_LOCK, 3);
        ns.abandon(Q, first.get(1).lockToken());
        List<BrokeredMessage> rest = ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 100);

        assertEquals(List.of(1L, 2L, 3L), sequenceNumbers(first));
        assertTrue(first.stream().allMatch(m -> m.enqueuedTime().equals(T0)), "timestamps tie");
        assertEquals(2L, rest.get(0).sequenceNumber(), "the abandoned message is first in line again");
        List<Long> expected = new ArrayList<>(List.of(2L));
        for (long s = 4; s <= 20; s++) {
            expected.add(s);
        }
        assertEquals(expected, sequenceNumbers(rest));
    }

    @Test
    @DisplayName("SEQ-4 enqueuedTime is the virtual instant at which the broker accepted the message")
    void enqueuedTimeIsVirtualAcceptance() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("a"));
        ns.clock().advance(Duration.ofMillis(1500));
        ns.send("q", msg("b"));
        ns.clock().advance(Duration.ofHours(2));

        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 2);

        assertEquals(T0, got.get(0).enqueuedTime());
        assertEquals(T0.plusMillis(1500), got.get(1).enqueuedTime());
    }

    @Test
    @DisplayName("SEQ-5 sequence numbers fix extraction order, not processing order: two consumers may finish "
            + "out of order")
    void processingOrderIsNotSequenceOrder() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("first"), msg("second")));

        BrokeredMessage consumerA = ns.receive(Q, ReceiveMode.PEEK_LOCK, 1).get(0);
        BrokeredMessage consumerB = ns.receive(Q, ReceiveMode.PEEK_LOCK, 1).get(0);
        ns.complete(Q, consumerB.lockToken());
        ns.complete(Q, consumerA.lockToken());

        assertEquals(
                List.of("first", "second"),
                List.of(consumerA.message().messageId(), consumerB.message().messageId()));
        List<JournalEvent> completed = events(ns, JournalEvent.Type.COMPLETED);
        assertEquals(
                List.of(2L, 1L),
                completed.stream().map(JournalEvent::sequenceNumber).toList());
        assertEquals(List.of(), ids(ns.peek(Q, 0, 10)));
    }
}
