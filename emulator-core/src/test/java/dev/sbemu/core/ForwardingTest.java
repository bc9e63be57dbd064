package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.filter.SqlFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Auto-forwarding: FWD-1..4. */
class ForwardingTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();

    private static QueueOptions forwardingTo(String target) {
        return QueueOptions.builder().forwardTo(target).build();
    }

    private List<BrokeredMessage> drain(EntityPath path) {
        return ns.receive(path, ReceiveMode.RECEIVE_AND_DELETE, 100);
    }

    private static List<String> ids(List<BrokeredMessage> messages) {
        return messages.stream().map(m -> m.message().messageId()).toList();
    }

    private static Message msg(String id) {
        return Message.builder().messageId(id).body(id).build();
    }

    // ---- FWD-1 --------------------------------------------------------------------------------

    @Test
    @DisplayName("FWD-1 forwardTo moves every message from a queue to another queue; the source stays empty")
    void queueToQueue() {
        ns.createQueue("dst");
        ns.createQueue("src", forwardingTo("dst"));
        ns.send("src", msg("a"));
        ns.send("src", List.of(msg("b"), msg("c")));

        assertEquals(0, ns.runtimeInfo(EntityPath.queue("src")).totalMessageCount());
        List<BrokeredMessage> got = drain(EntityPath.queue("dst"));
        assertEquals(List.of("a", "b", "c"), ids(got));
        assertEquals(
                List.of("a", "b", "c"),
                got.stream().map(BrokeredMessage::bodyAsString).toList());
        got.forEach(m -> assertEquals(T0, m.enqueuedTime()));
        got.forEach(m -> assertNull(m.deadLetterSource()));
        assertEquals(
                3,
                ns.journal().events().stream()
                        .filter(e -> e.type() == JournalEvent.Type.FORWARDED
                                && e.entity().equals("src"))
                        .count());
    }

    @Test
    @DisplayName("FWD-1 forwardTo a topic: the forwarded message fans out to the topic's subscriptions")
    void queueToTopic() {
        ns.createTopic("events");
        ns.createSubscription("events", "all");
        ns.createSubscription(
                "events",
                "red",
                SubscriptionOptions.defaults(),
                List.of(new RuleDescription("red", SqlFilter.parse("color = 'red'"), null)));
        ns.createQueue("inbox", forwardingTo("events"));

        ns.send(
                "inbox",
                Message.builder()
                        .messageId("r")
                        .applicationProperty("color", "red")
                        .build());
        ns.send(
                "inbox",
                Message.builder()
                        .messageId("b")
                        .applicationProperty("color", "blue")
                        .build());

        assertEquals(List.of("r", "b"), ids(drain(EntityPath.subscription("events", "all"))));
        List<BrokeredMessage> red = drain(EntityPath.subscription("events", "red"));
        assertEquals(List.of("r"), ids(red));
        assertEquals(1, red.get(0).sequenceNumber(), "the topic's sequence number");
        assertEquals(1, red.get(0).enqueuedSequenceNumber(), "the inbox's sequence number");
    }

    @Test
    @DisplayName("FWD-1 a subscription forwards to a queue, even to one with the subscription's own name")
    void subscriptionToQueue() {
        ns.createQueue("audit");
        ns.createTopic("orders");
        ns.createSubscription(
                "orders",
                "audit",
                SubscriptionOptions.builder().forwardTo("audit").build());
        ns.createSubscription("orders", "plain");

        ns.send("orders", msg("o1"));
        ns.send("orders", msg("o2"));

        assertEquals(
                0, ns.runtimeInfo(EntityPath.subscription("orders", "audit")).totalMessageCount());
        List<BrokeredMessage> got = drain(EntityPath.queue("audit"));
        assertEquals(List.of("o1", "o2"), ids(got));
        assertEquals(
                List.of(1L, 2L),
                got.stream().map(BrokeredMessage::enqueuedSequenceNumber).toList());
        assertEquals(List.of("o1", "o2"), ids(drain(EntityPath.subscription("orders", "plain"))));
    }

    @Test
    @DisplayName("FWD-1 forwardDeadLetteredMessagesTo moves dead-lettered messages on, with deadLetterSource set")
    void deadLettersAreForwarded() {
        ns.createQueue("dead-sink");
        ns.createQueue(
                "work",
                QueueOptions.builder()
                        .forwardDeadLetteredMessagesTo("dead-sink")
                        .maxDeliveryCount(1)
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        EntityPath work = EntityPath.queue("work");
        ns.send("work", List.of(msg("explicit"), msg("abandoned"), msg("expires")));

        List<BrokeredMessage> got = ns.receive(work, ReceiveMode.PEEK_LOCK, 2);
        ns.deadLetter(work, got.get(0).lockToken(), "Poison", "bad payload", Map.of("k", "v"));
        ns.abandon(work, got.get(1).lockToken());
        ns.clock().advance(Duration.ofMinutes(10));

        assertEquals(0, ns.runtimeInfo(work).deadLetterMessageCount(), "nothing stays in the source's DLQ");
        List<BrokeredMessage> sink = drain(EntityPath.queue("dead-sink"));
        assertEquals(List.of("explicit", "abandoned", "expires"), ids(sink));
        sink.forEach(m -> assertEquals("work", m.deadLetterSource()));
        assertEquals(
                List.of("Poison", "MaxDeliveryCountExceeded", "TTLExpiredException"),
                sink.stream().map(BrokeredMessage::deadLetterReason).toList());
        assertEquals("bad payload", sink.get(0).deadLetterErrorDescription());
        assertEquals("v", sink.get(0).message().applicationProperties().get("k"));
        assertEquals(
                List.of(1L, 2L, 3L),
                sink.stream().map(BrokeredMessage::sequenceNumber).toList());
        assertEquals(
                List.of(1L, 2L, 3L),
                sink.stream().map(BrokeredMessage::enqueuedSequenceNumber).toList());
        assertEquals(T0.plus(Duration.ofMinutes(10)), sink.get(2).enqueuedTime());
    }

    @Test
    @DisplayName(
            "FWD-1 a subscription's dead-lettered messages are forwarded with the subscription as deadLetterSource")
    void subscriptionDeadLettersAreForwarded() {
        ns.createQueue("dead-sink");
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.builder()
                        .forwardDeadLetteredMessagesTo("dead-sink")
                        .build());
        ns.send("t", msg("m1"));
        EntityPath s = EntityPath.subscription("t", "s");
        ns.deadLetter(s, ns.receive(s, ReceiveMode.PEEK_LOCK, 1).get(0).lockToken());

        List<BrokeredMessage> sink = drain(EntityPath.queue("dead-sink"));
        assertEquals(List.of("m1"), ids(sink));
        assertEquals("t/Subscriptions/s", sink.get(0).deadLetterSource());
    }

    @Test
    @DisplayName("FWD-1 the forward destination must exist when the source is created or updated")
    void destinationMustExist() {
        InvalidOptionException e =
                assertThrows(InvalidOptionException.class, () -> ns.createQueue("src", forwardingTo("missing")));
        assertEquals("forwardTo", e.property());
        assertTrue(e.getMessage().contains("'missing'"), e.getMessage());
        assertTrue(!ns.queueExists("src"));

        InvalidOptionException dlq = assertThrows(
                InvalidOptionException.class,
                () -> ns.createQueue(
                        "src",
                        QueueOptions.builder()
                                .forwardDeadLetteredMessagesTo("missing")
                                .build()));
        assertEquals("forwardDeadLetteredMessagesTo", dlq.property());

        ns.createQueue("src");
        assertThrows(
                InvalidOptionException.class,
                () -> ns.updateQueue(
                        "src",
                        ns.getQueue("src").toBuilder().forwardTo("missing").build()));
        assertNull(ns.getQueue("src").forwardTo());

        ns.createTopic("t");
        assertThrows(
                InvalidOptionException.class,
                () -> ns.createSubscription(
                        "t",
                        "s",
                        SubscriptionOptions.builder().forwardTo("missing").build()));
        ns.createSubscription("t", "s");
        assertThrows(
                InvalidOptionException.class,
                () -> ns.updateSubscription(
                        "t",
                        "s",
                        SubscriptionOptions.builder()
                                .forwardDeadLetteredMessagesTo("missing")
                                .build()));

        ns.createQueue("later");
        ns.updateQueue("src", ns.getQueue("src").toBuilder().forwardTo("later").build());
        ns.send("src", msg("x"));
        assertEquals(List.of("x"), ids(drain(EntityPath.queue("later"))));
    }

    // ---- FWD-2 --------------------------------------------------------------------------------

    @Test
    @DisplayName("FWD-2 a forwarded message keeps its original sequence number as enqueuedSequenceNumber and gets a "
            + "new one in the destination")
    void sequenceNumbers() {
        ns.createQueue("dst");
        ns.createQueue("src", forwardingTo("dst"));
        ns.send("dst", List.of(msg("d1"), msg("d2"), msg("d3")));
        ns.send("src", List.of(msg("s1"), msg("s2")));

        List<BrokeredMessage> got = drain(EntityPath.queue("dst"));
        assertEquals(List.of("d1", "d2", "d3", "s1", "s2"), ids(got));
        assertEquals(
                List.of(1L, 2L, 3L, 4L, 5L),
                got.stream().map(BrokeredMessage::sequenceNumber).toList());
        assertEquals(
                List.of(0L, 0L, 0L, 1L, 2L),
                got.stream().map(BrokeredMessage::enqueuedSequenceNumber).toList());
    }

    @Test
    @DisplayName("FWD-2 over several hops enqueuedSequenceNumber stays the number of the original point of submission")
    void sequenceNumbersOverTwoHops() {
        ns.createQueue("c");
        ns.createQueue("b", forwardingTo("c"));
        ns.createQueue("a", forwardingTo("b"));
        ns.send("b", List.of(msg("b1"), msg("b2"))); // b #1, #2 -> c #1, #2
        ns.send("a", msg("a1")); // a #1 -> b #3 -> c #3

        List<BrokeredMessage> got = drain(EntityPath.queue("c"));
        assertEquals(List.of("b1", "b2", "a1"), ids(got));
        assertEquals(3, got.get(2).sequenceNumber());
        assertEquals(1, got.get(2).enqueuedSequenceNumber(), "a's number, not b's");
        assertEquals(2, got.get(1).enqueuedSequenceNumber());
    }

    // ---- FWD-3 --------------------------------------------------------------------------------

    private void chain(int length) {
        ns.createQueue("h" + length);
        for (int i = length - 1; i >= 1; i--) {
            ns.createQueue("h" + i, forwardingTo("h" + (i + 1)));
        }
    }

    @Test
    @DisplayName("FWD-3 four hops are allowed: h2 -> h3 -> h4 -> h5 -> h6 delivers")
    void fourHopsDeliver() {
        chain(6);
        ns.send("h2", msg("m"));
        assertEquals(List.of("m"), ids(drain(EntityPath.queue("h6"))));
    }

    @Test
    @DisplayName("FWD-3 a fifth hop is refused: the message lands in the transfer dead-letter queue with reason "
            + "MaxTransferHopCountExceeded")
    void fifthHopIsDeadLettered() {
        chain(6);
        ns.send("h1", msg("m"));

        assertEquals(0, ns.runtimeInfo(EntityPath.queue("h6")).totalMessageCount());
        EntityPath h5 = EntityPath.queue("h5");
        assertEquals(1, ns.runtimeInfo(h5).transferDeadLetterMessageCount());
        assertEquals(0, ns.runtimeInfo(h5).deadLetterMessageCount());
        List<BrokeredMessage> dead = drain(h5.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE));
        assertEquals(List.of("m"), ids(dead));
        assertEquals("MaxTransferHopCountExceeded", dead.get(0).deadLetterReason());
        assertEquals(1, dead.get(0).enqueuedSequenceNumber());
    }

    @Test
    @DisplayName("FWD-3 a deleted destination sends forwarded messages to the source's transfer dead-letter queue")
    void deletedDestination() {
        ns.createQueue("dst");
        ns.createQueue("src", forwardingTo("dst"));
        ns.deleteQueue("dst");
        ns.send("src", msg("m"));

        EntityPath src = EntityPath.queue("src");
        assertEquals(1, ns.runtimeInfo(src).transferDeadLetterMessageCount());
        List<BrokeredMessage> dead = drain(src.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE));
        assertEquals(List.of("m"), ids(dead));
        assertEquals("MessagingEntityNotFound", dead.get(0).deadLetterReason());
        assertEquals(1, dead.get(0).sequenceNumber());
    }

    @Test
    @DisplayName("FWD-3 a disabled destination sends forwarded messages to the source's transfer dead-letter queue")
    void disabledDestination() {
        ns.createTopic(
                "dst", TopicOptions.builder().status(EntityStatus.DISABLED).build());
        ns.createTopic("t");
        ns.createSubscription(
                "t", "s", SubscriptionOptions.builder().forwardTo("dst").build());
        ns.send("t", msg("m"));

        EntityPath s = EntityPath.subscription("t", "s");
        List<BrokeredMessage> dead = drain(s.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE));
        assertEquals(List.of("m"), ids(dead));
        assertEquals("MessagingEntityDisabled", dead.get(0).deadLetterReason());
        assertEquals(List.of(), drain(s.deadLetter()));
    }

    // ---- FWD-4 --------------------------------------------------------------------------------

    @Test
    @DisplayName(
            "FWD-4 no receiver can be opened on a forwarding queue or subscription; its dead-letter queue is readable")
    void noReceiverOnForwardingSource() {
        ns.createQueue("dst");
        ns.createQueue("src", forwardingTo("dst"));
        BrokerException.InvalidOperation e = assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.receive(EntityPath.queue("src"), ReceiveMode.PEEK_LOCK, 1));
        assertEquals(ErrorReason.INVALID_OPERATION, e.reason());
        assertTrue(
                e.getMessage().startsWith("Cannot create a message receiver on an entity with auto-forwarding enabled"),
                e.getMessage());

        ns.createTopic("t");
        ns.createSubscription(
                "t", "s", SubscriptionOptions.builder().forwardTo("dst").build());
        assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.receive(
                        EntityPath.subscription("t", "s"), ReceiveMode.RECEIVE_AND_DELETE, 1, Duration.ofSeconds(5)));
        assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.receiveDeferred(EntityPath.queue("src"), ReceiveMode.PEEK_LOCK, List.of(1L)));
        assertEquals(List.of(), ns.receive(EntityPath.queue("src").deadLetter(), ReceiveMode.PEEK_LOCK, 1));
    }

    @Test
    @DisplayName("FWD-4 a session-enabled queue or subscription cannot forward")
    void sessionEntityCannotForward() {
        ns.createQueue("dst");
        InvalidOptionException e = assertThrows(
                InvalidOptionException.class,
                () -> ns.createQueue(
                        "s",
                        QueueOptions.builder()
                                .requiresSession(true)
                                .forwardTo("dst")
                                .build()));
        assertEquals("forwardTo", e.property());
        assertTrue(!ns.queueExists("s"));

        ns.createQueue("s", QueueOptions.builder().requiresSession(true).build());
        assertThrows(
                InvalidOptionException.class,
                () -> ns.updateQueue(
                        "s", ns.getQueue("s").toBuilder().forwardTo("dst").build()));

        ns.createTopic("t");
        assertThrows(
                InvalidOptionException.class,
                () -> ns.createSubscription(
                        "t",
                        "sub",
                        SubscriptionOptions.builder()
                                .requiresSession(true)
                                .forwardTo("dst")
                                .build()));
    }
}
