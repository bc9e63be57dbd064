package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LimitsTest {

    private static void assertRejected(String property, Runnable action) {
        InvalidOptionException e = assertThrows(InvalidOptionException.class, action::run);
        assertEquals(property, e.property(), e.getMessage());
        assertTrue(e.getMessage().startsWith("Invalid " + property + " '"), e.getMessage());
    }

    // ---- names --------------------------------------------------------------------------------

    @Test
    @DisplayName("LIM-2 queue and topic names: up to 260 characters of letters, digits, '.', '-', '_' and '/'")
    void validQueueAndTopicNames() {
        Namespace ns = namespace();
        String longest = "a".repeat(259) + "z";

        ns.createQueue(longest);
        ns.createQueue("orders/eu/2026");
        ns.createTopic("a.b-c_d");
        ns.createTopic("7");

        assertTrue(ns.queueExists(longest));
        assertEquals(List.of(longest, "orders/eu/2026"), ns.queueNames());
        assertEquals(List.of("7", "a.b-c_d"), ns.topicNames());
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "",
                "-orders",
                "orders-",
                "orders.",
                "/orders",
                "orders/",
                "or ders",
                "or//ders",
                "ordérs",
                "orders#1"
            })
    @DisplayName("LIM-2 invalid queue and topic names are rejected naming the property")
    void invalidQueueAndTopicNames(String name) {
        Namespace ns = namespace();

        assertRejected("queue name", () -> ns.createQueue(name));
        assertRejected("topic name", () -> ns.createTopic(name));
        assertEquals(List.of(), ns.queueNames());
        assertEquals(List.of(), ns.topicNames());
    }

    @Test
    @DisplayName("LIM-2 names longer than 260 (queues, topics) or 50 (subscriptions) characters are rejected")
    void nameLengths() {
        Namespace ns = namespace();
        ns.createTopic("t");

        assertRejected("queue name", () -> ns.createQueue("a".repeat(261)));
        assertRejected("topic name", () -> ns.createTopic("a".repeat(261)));
        ns.createSubscription("t", "s".repeat(50));
        assertRejected("subscription name", () -> ns.createSubscription("t", "s".repeat(51)));
        assertRejected("subscription name", () -> ns.createSubscription("t", "a/b"));
        assertRejected("subscription name", () -> ns.createSubscription("t", "_a"));
        assertEquals(List.of("s".repeat(50)), ns.subscriptionNames("t"));
    }

    @Test
    @DisplayName(
            "JMS-16 the names the service makes for JMS subscriptions (<name>$<client id>$D or $ND) are accepted at any length; other '$' names are not")
    void jmsSubscriptionNames() {
        Namespace ns = namespace();
        ns.createTopic("t");
        String longClientId = "ID:" + "c".repeat(60) + ":1";
        ns.createSubscription("t", "audit$billing$D");
        ns.createSubscription("t", "audit$$ND");
        ns.createSubscription("t", "live$" + longClientId + "$ND");
        assertRejected("subscription name", () -> ns.createSubscription("t", "audit$billing"));
        assertRejected("subscription name", () -> ns.createSubscription("t", "a$b$X"));
        assertEquals(3, ns.subscriptionNames("t").size());
    }

    @Test
    @DisplayName("LIM-2 messageId, sessionId and partitionKey are at most 128 characters; a batch with one bad "
            + "message sends none")
    void messageFieldLengths() {
        Namespace ns = namespace();
        ns.createQueue("q");
        String ok = "x".repeat(128);
        String tooLong = "x".repeat(129);

        ns.send(
                "q",
                Message.builder()
                        .messageId(ok)
                        .sessionId(ok)
                        .partitionKey(ok)
                        .body("b")
                        .build());
        assertRejected(
                "messageId",
                () -> ns.send(
                        "q",
                        List.of(
                                msg("fine"),
                                Message.builder().messageId(tooLong).body("b").build())));
        assertRejected(
                "sessionId",
                () -> ns.send(
                        "q", Message.builder().sessionId(tooLong).body("b").build()));
        assertRejected(
                "partitionKey",
                () -> ns.send(
                        "q", Message.builder().partitionKey(tooLong).body("b").build()));
        assertRejected(
                "messageId",
                () -> ns.schedule(
                        "q",
                        Message.builder().messageId(tooLong).body("b").build(),
                        ns.clock().instant().plusSeconds(60)));

        assertEquals(1, ns.runtimeInfo(Q).totalMessageCount());
        assertEquals(ok, ns.peek(Q, 0, 10).get(0).message().messageId());
    }

    // ---- entity properties ----------------------------------------------------------------------

    @Test
    @DisplayName("LIM-2 lockDuration outside 5 s..5 min, maxDeliveryCount below 1, autoDeleteOnIdle below 5 min "
            + "and a duplicate window outside 20 s..7 days are rejected naming the property")
    void invalidQueueProperties() {
        Namespace ns = namespace();
        QueueOptions.Builder base = QueueOptions.builder();

        assertRejected(
                "lockDuration",
                () -> ns.createQueue(
                        "q", base.lockDuration(Duration.ofSeconds(4)).build()));
        assertRejected(
                "lockDuration",
                () -> ns.createQueue(
                        "q",
                        QueueOptions.builder()
                                .lockDuration(Duration.ofMinutes(5).plusMillis(1))
                                .build()));
        assertRejected(
                "maxDeliveryCount",
                () -> ns.createQueue(
                        "q", QueueOptions.builder().maxDeliveryCount(0).build()));
        assertRejected(
                "autoDeleteOnIdle",
                () -> ns.createQueue(
                        "q",
                        QueueOptions.builder()
                                .autoDeleteOnIdle(Duration.ofMinutes(4))
                                .build()));
        assertRejected(
                "duplicateDetectionHistoryTimeWindow",
                () -> ns.createQueue(
                        "q",
                        QueueOptions.builder()
                                .duplicateDetectionHistoryTimeWindow(Duration.ofSeconds(19))
                                .build()));
        assertRejected(
                "duplicateDetectionHistoryTimeWindow",
                () -> ns.createQueue(
                        "q",
                        QueueOptions.builder()
                                .duplicateDetectionHistoryTimeWindow(
                                        Duration.ofDays(7).plusSeconds(1))
                                .build()));
        assertEquals(List.of(), ns.queueNames());

        QueueOptions edges = ns.createQueue(
                "q",
                QueueOptions.builder()
                        .maxDeliveryCount(1)
                        .duplicateDetectionHistoryTimeWindow(Duration.ofSeconds(20))
                        .build());
        QueueOptions week = ns.createQueue(
                "w",
                QueueOptions.builder()
                        .duplicateDetectionHistoryTimeWindow(Duration.ofDays(7))
                        .build());
        assertEquals(1, edges.maxDeliveryCount());
        assertEquals(Duration.ofSeconds(20), edges.duplicateDetectionHistoryTimeWindow());
        assertEquals(Duration.ofDays(7), week.duplicateDetectionHistoryTimeWindow());
    }

    @Test
    @DisplayName("LIM-2 invalid topic and subscription properties are rejected naming the property")
    void invalidTopicAndSubscriptionProperties() {
        Namespace ns = namespace();
        ns.createTopic("t");

        assertRejected(
                "duplicateDetectionHistoryTimeWindow",
                () -> ns.createTopic(
                        "t2",
                        TopicOptions.builder()
                                .duplicateDetectionHistoryTimeWindow(Duration.ofSeconds(10))
                                .build()));
        assertRejected(
                "autoDeleteOnIdle",
                () -> ns.createTopic(
                        "t2",
                        TopicOptions.builder()
                                .autoDeleteOnIdle(Duration.ofSeconds(299))
                                .build()));
        assertRejected(
                "maxDeliveryCount",
                () -> ns.createSubscription(
                        "t",
                        "s",
                        SubscriptionOptions.builder().maxDeliveryCount(0).build()));
        assertRejected(
                "lockDuration",
                () -> ns.createSubscription(
                        "t",
                        "s",
                        SubscriptionOptions.builder()
                                .lockDuration(Duration.ofMinutes(6))
                                .build()));

        assertEquals(List.of("t"), ns.topicNames());
        assertEquals(List.of(), ns.subscriptionNames("t"));
    }

    @Test
    @DisplayName("LIM-2 an update with an invalid property is rejected and leaves the entity unchanged")
    void invalidUpdateLeavesEntity() {
        Namespace ns = namespace();
        QueueOptions original =
                ns.createQueue("q", QueueOptions.builder().maxDeliveryCount(4).build());

        assertRejected(
                "maxDeliveryCount",
                () -> ns.updateQueue(
                        "q", original.toBuilder().maxDeliveryCount(-1).build()));

        assertEquals(original, ns.getQueue("q"));
    }

    // ---- errors -------------------------------------------------------------------------------

    @Test
    @DisplayName("LIM-3 unknown entities fail with ENTITY_NOT_FOUND, existing names on create with "
            + "ENTITY_ALREADY_EXISTS (case-insensitive, queues and topics share names)")
    void notFoundAndAlreadyExists() {
        Namespace ns = namespace();
        ns.createQueue("orders");
        ns.createTopic("events");
        ns.createSubscription("events", "s");

        List<Runnable> unknown = List.of(
                () -> ns.send("nope", msg("m")),
                () -> ns.receive(Q, ReceiveMode.PEEK_LOCK, 1),
                () -> ns.peek(Q, 0, 1),
                () -> ns.getQueue("nope"),
                () -> ns.deleteQueue("events"),
                () -> ns.createSubscription("nope", "s"),
                () -> ns.receive(EntityPath.subscription("events", "nope"), ReceiveMode.PEEK_LOCK, 1));
        for (Runnable action : unknown) {
            BrokerException e = assertThrows(BrokerException.EntityNotFound.class, action::run);
            assertEquals(ErrorReason.ENTITY_NOT_FOUND, e.reason());
        }
        for (Runnable action : List.<Runnable>of(
                () -> ns.createQueue("orders"),
                () -> ns.createQueue("ORDERS"),
                () -> ns.createTopic("orders"),
                () -> ns.createQueue("events"),
                () -> ns.createSubscription("events", "S"))) {
            BrokerException e = assertThrows(BrokerException.EntityAlreadyExists.class, action::run);
            assertEquals(ErrorReason.ENTITY_ALREADY_EXISTS, e.reason());
        }
        assertEquals(
                "The messaging entity 'nope' could not be found.",
                assertThrows(BrokerException.EntityNotFound.class, () -> ns.getQueue("nope"))
                        .getMessage());
    }

    @Test
    @DisplayName("LIM-3 a disabled entity refuses sends and receives with ENTITY_DISABLED; send- and "
            + "receive-disabled refuse one side")
    void disabledEntities() {
        Namespace ns = namespace();
        ns.createQueue(
                "off", QueueOptions.builder().status(EntityStatus.DISABLED).build());
        ns.createQueue(
                "noSend",
                QueueOptions.builder().status(EntityStatus.SEND_DISABLED).build());
        ns.createQueue(
                "noReceive",
                QueueOptions.builder().status(EntityStatus.RECEIVE_DISABLED).build());
        Consumer<String> send = name -> ns.send(name, msg("m"));
        Consumer<String> receive = name -> ns.receive(EntityPath.queue(name), ReceiveMode.PEEK_LOCK, 1);

        for (Runnable refused : List.<Runnable>of(
                () -> send.accept("off"),
                () -> receive.accept("off"),
                () -> send.accept("noSend"),
                () -> receive.accept("noReceive"))) {
            BrokerException e = assertThrows(BrokerException.EntityDisabled.class, refused::run);
            assertEquals(ErrorReason.ENTITY_DISABLED, e.reason());
        }
        send.accept("noReceive");
        assertEquals(1, ns.runtimeInfo(EntityPath.queue("noReceive")).activeMessageCount());
        assertEquals(List.of(), ns.receive(EntityPath.queue("noSend"), ReceiveMode.PEEK_LOCK, 1));
    }

    @Test
    @DisplayName("LIM-1 a Premium entity's maxMessageSizeInKilobytes sets its message size limit")
    void premiumEntityLimit() {
        Namespace premium = Namespace.builder().tier(Tier.PREMIUM).build();
        premium.createQueue(
                "big", QueueOptions.builder().maxMessageSizeInKilobytes(2048L).build());
        premium.send("big", Message.builder().body(new byte[1536 * 1024]).build());
        assertThrows(
                BrokerException.MessageSizeExceeded.class,
                () -> premium.send(
                        "big", Message.builder().body(new byte[2100 * 1024]).build()));
        premium.createQueue("default");
        assertThrows(
                BrokerException.MessageSizeExceeded.class,
                () -> premium.send(
                        "default", Message.builder().body(new byte[1536 * 1024]).build()));
    }

    @Test
    @DisplayName("LIM-1 an application property over 32 KB, or headers over 64 KB, exceed the message size")
    void headerLimits() {
        Namespace ns = namespace();
        ns.createQueue("q");
        String big = "x".repeat(33 * 1024);
        BrokerException.MessageSizeExceeded property = assertThrows(
                BrokerException.MessageSizeExceeded.class,
                () -> ns.send(
                        "q", Message.builder().applicationProperty("note", big).build()));
        assertTrue(property.getMessage().contains("'note'"), property.getMessage());

        String half = "y".repeat(20 * 1024);
        BrokerException.MessageSizeExceeded headers = assertThrows(
                BrokerException.MessageSizeExceeded.class,
                () -> ns.send(
                        "q",
                        Message.builder()
                                .applicationProperty("a", half)
                                .applicationProperty("b", half)
                                .applicationProperty("c", half)
                                .applicationProperty("d", half)
                                .build()));
        assertTrue(headers.getMessage().contains("headers"), headers.getMessage());

        ns.send(
                "q",
                Message.builder()
                        .applicationProperty("a", half)
                        .applicationProperty("b", half)
                        .build());
        assertEquals(1, ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount());
    }
}
