package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.minutes;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AutoDeleteTest {
    private static final Duration IDLE = Duration.ofMinutes(5);

    private static Namespace withIdleQueue() {
        Namespace ns = namespace();
        ns.createQueue("q", QueueOptions.builder().autoDeleteOnIdle(IDLE).build());
        return ns;
    }

    /** The instant at which {@code entity} was auto-deleted, per the journal. */
    private static Instant autoDeletedAt(Namespace ns, String entity) {
        return events(ns, JournalEvent.Type.AUTO_DELETED).stream()
                .filter(e -> e.entity().equals(entity))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        entity + " was not auto-deleted\n" + ns.journal().format()))
                .at();
    }

    @Test
    @DisplayName("ADI-1 an idle queue is deleted with its messages when autoDeleteOnIdle has passed; later use "
            + "fails with entity not found")
    void idleQueueIsDeleted() {
        Namespace ns = withIdleQueue();
        ns.send("q", msg("m"));

        ns.clock().advance(IDLE.minusMillis(1));
        assertTrue(ns.queueExists("q"));
        ns.clock().advance(Duration.ofMillis(1));

        assertFalse(ns.queueExists("q"));
        assertEquals(minutes(5), autoDeletedAt(ns, "q"));
        BrokerException send = assertThrows(BrokerException.EntityNotFound.class, () -> ns.send("q", msg("x")));
        assertEquals(ErrorReason.ENTITY_NOT_FOUND, send.reason());
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.receive(Q, ReceiveMode.PEEK_LOCK, 1));
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.peek(Q, 0, 1));
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.getQueue("q"));
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.runtimeInfo(Q));

        ns.createQueue("q");
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount(), "a new queue of the same name starts empty");
    }

    @Test
    @DisplayName("ADI-1 an idle topic is deleted with its subscriptions; an idle subscription alone leaves its topic")
    void idleTopicAndSubscription() {
        Namespace ns = namespace();
        ns.createTopic(
                "t",
                TopicOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(30)).build());
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.builder()
                        .autoDeleteOnIdle(Duration.ofMinutes(10))
                        .build());
        ns.createSubscription("t", "keep");

        ns.clock().advance(Duration.ofMinutes(10));
        assertFalse(ns.subscriptionExists("t", "s"));
        assertEquals(minutes(10), autoDeletedAt(ns, "t/Subscriptions/s"));
        assertThrows(
                BrokerException.EntityNotFound.class,
                () -> ns.receive(EntityPath.subscription("t", "s"), ReceiveMode.PEEK_LOCK, 1));
        assertEquals(List.of("keep"), ns.subscriptionNames("t"));

        ns.clock().advance(Duration.ofMinutes(20));
        assertFalse(ns.topicExists("t"));
        assertEquals(minutes(30), autoDeletedAt(ns, "t"));
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.send("t", msg("x")));
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.peek(EntityPath.subscription("t", "keep"), 0, 1));
    }

    @Test
    @DisplayName("ADI-2 autoDeleteOnIdle below 5 minutes is rejected naming the property; unset means never")
    void minimumAndNever() {
        Namespace ns = namespace();
        Duration tooShort = Duration.ofMinutes(5).minusSeconds(1);
        ns.createTopic("t");

        InvalidOptionException queue = assertThrows(
                InvalidOptionException.class,
                () -> ns.createQueue(
                        "q", QueueOptions.builder().autoDeleteOnIdle(tooShort).build()));
        InvalidOptionException topic = assertThrows(
                InvalidOptionException.class,
                () -> ns.createTopic(
                        "t2", TopicOptions.builder().autoDeleteOnIdle(tooShort).build()));
        InvalidOptionException sub = assertThrows(
                InvalidOptionException.class,
                () -> ns.createSubscription(
                        "t",
                        "s",
                        SubscriptionOptions.builder().autoDeleteOnIdle(tooShort).build()));
        assertEquals("autoDeleteOnIdle", queue.property());
        assertEquals("autoDeleteOnIdle", topic.property());
        assertEquals("autoDeleteOnIdle", sub.property());
        assertTrue(queue.getMessage().contains("PT5M"), queue.getMessage());
        assertFalse(ns.queueExists("q"));

        QueueOptions never = ns.createQueue("never");
        ns.clock().advance(Duration.ofDays(1000));
        assertEquals(Durations.MAX, never.autoDeleteOnIdle());
        assertTrue(ns.queueExists("never"));
        assertTrue(ns.topicExists("t"));
        assertEquals(
                IDLE,
                ns.createQueue(
                                "five",
                                QueueOptions.builder().autoDeleteOnIdle(IDLE).build())
                        .autoDeleteOnIdle());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"send", "receive", "peek", "update", "receive-deferred"})
    @DisplayName("ADI-3 a send, receive, peek or update of a queue resets its idle timer")
    void queueActivityResetsIdle(String activity) {
        Namespace ns = withIdleQueue();
        ns.clock().advance(Duration.ofMinutes(4));
        Consumer<Namespace> act = switch (activity) {
            case "send" -> n -> n.send("q", msg("m"));
            case "receive" -> n -> n.receive(Q, ReceiveMode.PEEK_LOCK, 1);
            case "peek" -> n -> n.peek(Q, 0, 1);
            case "update" ->
                n -> n.updateQueue(
                        "q", n.getQueue("q").toBuilder().maxDeliveryCount(3).build());
            case "receive-deferred" ->
                n -> assertThrows(
                        BrokerException.MessageNotFound.class,
                        () -> n.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(1L)),
                        "DLQ-7: a failed request accesses the queue too");
            default -> throw new IllegalArgumentException(activity);
        };

        act.accept(ns);
        ns.clock().advance(Duration.ofMinutes(5).minusMillis(1));
        assertTrue(ns.queueExists("q"), "alive 1 ms before idle since the " + activity);
        ns.clock().advance(Duration.ofMillis(1));

        assertFalse(ns.queueExists("q"));
        assertEquals(minutes(9), autoDeletedAt(ns, "q"));
    }

    @Test
    @DisplayName("ADI-3 a pending scheduled message keeps a queue alive; idleness counts from its activation")
    void scheduledMessageKeepsQueueAlive() {
        Namespace ns = withIdleQueue();
        ns.schedule("q", msg("later"), minutes(20));

        ns.clock().advance(Duration.ofMinutes(24));
        assertTrue(ns.queueExists("q"));
        assertEquals(1, ns.runtimeInfo(Q).activeMessageCount());
        ns.clock().advance(Duration.ofMinutes(2));

        assertFalse(ns.queueExists("q"));
        assertEquals(minutes(25), autoDeletedAt(ns, "q"));
    }

    @Test
    @DisplayName("ADI-3 a pending scheduled message keeps a topic alive")
    void scheduledMessageKeepsTopicAlive() {
        Namespace ns = namespace();
        ns.createTopic("t", TopicOptions.builder().autoDeleteOnIdle(IDLE).build());
        ns.schedule("t", msg("later"), minutes(20));

        ns.clock().advance(Duration.ofMinutes(24));
        assertTrue(ns.topicExists("t"));
        ns.clock().advance(Duration.ofMinutes(2));

        assertEquals(minutes(25), autoDeletedAt(ns, "t"));
    }

    @Test
    @DisplayName("ADI-3 operations on a subscription keep its topic alive; a send to the topic does not keep the "
            + "subscription alive")
    void topicAndSubscriptionIdleness() {
        Namespace ns = namespace();
        ns.createTopic("t", TopicOptions.builder().autoDeleteOnIdle(IDLE).build());
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.builder()
                        .autoDeleteOnIdle(Duration.ofMinutes(8))
                        .build());
        EntityPath sub = EntityPath.subscription("t", "s");

        ns.clock().advance(Duration.ofMinutes(4));
        ns.receive(sub, ReceiveMode.PEEK_LOCK, 1);
        ns.clock().advance(Duration.ofMinutes(4));
        ns.send("t", msg("m"));
        ns.clock().advance(Duration.ofMinutes(4));

        assertEquals(minutes(12), autoDeletedAt(ns, "t/Subscriptions/s"), "the send did not reset it");
        assertTrue(ns.topicExists("t"));
        ns.clock().advance(Duration.ofMinutes(1));
        assertEquals(minutes(13), autoDeletedAt(ns, "t"));
    }

    @Test
    @DisplayName("ADI-3 a peek of a subscription or an update of it resets its idle timer")
    void subscriptionPeekAndUpdateResetIdle() {
        Namespace ns = namespace();
        ns.createTopic("t");
        ns.createSubscription(
                "t", "s", SubscriptionOptions.builder().autoDeleteOnIdle(IDLE).build());

        ns.clock().advance(Duration.ofMinutes(3));
        ns.peek(EntityPath.subscription("t", "s"), 0, 1);
        ns.clock().advance(Duration.ofMinutes(3));
        ns.updateSubscription(
                "t",
                "s",
                ns.getSubscription("t", "s").toBuilder().maxDeliveryCount(2).build());
        ns.clock().advance(Duration.ofMinutes(5));

        assertEquals(minutes(11), autoDeletedAt(ns, "t/Subscriptions/s"));
        assertEquals(T0, ns.runtimeInfo(EntityPath.queue("t")).createdAt());
    }

    @Test
    @DisplayName("ADI-4 a queue or subscription that forwards counts as received from: it is never idle")
    void forwardingSourceIsNeverIdle() {
        Namespace ns = namespace();
        ns.createQueue("dst");
        ns.createQueue(
                "src",
                QueueOptions.builder().forwardTo("dst").autoDeleteOnIdle(IDLE).build());
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.builder()
                        .forwardTo("dst")
                        .autoDeleteOnIdle(IDLE)
                        .build());
        ns.createSubscription(
                "t",
                "plain",
                SubscriptionOptions.builder().autoDeleteOnIdle(IDLE).build());

        ns.clock().advance(Duration.ofDays(2));

        assertTrue(ns.queueExists("src"));
        assertTrue(ns.subscriptionExists("t", "s"));
        assertFalse(ns.subscriptionExists("t", "plain"));
        assertEquals(minutes(5), autoDeletedAt(ns, "t/Subscriptions/plain"));
    }

    @Test
    @DisplayName("ADI-5 a receive waiting on a queue counts as one access when it is made, keeps the queue in use "
            + "while it waits, and the idle time counts from its end")
    void waitingReceiveKeepsQueueInUse() throws Exception {
        Namespace ns = withIdleQueue();
        ns.clock().advance(Duration.ofMinutes(1));
        Cancellation client = new Cancellation();
        CompletableFuture<List<BrokeredMessage>> receive = CompletableFuture.supplyAsync(
                () -> ns.receive(Q, ReceiveMode.PEEK_LOCK, 1, Duration.ofMinutes(10), client));
        // the call's first look counts as an access: once it shows, the call is waiting (it left the lock)
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> ns.runtimeInfo(Q).accessedAt().equals(minutes(1)));

        for (int i = 0; i < 3; i++) {
            ns.clock().advance(Duration.ofSeconds(15)); // each advance wakes the waiting call to look again
        }
        assertEquals(minutes(1), ns.runtimeInfo(Q).accessedAt(), "looking again is not a new access");
        ns.clock().advance(Duration.ofMinutes(10));
        assertTrue(ns.queueExists("q"), "a queue with a waiting receiver is in use");

        client.cancel();
        ExecutionException ended = assertThrows(ExecutionException.class, () -> receive.get(10, TimeUnit.SECONDS));
        assertInstanceOf(CancellationException.class, ended.getCause());
        Instant end = ns.clock().instant();
        ns.clock().advance(IDLE.minusMillis(1));
        assertTrue(ns.queueExists("q"), "idle since the wait ended");
        ns.clock().advance(Duration.ofMillis(1));
        assertEquals(end.plus(IDLE), autoDeletedAt(ns, "q"));
    }

    @Test
    @DisplayName("ADI-5 a receive waiting on a subscription keeps the subscription and its topic in use")
    void waitingReceiveKeepsSubscriptionAndTopicInUse() throws Exception {
        Namespace ns = namespace();
        ns.createTopic("t", TopicOptions.builder().autoDeleteOnIdle(IDLE).build());
        ns.createSubscription(
                "t", "s", SubscriptionOptions.builder().autoDeleteOnIdle(IDLE).build());
        EntityPath sub = EntityPath.subscription("t", "s");
        ns.clock().advance(Duration.ofMinutes(1));
        Cancellation client = new Cancellation();
        CompletableFuture<List<BrokeredMessage>> receive = CompletableFuture.supplyAsync(
                () -> ns.receive(sub, ReceiveMode.PEEK_LOCK, 1, Duration.ofMinutes(10), client));
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> ns.runtimeInfo(sub).accessedAt().equals(minutes(1)));

        ns.clock().advance(Duration.ofMinutes(20));
        assertTrue(ns.subscriptionExists("t", "s"));
        assertTrue(ns.topicExists("t"));
        assertEquals(minutes(1), ns.runtimeInfo(sub).accessedAt());

        client.cancel();
        assertThrows(ExecutionException.class, () -> receive.get(10, TimeUnit.SECONDS));
        ns.clock().advance(IDLE);
        assertEquals(minutes(26), autoDeletedAt(ns, "t"), "idle since the wait on its subscription ended");
        assertFalse(ns.subscriptionExists("t", "s"));
    }

    @Test
    @DisplayName("ADI-1 ADI-5 a session accept waiting on a queue does not keep it in use: the queue is "
            + "auto-deleted and the waiting accept fails with entity not found")
    void waitingSessionAcceptDoesNotKeepQueueInUse() throws Exception {
        Namespace ns = namespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .requiresSession(true)
                        .autoDeleteOnIdle(IDLE)
                        .build());
        ns.clock().advance(Duration.ofMinutes(1));
        CompletableFuture<SessionLock> accept =
                CompletableFuture.supplyAsync(() -> ns.acceptSession(Q, null, Duration.ofSeconds(30)));
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> ns.runtimeInfo(Q).accessedAt().equals(minutes(1)));

        ns.clock().advance(Duration.ofMinutes(10));

        assertEquals(minutes(6), autoDeletedAt(ns, "q"));
        ExecutionException failed = assertThrows(ExecutionException.class, () -> accept.get(10, TimeUnit.SECONDS));
        assertEquals(BrokerException.EntityNotFound.class, failed.getCause().getClass());
    }
}
