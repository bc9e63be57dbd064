package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.ServiceBusMessageState;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

/** The async receiver: the endless stream, cancellation, close, and its other operations. */
class ReceiverAsyncClientTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration BLOCK = Duration.ofSeconds(10);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusReceiverAsyncClient receiver;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        clients = EmulatorClients.of(ns);
        sender = clients.sender("q");
        receiver = clients.receiverAsync(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    @Test
    @DisplayName("CLK-3 receiveMessages() delivers messages sent after subscribing, in order")
    void endlessStream() {
        List<String> got = new CopyOnWriteArrayList<>();
        Disposable subscription = receiver.receiveMessages().subscribe(m -> {
            got.add(m.getBody().toString());
            receiver.complete(m).block(BLOCK);
        });
        for (int i = 0; i < 5; i++) {
            sender.sendMessage(new ServiceBusMessage("m" + i));
        }
        await().atMost(BLOCK).until(() -> got.size() == 5);
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), got);
        sender.sendMessage(new ServiceBusMessage("later"));
        await().atMost(BLOCK).until(() -> got.size() == 6);
        subscription.dispose();
    }

    @Test
    @DisplayName("DLQ-2 cancelling the stream stops it; nothing more is taken and no delivery is counted")
    void cancelStops() {
        List<ServiceBusReceivedMessage> got = new CopyOnWriteArrayList<>();
        Disposable subscription = receiver.receiveMessages().subscribe(got::add);
        sender.sendMessage(new ServiceBusMessage("first"));
        await().atMost(BLOCK).until(() -> got.size() == 1);
        subscription.dispose();
        sender.sendMessage(new ServiceBusMessage("second"));
        ServiceBusReceivedMessage second = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK)
                .receiveMessages(1, BLOCK)
                .iterator()
                .next();
        assertEquals("second", second.getBody().toString());
        assertEquals(0, second.getDeliveryCount());
        assertEquals(1, got.size());
    }

    @Test
    @DisplayName("close completes a running stream and refuses further operations")
    void closeCompletes() {
        AtomicBoolean completed = new AtomicBoolean();
        receiver.receiveMessages().subscribe(m -> {}, e -> {}, () -> completed.set(true));
        receiver.close();
        await().atMost(BLOCK).untilTrue(completed);
        IllegalStateException closed = assertThrows(
                IllegalStateException.class, () -> receiver.peekMessage().block(BLOCK));
        assertEquals("Cannot perform operation 'peek' on a disposed receiver.", closed.getMessage());
        assertThrows(
                IllegalStateException.class, () -> receiver.receiveMessages().blockFirst(BLOCK));
    }

    @Test
    @DisplayName("PEEK-2 DLQ-3 DLQ-4 peek, settle, defer, renew and lock loss through the async client")
    void operations() {
        sender.sendMessage(new ServiceBusMessage("a"));
        sender.sendMessage(new ServiceBusMessage("b"));
        assertEquals("a", receiver.peekMessage().block(BLOCK).getBody().toString());
        assertEquals(
                List.of("b"),
                receiver.peekMessages(5)
                        .map(m -> m.getBody().toString())
                        .collectList()
                        .block(BLOCK));
        assertNull(receiver.peekMessage().block(BLOCK));
        assertEquals(2, receiver.peekMessages(5, 0).count().block(BLOCK));
        List<ServiceBusReceivedMessage> two =
                receiver.receiveMessages().take(2).collectList().block(BLOCK);
        receiver.defer(two.get(0)).block(BLOCK);
        ServiceBusReceivedMessage deferred =
                receiver.receiveDeferredMessage(two.get(0).getSequenceNumber()).block(BLOCK);
        assertEquals(ServiceBusMessageState.DEFERRED, deferred.getState());
        receiver.deadLetter(deferred, new DeadLetterOptions().setDeadLetterReason("r"))
                .block(BLOCK);
        ns.clock().advance(Duration.ofSeconds(20));
        assertEquals(
                START.plusSeconds(50),
                receiver.renewMessageLock(two.get(1)).block(BLOCK).toInstant());
        ns.clock().advance(Duration.ofSeconds(31));
        ServiceBusException lost = assertThrows(
                ServiceBusException.class, () -> receiver.complete(two.get(1)).block(BLOCK));
        assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, lost.getReason());
        assertTrue(receiver.receiveDeferredMessages(List.of(12345L))
                .collectList()
                .block(BLOCK)
                .isEmpty());
    }
}
