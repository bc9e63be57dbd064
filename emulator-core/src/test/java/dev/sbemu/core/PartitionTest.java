package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Sequence numbers of partitioned entities: SEQ-2. */
class PartitionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final long LOW_48_BITS = (1L << 48) - 1;
    private final Namespace ns = Namespace.builder().startingAt(T0).build();

    private static int partitionOf(long sequenceNumber) {
        return (int) (sequenceNumber >>> 48);
    }

    private static long inPartition(long sequenceNumber) {
        return sequenceNumber & LOW_48_BITS;
    }

    private List<BrokeredMessage> drain(EntityPath path) {
        return ns.receive(path, ReceiveMode.RECEIVE_AND_DELETE, 250);
    }

    /** Per partition, the low 48 bits in arrival order. */
    private static Map<Integer, List<Long>> byPartition(List<BrokeredMessage> messages) {
        Map<Integer, List<Long>> byPartition = new TreeMap<>();
        messages.stream()
                .sorted((x, y) -> x.enqueuedTime().compareTo(y.enqueuedTime()) != 0
                        ? x.enqueuedTime().compareTo(y.enqueuedTime())
                        : Long.compare(inPartition(x.sequenceNumber()), inPartition(y.sequenceNumber())))
                .forEach(m -> byPartition
                        .computeIfAbsent(partitionOf(m.sequenceNumber()), p -> new ArrayList<>())
                        .add(inPartition(m.sequenceNumber())));
        return byPartition;
    }

    @Test
    @DisplayName("SEQ-2 a partitioned queue: partition id in the top 16 bits, numbers gap-free per partition from 1")
    void partitionedQueue() {
        ns.createQueue("pq", QueueOptions.builder().enablePartitioning(true).build());
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < 40; k++) {
                ns.send(
                        "pq",
                        Message.builder()
                                .partitionKey("key-" + k)
                                .messageId("k" + k + "-r" + round)
                                .applicationProperty("key", "key-" + k)
                                .applicationProperty("round", round)
                                .build());
            }
            ns.clock().advance(Duration.ofSeconds(1));
        }
        List<BrokeredMessage> got = drain(EntityPath.queue("pq"));
        assertEquals(120, got.size());

        Map<Integer, List<Long>> partitions = byPartition(got);
        assertTrue(partitions.size() > 1, "40 keys spread over several partitions: " + partitions.keySet());
        partitions.forEach((partition, numbers) -> {
            assertTrue(partition >= 0 && partition < 1 << 16);
            List<Long> expected = new ArrayList<>();
            for (long n = 1; n <= numbers.size(); n++) {
                expected.add(n);
            }
            assertEquals(expected, numbers, "partition " + partition + " is gap-free from 1");
        });
        for (BrokeredMessage m : got) {
            assertEquals(partitionOf(m.sequenceNumber()), m.partitionId());
        }
        assertEquals(
                120,
                got.stream().map(BrokeredMessage::sequenceNumber).distinct().count(),
                "unique");
    }

    @Test
    @DisplayName("SEQ-2 the same partition key always lands in the same partition, in arrival order there")
    void samePartitionKeySamePartition() {
        ns.createQueue("pq", QueueOptions.builder().enablePartitioning(true).build());
        for (int i = 0; i < 5; i++) {
            ns.send(
                    "pq",
                    Message.builder()
                            .partitionKey("customer-7")
                            .messageId("c7-" + i)
                            .build());
            ns.send(
                    "pq",
                    Message.builder().partitionKey("customer-" + (100 + i)).build());
        }
        List<BrokeredMessage> sevens = drain(EntityPath.queue("pq")).stream()
                .filter(m -> "customer-7".equals(m.message().partitionKey()))
                .toList();
        assertEquals(5, sevens.size());
        int partition = sevens.get(0).partitionId();
        sevens.forEach(m -> assertEquals(partition, m.partitionId()));
        List<Long> numbers =
                sevens.stream().map(BrokeredMessage::sequenceNumber).sorted().toList();
        for (int i = 1; i < numbers.size(); i++) {
            assertTrue(numbers.get(i) > numbers.get(i - 1));
        }
        assertEquals(
                List.of("c7-0", "c7-1", "c7-2", "c7-3", "c7-4"),
                sevens.stream()
                        .sorted((x, y) -> Long.compare(x.sequenceNumber(), y.sequenceNumber()))
                        .map(m -> m.message().messageId())
                        .toList());
    }

    @Test
    @DisplayName("SEQ-2 a session id places its messages like a partition key")
    void sessionIdActsAsPartitionKey() {
        ns.createQueue(
                "ps",
                QueueOptions.builder()
                        .enablePartitioning(true)
                        .requiresSession(true)
                        .build());
        ns.createQueue("pk", QueueOptions.builder().enablePartitioning(true).build());
        ns.send("ps", Message.builder().sessionId("S-1").build());
        ns.send("pk", Message.builder().partitionKey("S-1").build());
        ns.send("ps", Message.builder().sessionId("S-1").partitionKey("S-1").build());

        SessionLock s = ns.acceptSession(EntityPath.queue("ps"), "S-1", Duration.ZERO);
        List<BrokeredMessage> session = ns.receive(s, ReceiveMode.RECEIVE_AND_DELETE, 10, Duration.ZERO);
        long keyed = drain(EntityPath.queue("pk")).get(0).sequenceNumber();
        assertEquals(2, session.size());
        assertEquals(keyed, session.get(0).sequenceNumber(), "same partition, first number there");
        assertEquals(keyed + 1, session.get(1).sequenceNumber());
    }

    @Test
    @DisplayName("SEQ-2 RUL-5 a partitioned topic numbers per partition; subscription copies keep the topic's number")
    void partitionedTopic() {
        ns.createTopic("pt", TopicOptions.builder().enablePartitioning(true).build());
        ns.createSubscription("pt", "a");
        ns.createSubscription("pt", "b");
        for (int k = 0; k < 30; k++) {
            ns.send(
                    "pt",
                    Message.builder()
                            .partitionKey("key-" + k)
                            .messageId("m" + k)
                            .build());
        }
        List<BrokeredMessage> a = drain(EntityPath.subscription("pt", "a"));
        List<BrokeredMessage> b = drain(EntityPath.subscription("pt", "b"));
        assertEquals(30, a.size());
        assertEquals(
                a.stream().map(BrokeredMessage::sequenceNumber).sorted().toList(),
                b.stream().map(BrokeredMessage::sequenceNumber).sorted().toList());
        Map<Integer, List<Long>> partitions = byPartition(a);
        assertTrue(partitions.size() > 1, partitions.keySet().toString());
        partitions.forEach((partition, numbers) -> {
            for (int i = 0; i < numbers.size(); i++) {
                assertEquals(i + 1, numbers.get(i), "partition " + partition + ": " + numbers);
            }
        });
        a.forEach(m -> assertEquals(partitionOf(m.sequenceNumber()), m.partitionId()));
    }

    @Test
    @DisplayName("SEQ-2 an unpartitioned queue numbers 1, 2, 3, ... with partition id -1")
    void unpartitioned() {
        ns.createQueue("q");
        for (int k = 0; k < 5; k++) {
            ns.send("q", Message.builder().partitionKey("key-" + k).build());
        }
        List<BrokeredMessage> got = drain(EntityPath.queue("q"));
        assertEquals(
                List.of(1L, 2L, 3L, 4L, 5L),
                got.stream().map(BrokeredMessage::sequenceNumber).toList());
        got.forEach(m -> assertEquals(-1, m.partitionId()));
    }

    @Test
    @DisplayName("SEQ-2 a scheduled message on a partitioned queue activates with the next number of its partition")
    void scheduledOnPartitionedQueue() {
        ns.createQueue("pq", QueueOptions.builder().enablePartitioning(true).build());
        long scheduledAs = ns.schedule("pq", Message.builder().partitionKey("k").build(), T0.plusSeconds(10));
        ns.send("pq", Message.builder().partitionKey("k").build());
        int partition = partitionOf(scheduledAs);
        assertEquals(1, inPartition(scheduledAs));
        ns.clock().advance(Duration.ofSeconds(10));
        List<BrokeredMessage> got = drain(EntityPath.queue("pq"));
        assertEquals(
                List.of(((long) partition << 48) | 2, ((long) partition << 48) | 3),
                got.stream().map(BrokeredMessage::sequenceNumber).toList());
    }
}
