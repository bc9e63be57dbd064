package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static dev.sbemu.core.CoreFixtures.receiveOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class DeadLetterTest {
    private static final EntityPath DLQ = Q.deadLetter();

    @Test
    @DisplayName("DLQ-1 every queue and subscription has a dead-letter and a transfer dead-letter sub-queue "
            + "with the service's paths")
    void subQueuePaths() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.createTopic("t");
        ns.createSubscription("t", "s");

        assertEquals("q/$deadletterqueue", DLQ.toString());
        assertEquals(
                "q/$Transfer/$deadletterqueue",
                Q.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE).toString());
        assertEquals(
                "t/Subscriptions/s/$deadletterqueue",
                EntityPath.subscription("t", "s").deadLetter().toString());
        assertEquals(
                List.of(),
                ns.receive(Q.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE), ReceiveMode.PEEK_LOCK, 1));
        assertEquals(List.of(), ns.receive(EntityPath.subscription("t", "s").deadLetter(), ReceiveMode.PEEK_LOCK, 1));
        assertEquals(0, ns.runtimeInfo(Q).transferDeadLetterMessageCount());
    }

    @Test
    @DisplayName("DLQ-1 a dead-lettered message keeps body and properties, gains reason and description, has no "
            + "deadLetterSource, and is received in peek-lock or receive-and-delete")
    void deadLetteredMessageKeepsContent() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send(
                "q",
                List.of(
                        Message.builder()
                                .messageId("a")
                                .body("A")
                                .correlationId("c-1")
                                .contentType("text/plain")
                                .applicationProperty("n", 7)
                                .build(),
                        msg("b")));
        List<BrokeredMessage> locked = ns.receive(Q, ReceiveMode.PEEK_LOCK, 2);
        ns.deadLetter(Q, locked.get(0).lockToken(), "Bad", "bad input", Map.of());
        ns.deadLetter(Q, locked.get(1).lockToken(), "Bad", "bad input", Map.of());

        BrokeredMessage a = lockOne(ns, DLQ);
        ns.complete(DLQ, a.lockToken());
        BrokeredMessage b = receiveOne(ns, DLQ, ReceiveMode.RECEIVE_AND_DELETE);

        assertEquals("A", a.bodyAsString());
        assertEquals("c-1", a.message().correlationId());
        assertEquals("text/plain", a.message().contentType());
        assertEquals(7, a.message().applicationProperties().get("n"));
        assertEquals("Bad", a.deadLetterReason());
        assertEquals("bad input", a.deadLetterErrorDescription());
        assertNull(a.deadLetterSource());
        assertEquals(1, a.sequenceNumber());
        assertNotNull(a.lockToken());
        assertEquals("b", b.message().messageId());
        assertNull(b.lockToken());
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
        assertEquals(
                "q/$deadletterqueue",
                events(ns, JournalEvent.Type.DEAD_LETTERED).get(0).entity());
    }

    @Test
    @DisplayName("DLQ-1 a subscription's dead-letter queue holds its own dead-lettered messages")
    void subscriptionDeadLetterQueue() {
        Namespace ns = namespace();
        ns.createTopic("t");
        ns.createSubscription("t", "s1");
        ns.createSubscription("t", "s2");
        EntityPath s1 = EntityPath.subscription("t", "s1");
        ns.send("t", msg("m"));

        ns.deadLetter(s1, lockOne(ns, s1).lockToken(), "R", "D", Map.of());

        assertEquals(
                "R",
                receiveOne(ns, s1.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE).deadLetterReason());
        assertEquals(List.of(), ns.peek(EntityPath.subscription("t", "s2").deadLetter(), 0, 10));
        assertEquals(List.of("m"), ids(ns.peek(EntityPath.subscription("t", "s2"), 0, 10)));
    }

    @Test
    @DisplayName("DLQ-1 the dead-letter queue of a session-enabled queue is not sessionful")
    void sessionEntityDeadLetterQueueIsNotSessionful() {
        Namespace ns = namespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .requiresSession(true)
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        ns.send(
                "q",
                Message.builder()
                        .messageId("m")
                        .sessionId("s1")
                        .body("x")
                        .timeToLive(Duration.ofMinutes(1))
                        .build());
        ns.clock().advance(Duration.ofMinutes(1));

        assertThrows(BrokerException.InvalidOperation.class, () -> ns.receive(Q, ReceiveMode.PEEK_LOCK, 1));
        BrokeredMessage dead = receiveOne(ns, DLQ, ReceiveMode.PEEK_LOCK);
        assertEquals("s1", dead.message().sessionId());
        assertEquals("TTLExpiredException", dead.deadLetterReason());
    }

    @Test
    @DisplayName("DLQ-2 the first delivery has deliveryCount 0; each abandon raises it; after maxDeliveryCount "
            + "attempts the message is dead-lettered with MaxDeliveryCountExceeded")
    void maxDeliveryCountDeadLetters() {
        Namespace ns = namespace();
        ns.createQueue("q", QueueOptions.builder().maxDeliveryCount(3).build());
        ns.send("q", msg("m"));

        for (int attempt = 0; attempt < 3; attempt++) {
            BrokeredMessage m = lockOne(ns, Q);
            assertEquals(attempt, m.deliveryCount());
            ns.abandon(Q, m.lockToken());
        }

        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 1));
        BrokeredMessage dead = receiveOne(ns, DLQ, ReceiveMode.RECEIVE_AND_DELETE);
        assertEquals("MaxDeliveryCountExceeded", dead.deadLetterReason());
        assertEquals("Message could not be consumed after 3 delivery attempts.", dead.deadLetterErrorDescription());
        assertEquals(
                "MaxDeliveryCountExceeded",
                events(ns, JournalEvent.Type.DEAD_LETTERED).get(0).detail());
    }

    @Test
    @DisplayName("DLQ-2 the default maxDeliveryCount is 10: the 10th abandon dead-letters, the 9th does not")
    void defaultMaxDeliveryCountIsTen() {
        Namespace ns = namespace();
        assertEquals(10, ns.createQueue("q").maxDeliveryCount());
        ns.send("q", msg("m"));

        for (int i = 0; i < 9; i++) {
            ns.abandon(Q, lockOne(ns, Q).lockToken());
        }
        assertEquals(0, ns.runtimeInfo(Q).deadLetterMessageCount());
        BrokeredMessage tenth = lockOne(ns, Q);
        assertEquals(9, tenth.deliveryCount());
        ns.abandon(Q, tenth.lockToken());

        assertEquals(1, ns.runtimeInfo(Q).deadLetterMessageCount());
        assertEquals(
                "Message could not be consumed after 10 delivery attempts.",
                receiveOne(ns, DLQ, ReceiveMode.RECEIVE_AND_DELETE).deadLetterErrorDescription());
    }

    @Test
    @DisplayName("DLQ-2 lock expiry counts as a delivery attempt, on queues and subscriptions")
    void lockExpiryCounts() {
        Namespace ns = namespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .maxDeliveryCount(2)
                        .lockDuration(Duration.ofSeconds(10))
                        .build());
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.builder()
                        .maxDeliveryCount(1)
                        .lockDuration(Duration.ofSeconds(30))
                        .build());
        EntityPath sub = EntityPath.subscription("t", "s");
        ns.send("q", msg("m"));
        ns.send("t", msg("n"));

        assertEquals(0, lockOne(ns, Q).deliveryCount());
        assertEquals(0, lockOne(ns, sub).deliveryCount());
        ns.clock().advance(Duration.ofSeconds(10));
        assertEquals(1, lockOne(ns, Q).deliveryCount());
        ns.clock().advance(Duration.ofSeconds(30));

        List<JournalEvent> dead = events(ns, JournalEvent.Type.DEAD_LETTERED);
        assertEquals(2, dead.size());
        assertEquals(T0.plusSeconds(20), dead.get(0).at());
        assertEquals("q/$deadletterqueue", dead.get(0).entity());
        assertEquals(T0.plusSeconds(30), dead.get(1).at());
        assertEquals("t/Subscriptions/s/$deadletterqueue", dead.get(1).entity());
        assertEquals(
                "Message could not be consumed after 1 delivery attempts.",
                receiveOne(ns, sub.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE).deadLetterErrorDescription());
    }

    @Test
    @DisplayName("DLQ-3 complete, abandon, defer, dead-letter and renew after the lock expired fail with "
            + "MESSAGE_LOCK_LOST")
    void settleAfterLockExpiryFails() {
        Namespace ns = namespace();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        ns.send("q", msg("m"));
        UUID token = lockOne(ns, Q).lockToken();
        ns.clock().advance(Duration.ofSeconds(30));

        List<Executable> settlements = List.of(
                () -> ns.complete(Q, token),
                () -> ns.abandon(Q, token),
                () -> ns.defer(Q, token),
                () -> ns.deadLetter(Q, token),
                () -> ns.renewLock(Q, token));
        for (Executable settle : settlements) {
            BrokerException e = assertThrows(BrokerException.MessageLockLost.class, settle);
            assertEquals(ErrorReason.MESSAGE_LOCK_LOST, e.reason());
        }
        BrokeredMessage again = lockOne(ns, Q);
        assertEquals(1, again.deliveryCount());
        assertFalse(token.equals(again.lockToken()), "a new delivery has a new lock token");
    }

    @Test
    @DisplayName("DLQ-3 settling twice fails with MESSAGE_LOCK_LOST and changes nothing")
    void settleTwiceFails() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("completed"), msg("abandoned")));
        List<BrokeredMessage> locked = ns.receive(Q, ReceiveMode.PEEK_LOCK, 2);
        ns.complete(Q, locked.get(0).lockToken());
        ns.abandon(Q, locked.get(1).lockToken());

        assertThrows(
                BrokerException.MessageLockLost.class,
                () -> ns.complete(Q, locked.get(0).lockToken()));
        assertThrows(
                BrokerException.MessageLockLost.class,
                () -> ns.abandon(Q, locked.get(0).lockToken()));
        assertThrows(
                BrokerException.MessageLockLost.class,
                () -> ns.complete(Q, locked.get(1).lockToken()));
        assertThrows(BrokerException.MessageLockLost.class, () -> ns.complete(Q, UUID.randomUUID()));
        assertThrows(
                BrokerException.MessageLockLost.class,
                () -> ns.complete(DLQ, locked.get(1).lockToken()),
                "a token is only valid on the sub-queue it was received from");

        BrokeredMessage m = lockOne(ns, Q);
        assertEquals("abandoned", m.message().messageId());
        assertEquals(1, m.deliveryCount());
        assertEquals(1, ns.runtimeInfo(Q).activeMessageCount());
    }

    @Test
    @DisplayName("DLQ-4 deferred messages keep state DEFERRED, are skipped by receive and fetched by sequence "
            + "number in peek-lock or receive-and-delete")
    void deferredMessagesByNumber() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("d1"), msg("d2"), msg("next")));
        List<BrokeredMessage> locked = ns.receive(Q, ReceiveMode.PEEK_LOCK, 2);
        ns.defer(Q, locked.get(0).lockToken());
        ns.defer(Q, locked.get(1).lockToken());

        assertEquals(List.of("next"), ids(ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10)));
        assertEquals(
                List.of(MessageState.DEFERRED, MessageState.DEFERRED),
                ns.peek(Q, 0, 10).stream().map(BrokeredMessage::state).toList());
        assertEquals(2, ns.runtimeInfo(Q).deferredMessageCount());

        BrokeredMessage d1 =
                ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(1L)).get(0);
        assertEquals("d1", d1.message().messageId());
        assertEquals(MessageState.DEFERRED, d1.state());
        assertEquals(T0.plusSeconds(60), d1.lockedUntil());
        assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(1L)),
                "DLQ-7: it is locked");
        ns.abandon(Q, d1.lockToken());
        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 10), "abandoned, it stays deferred");
        ns.complete(
                Q,
                ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(1L)).get(0).lockToken());

        List<BrokeredMessage> d2 = ns.receiveDeferred(Q, ReceiveMode.RECEIVE_AND_DELETE, List.of(2L));
        assertEquals(List.of("d2"), ids(d2));
        assertNull(d2.get(0).lockToken());
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
    }

    @Test
    @DisplayName("DLQ-4 DLQ-7 a sequence number that is not a deferred message of the entity fails the request: "
            + "nothing is taken")
    void unknownDeferredNumbersYieldNothing() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("deferred"), msg("active")));
        ns.defer(Q, lockOne(ns, Q).lockToken());
        long scheduled = ns.schedule("q", msg("scheduled"), T0.plusSeconds(60));

        BrokerException.MessageNotFound e = assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(99L, 2L, scheduled, 1L)));
        assertTrue(e.getMessage().contains("[99, 2, " + scheduled + "]"), e.getMessage());
        assertEquals(1, ns.runtimeInfo(Q).deferredMessageCount());
        List<BrokeredMessage> got = ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(1L));

        assertEquals(List.of("deferred"), ids(got));
        assertEquals(List.of("active"), ids(ns.peek(Q, 2, 1)));
        assertEquals(1, ns.runtimeInfo(Q).activeMessageCount());
        assertEquals(1, ns.runtimeInfo(Q).scheduledMessageCount());
    }

    @Test
    @DisplayName("DLQ-5 explicit dead-lettering takes an optional reason, description and properties to modify")
    void explicitDeadLetterOptions() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send(
                "q",
                List.of(
                        Message.builder()
                                .messageId("full")
                                .body("x")
                                .applicationProperty("keep", "k")
                                .applicationProperty("change", "old")
                                .build(),
                        msg("bare")));
        List<BrokeredMessage> locked = ns.receive(Q, ReceiveMode.PEEK_LOCK, 2);

        ns.deadLetter(Q, locked.get(0).lockToken(), "Invalid", "field x missing", Map.of("change", "new", "added", 3L));
        ns.deadLetter(Q, locked.get(1).lockToken());

        List<BrokeredMessage> dead = ns.receive(DLQ, ReceiveMode.RECEIVE_AND_DELETE, 2);
        Map<String, Object> props = dead.get(0).message().applicationProperties();
        assertEquals("Invalid", dead.get(0).deadLetterReason());
        assertEquals("field x missing", dead.get(0).deadLetterErrorDescription());
        assertEquals("k", props.get("keep"));
        assertEquals("new", props.get("change"));
        assertEquals(3L, props.get("added"));
        assertEquals("bare", dead.get(1).message().messageId());
        assertNull(dead.get(1).deadLetterReason());
        assertNull(dead.get(1).deadLetterErrorDescription());
    }
}
