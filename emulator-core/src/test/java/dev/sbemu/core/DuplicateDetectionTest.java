package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Duplicate detection: DUP-1, and SCH-7's first sentence. */
class DuplicateDetectionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath q = EntityPath.queue("q");

    DuplicateDetectionTest() {
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .requiresDuplicateDetection(true)
                        .duplicateDetectionHistoryTimeWindow(Duration.ofMinutes(1))
                        .build());
    }

    private static Message msg(String id, String body) {
        return Message.builder().messageId(id).body(body).build();
    }

    private List<BrokeredMessage> drain(EntityPath path) {
        return ns.receive(path, ReceiveMode.RECEIVE_AND_DELETE, 100);
    }

    private long droppedCount() {
        return ns.journal().events().stream()
                .filter(e -> e.type() == JournalEvent.Type.DUPLICATE_DROPPED)
                .count();
    }

    @Test
    @DisplayName("DUP-1 a messageId seen within the window is accepted by the send and silently dropped")
    void duplicateWithinWindowIsDropped() {
        ns.send("q", msg("order-1", "first"));
        ns.clock().advance(Duration.ofSeconds(30));
        ns.send("q", msg("order-1", "second")); // no exception
        ns.send("q", msg("order-2", "other"));
        ns.send("q", List.of(msg("order-2", "dup in batch"), msg("order-3", "new in batch")));

        List<BrokeredMessage> got = drain(q);
        assertEquals(
                List.of("first", "other", "new in batch"),
                got.stream().map(BrokeredMessage::bodyAsString).toList());
        assertEquals(
                List.of(1L, 2L, 3L),
                got.stream().map(BrokeredMessage::sequenceNumber).toList(),
                "dropped duplicates take no sequence number");
        assertEquals(2, droppedCount());
    }

    @Test
    @DisplayName("DUP-1 the window runs from the first sighting; once the clock has passed it the id is accepted again")
    void acceptedAgainAfterWindow() {
        ns.send("q", msg("m", "1"));
        ns.clock().advance(Duration.ofSeconds(59));
        ns.send("q", msg("m", "2 (dropped, within 60 s)"));
        ns.clock().advance(Duration.ofSeconds(1)); // T0+60 s: the window of the first sighting is over
        ns.send("q", msg("m", "3"));
        ns.clock().advance(Duration.ofSeconds(30));
        ns.send("q", msg("m", "4 (dropped, within the window of #3)"));

        List<BrokeredMessage> got = drain(q);
        assertEquals(
                List.of("1", "3"),
                got.stream().map(BrokeredMessage::bodyAsString).toList());
        assertEquals(
                List.of(T0, T0.plusSeconds(60)),
                got.stream().map(BrokeredMessage::enqueuedTime).toList());
        assertEquals(
                List.of(1L, 2L),
                got.stream().map(BrokeredMessage::sequenceNumber).toList());
    }

    @Test
    @DisplayName("DUP-1 a duplicate is dropped even when the first copy was already received and completed")
    void duplicateOfConsumedMessage() {
        ns.send("q", msg("m", "1"));
        ns.complete(q, ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0).lockToken());
        ns.send("q", msg("m", "again"));
        assertEquals(0, ns.runtimeInfo(q).activeMessageCount());
    }

    @Test
    @DisplayName("DUP-1 messages without messageId and entities without detection are never deduplicated")
    void noIdOrNoDetection() {
        ns.send("q", Message.ofText("a"));
        ns.send("q", Message.ofText("b"));
        ns.createQueue("plain");
        ns.send("plain", msg("same", "1"));
        ns.send("plain", msg("same", "2"));
        assertEquals(2, drain(q).size());
        assertEquals(2, drain(EntityPath.queue("plain")).size());
    }

    @Test
    @DisplayName("DUP-1 SCH-7 scheduled messages take part in duplicate detection, by either scheduling path")
    void scheduledMessagesCount() {
        long seq = ns.schedule("q", msg("s", "scheduled"), T0.plus(Duration.ofMinutes(5)));
        assertEquals(1, seq);
        ns.send("q", msg("s", "sent while the first is scheduled"));
        ns.send(
                "q",
                Message.builder()
                        .messageId("s")
                        .body("scheduled again via send")
                        .scheduledEnqueueTime(T0.plus(Duration.ofMinutes(2)))
                        .build());
        assertEquals(1, ns.runtimeInfo(q).scheduledMessageCount());
        assertEquals(0, ns.runtimeInfo(q).activeMessageCount());

        ns.send("q", msg("t", "sent first"));
        ns.schedule("q", msg("t", "scheduled duplicate"), T0.plus(Duration.ofMinutes(5)));
        assertEquals(1, ns.runtimeInfo(q).scheduledMessageCount());

        ns.clock().advance(Duration.ofMinutes(5));
        List<BrokeredMessage> got = drain(q);
        assertEquals(
                List.of("sent first", "scheduled"),
                got.stream().map(BrokeredMessage::bodyAsString).toList());
        assertEquals(3, droppedCount());
    }

    @Test
    @DisplayName(
            "DUP-1 SCH-7 a topic with duplicate detection drops duplicates before fan-out, scheduled ones included")
    void topicDetection() {
        ns.createTopic(
                "t", TopicOptions.builder().requiresDuplicateDetection(true).build());
        ns.createSubscription("t", "a");
        ns.createSubscription("t", "b");
        ns.send("t", msg("x", "1"));
        ns.send("t", msg("x", "2"));
        ns.schedule("t", msg("y", "scheduled"), T0.plus(Duration.ofSeconds(30)));
        ns.send("t", msg("y", "dup of scheduled"));
        ns.clock().advance(Duration.ofSeconds(30));

        for (String sub : List.of("a", "b")) {
            List<BrokeredMessage> got = drain(EntityPath.subscription("t", sub));
            assertEquals(
                    List.of("1", "scheduled"),
                    got.stream().map(BrokeredMessage::bodyAsString).toList());
        }
        ns.clock().advance(Duration.ofSeconds(31)); // 61 s after "x" was first seen (default window 60 s)
        ns.send("t", msg("x", "3"));
        assertEquals(
                List.of("3"),
                drain(EntityPath.subscription("t", "a")).stream()
                        .map(BrokeredMessage::bodyAsString)
                        .toList());
    }

    @Test
    @DisplayName("DUP-1 a duplicate sent in a transaction is dropped on commit")
    void transactionalDuplicate() {
        ns.send("q", msg("m", "1"));
        Transaction tx = ns.beginTransaction();
        tx.send("q", List.of(msg("m", "dup"), msg("n", "new")));
        tx.commit();
        assertEquals(
                List.of("1", "new"),
                drain(q).stream().map(BrokeredMessage::bodyAsString).toList());
    }

    @Test
    @DisplayName("DUP-1 on a partitioned entity duplicates are messageId + partitionKey")
    void partitionedComparesIdAndKey() {
        ns.createQueue(
                "pq",
                QueueOptions.builder()
                        .enablePartitioning(true)
                        .requiresDuplicateDetection(true)
                        .build());
        ns.send(
                "pq",
                Message.builder().messageId("m").partitionKey("k1").body("k1").build());
        ns.send(
                "pq",
                Message.builder().messageId("m").partitionKey("k2").body("k2").build());
        ns.send(
                "pq",
                Message.builder()
                        .messageId("m")
                        .partitionKey("k1")
                        .body("k1 again")
                        .build());

        List<String> bodies = drain(EntityPath.queue("pq")).stream()
                .map(BrokeredMessage::bodyAsString)
                .sorted()
                .toList();
        assertEquals(List.of("k1", "k2"), bodies);
    }
}
