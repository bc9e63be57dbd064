package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.core.util.IterableStream;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.DeferOptions;
import com.azure.messaging.servicebus.models.ServiceBusMessageState;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReceiverClientTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration SHORT = Duration.ofMillis(50);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusReceiverClient receiver;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(30))
                        .maxDeliveryCount(3)
                        .build());
        clients = EmulatorClients.of(ns);
        sender = clients.sender("q");
        receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private List<ServiceBusReceivedMessage> receive(int n) {
        return receiver.receiveMessages(n, SHORT).stream().collect(Collectors.toList());
    }

    @Test
    @DisplayName("receive, complete: the message is gone; identity getters")
    void receiveAndComplete() {
        sender.sendMessage(new ServiceBusMessage("hello").setMessageId("m1"));
        List<ServiceBusReceivedMessage> got = receive(10);
        assertEquals(1, got.size());
        ServiceBusReceivedMessage m = got.get(0);
        assertEquals("hello", m.getBody().toString());
        assertEquals("m1", m.getMessageId());
        assertNotNull(m.getLockToken());
        assertEquals(START.plusSeconds(30).atOffset(ZoneOffset.UTC), m.getLockedUntil());
        assertEquals(START.atOffset(ZoneOffset.UTC), m.getEnqueuedTime());
        assertEquals(ServiceBusMessageState.ACTIVE, m.getState());
        receiver.complete(m);
        assertTrue(receive(1).isEmpty());
        assertEquals("q", receiver.getEntityPath());
        assertEquals(EmulatorClients.FULLY_QUALIFIED_NAMESPACE, receiver.getFullyQualifiedNamespace());
        assertNotNull(receiver.getIdentifier());
        assertNull(receiver.getSessionId());
    }

    @Test
    @DisplayName("DLQ-2 first delivery reports delivery count 0; abandon raises it")
    void deliveryCount() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage first = receive(1).get(0);
        assertEquals(0, first.getDeliveryCount());
        receiver.abandon(first, new AbandonOptions().setPropertiesToModify(Map.of("k", "v")));
        ServiceBusReceivedMessage second = receive(1).get(0);
        assertEquals(1, second.getDeliveryCount());
        assertEquals("v", second.getApplicationProperties().get("k"));
    }

    @Test
    @DisplayName("DLQ-3 settling after lock expiry fails with MESSAGE_LOCK_LOST")
    void lockLost() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage m = receive(1).get(0);
        ns.clock().advance(Duration.ofSeconds(31));
        ServiceBusException e = assertThrows(ServiceBusException.class, () -> receiver.complete(m));
        assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, e.getReason());
        ServiceBusException renew = assertThrows(ServiceBusException.class, () -> receiver.renewMessageLock(m));
        assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, renew.getReason());
    }

    @Test
    @DisplayName("DLQ-3 settling twice fails client-side as the SDK does")
    void settleTwice() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage m = receive(1).get(0);
        receiver.complete(m);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> receiver.abandon(m));
        assertEquals("The message has either been deleted or already settled.", e.getMessage());
    }

    @Test
    @DisplayName("PAR-5 a receive-and-delete receiver that got fewer than it asked for takes later messages at once, "
            + "until it is closed")
    void receiveAndDeleteKeepsCredit() {
        ServiceBusReceiverClient rad =
                clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
        assertEquals(0, rad.receiveMessages(2, SHORT).stream().count());
        sender.sendMessage(new ServiceBusMessage("a"));
        sender.sendMessage(new ServiceBusMessage("b"));
        sender.sendMessage(new ServiceBusMessage("c"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount() == 1);
        List<String> got = rad.receiveMessages(1, SHORT).stream()
                .map(m -> m.getBody().toString())
                .toList();
        assertEquals(List.of("a"), got, "the first message the credit took");
        // that window asked for 1 more than it took from what was waiting: the credit takes "c" too, as the SDK's does
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount() == 0);
        assertNotNull(rad.receiveMessages(1, SHORT).iterator().next().getLockToken(), "a delivery tag as lock token");
        rad.close();
        sender.sendMessage(new ServiceBusMessage("d"));
        assertEquals(1, ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount(), "a closed receiver takes nothing");
    }

    @Test
    @DisplayName("DLQ-3 settling in RECEIVE_AND_DELETE fails client-side as the SDK does")
    void settleInReceiveAndDelete() {
        ServiceBusReceiverClient rad =
                clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage m = rad.receiveMessages(1, SHORT).iterator().next();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> rad.complete(m));
        assertEquals(
                "'COMPLETED' is not supported on a receiver opened in ReceiveMode.RECEIVE_AND_DELETE.", e.getMessage());
        assertTrue(rad.receiveMessages(1, SHORT).stream().findAny().isEmpty());
    }

    @Test
    @DisplayName("PEEK-2 a peeked message has no lock token and cannot be settled")
    void peekedCannotBeSettled() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage peeked = receiver.peekMessage();
        assertNull(peeked.getLockToken());
        UnsupportedOperationException e =
                assertThrows(UnsupportedOperationException.class, () -> receiver.complete(peeked));
        assertTrue(e.getMessage().startsWith("This operation is not supported for peeked messages."));
    }

    @Test
    @DisplayName("PEEK-2 the cursor moves on; the sequence-number overloads leave it alone")
    void peekCursor() {
        for (int i = 0; i < 5; i++) {
            sender.sendMessage(new ServiceBusMessage("m" + i));
        }
        ServiceBusReceivedMessage first = receiver.peekMessage();
        long base = first.getSequenceNumber();
        assertEquals(base, receiver.peekMessage(base).getSequenceNumber());
        List<Long> next = receiver.peekMessages(2).stream()
                .map(ServiceBusReceivedMessage::getSequenceNumber)
                .collect(Collectors.toList());
        assertEquals(List.of(base + 1, base + 2), next);
        List<Long> from = receiver.peekMessages(10, base).stream()
                .map(ServiceBusReceivedMessage::getSequenceNumber)
                .collect(Collectors.toList());
        assertEquals(5, from.size());
        assertEquals(base + 3, receiver.peekMessage().getSequenceNumber());
        assertEquals(1, receiver.peekMessages(10).stream().count());
        assertNull(receiver.peekMessage());
        assertEquals(0, receiver.peekMessages(3).stream().count());
    }

    @Test
    @DisplayName("DLQ-4 defer, then receive by sequence number; unknown numbers yield nothing")
    void deferred() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage m = receive(1).get(0);
        receiver.defer(m, new DeferOptions());
        assertTrue(receive(1).isEmpty());
        ServiceBusReceivedMessage peeked = receiver.peekMessage(m.getSequenceNumber());
        assertEquals(ServiceBusMessageState.DEFERRED, peeked.getState());
        ServiceBusReceivedMessage again = receiver.receiveDeferredMessage(m.getSequenceNumber());
        assertEquals(m.getSequenceNumber(), again.getSequenceNumber());
        assertNotNull(again.getLockToken());
        receiver.complete(again);
        assertEquals(
                0,
                receiver.receiveDeferredMessageBatch(List.of(m.getSequenceNumber())).stream()
                        .count());
        ServiceBusException missing =
                assertThrows(ServiceBusException.class, () -> receiver.receiveDeferredMessage(m.getSequenceNumber()));
        assertEquals(ServiceBusFailureReason.GENERAL_ERROR, missing.getReason());
    }

    @Test
    @DisplayName("DLQ-5 dead-letter with reason and description; received from the dead-letter queue")
    void deadLetter() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage m = receive(1).get(0);
        receiver.deadLetter(
                m,
                new DeadLetterOptions()
                        .setDeadLetterReason("bad")
                        .setDeadLetterErrorDescription("why")
                        .setPropertiesToModify(Map.of("p", 1)));
        ServiceBusReceiverClient dlq = clients.receiver(
                EntityPath.queue("q").withSubQueue(EntityPath.Part.DEAD_LETTER_QUEUE), ServiceBusReceiveMode.PEEK_LOCK);
        assertEquals("q/$deadletterqueue", dlq.getEntityPath());
        ServiceBusReceivedMessage dead =
                dlq.receiveMessages(1, SHORT).iterator().next();
        assertEquals("bad", dead.getDeadLetterReason());
        assertEquals("why", dead.getDeadLetterErrorDescription());
        assertEquals(1, dead.getApplicationProperties().get("p"));
        assertNull(dead.getDeadLetterSource());
        dlq.complete(dead);
    }

    @Test
    @DisplayName("LOCK-1 renewMessageLock extends the lock by the lock duration from now")
    void renew() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage m = receive(1).get(0);
        ns.clock().advance(Duration.ofSeconds(20));
        OffsetDateTime until = receiver.renewMessageLock(m);
        assertEquals(START.plusSeconds(50).atOffset(ZoneOffset.UTC), until);
        ns.clock().advance(Duration.ofSeconds(20));
        receiver.complete(m);
    }

    @Test
    @DisplayName("LOCK-1 auto lock renewal runs on the virtual clock up to its maximum")
    void autoRenew() {
        sender.sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage m = receive(1).get(0);
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        receiver.renewMessageLock(m, Duration.ofMinutes(3), errors::add);
        ns.clock().advance(Duration.ofMinutes(2));
        receiver.renewMessageLock(m);
        ns.clock().advance(Duration.ofMinutes(2));
        ServiceBusException e = assertThrows(ServiceBusException.class, () -> receiver.complete(m));
        assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, e.getReason());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    @DisplayName("LOCK-3 returns what is available at once, up to n")
    void lock3() {
        for (int i = 0; i < 3; i++) {
            sender.sendMessage(new ServiceBusMessage("m" + i));
        }
        // with a minute to wait, the receive still returns what is there at once: well within half of it
        CompletableFuture<Long> got = CompletableFuture.supplyAsync(() ->
                receiver.receiveMessages(10, Duration.ofMinutes(1)).stream().count());
        await().atMost(Duration.ofSeconds(30)).until(got::isDone);
        assertEquals(3, got.join());
        assertEquals(0, receiver.receiveMessages(2, SHORT).stream().count());
    }

    @Test
    @DisplayName("LIM-3 PAR-2 a missing entity: the sync receiver is terminated around amqp:not-found; a sender fails "
            + "with MESSAGING_ENTITY_NOT_FOUND")
    void notFound() {
        ServiceBusReceiverClient missing = clients.receiver(EntityPath.queue("nope"), ServiceBusReceiveMode.PEEK_LOCK);
        IterableStream<ServiceBusReceivedMessage> result = missing.receiveMessages(1, SHORT);
        RuntimeException e =
                assertThrows(RuntimeException.class, () -> result.stream().count());
        assertEquals(
                "The receiver client is terminated. Re-create the client to continue receive attempt. "
                        + "(Reason: upstream-error)",
                e.getMessage());
        AmqpException cause = assertInstanceOf(AmqpException.class, e.getCause());
        assertEquals(AmqpErrorCondition.NOT_FOUND, cause.getErrorCondition());
        assertEquals(false, cause.isTransient());
        ServiceBusException send = assertThrows(
                ServiceBusException.class, () -> clients.sender("nope").sendMessage(new ServiceBusMessage("x")));
        assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_NOT_FOUND, send.getReason());
        ns.createQueue("nope");
        assertSame(
                e,
                assertThrows(
                        RuntimeException.class,
                        () -> missing.receiveMessages(1, SHORT).stream().count()),
                "the receiver stays terminated");
    }

    @Test
    @DisplayName("argument checks as the SDK's")
    void argumentChecks() {
        assertThrows(IllegalArgumentException.class, () -> receiver.receiveMessages(0));
        assertThrows(IllegalArgumentException.class, () -> receiver.receiveMessages(1, Duration.ZERO));
        assertThrows(NullPointerException.class, () -> receiver.receiveMessages(1, null));
        assertThrows(IllegalArgumentException.class, () -> receiver.peekMessages(0));
        assertThrows(NullPointerException.class, () -> receiver.complete(null));
    }

    @Test
    @DisplayName("a closed receiver refuses operations as the SDK does")
    void closed() {
        receiver.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> receiver.peekMessage());
        assertEquals("Cannot perform operation 'peek' on a disposed receiver.", e.getMessage());
        assertInstanceOf(
                IllegalStateException.class,
                assertThrows(
                        RuntimeException.class,
                        () -> receiver.receiveMessages(1, SHORT).stream().count()));
    }
}
