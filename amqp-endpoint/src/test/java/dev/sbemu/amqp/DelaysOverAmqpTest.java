package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults.Operation;
import dev.sbemu.core.JournalEvent;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

/**
 * A scripted delay holds only the operation it delays: the endpoint's network thread, which serves every link of
 * every connection, goes on (AMQP-18). Each test uses one client builder, so all its clients share one connection.
 */
class DelaysOverAmqpTest extends EndpointFixture {
    private static final Duration DELAY = Duration.ofSeconds(30);
    private static final Duration BOUND = Duration.ofSeconds(10);

    private ServiceBusClientBuilder builder;

    @BeforeEach
    void queues() {
        namespace.createQueue("held");
        namespace.createQueue("free");
        builder = clients();
    }

    private void awaitHeld() {
        await().atMost(BOUND)
                .until(() -> namespace.journal().events().stream()
                        .anyMatch(e -> e.type() == JournalEvent.Type.FAULT_INJECTED
                                && e.detail().contains("delayed by")));
    }

    private long active(String queue) {
        return namespace.runtimeInfo(EntityPath.queue(queue)).activeMessageCount();
    }

    /** What the connection must still do while a call is held: send, receive and complete on another queue. */
    private void trafficGoesOn(ServiceBusSenderClient free, ServiceBusReceiverClient freeReceiver) {
        free.sendMessage(new ServiceBusMessage("meanwhile"));
        ServiceBusReceivedMessage m =
                freeReceiver.receiveMessages(1, BOUND).iterator().next();
        assertEquals("meanwhile", m.getBody().toString());
        freeReceiver.complete(m);
    }

    @Test
    @DisplayName("AMQP-18 a delayed send holds only itself: the same connection sends and receives elsewhere; "
            + "the clock releases it")
    void delayedSend() throws Exception {
        namespace.faults().on("held").delayNext(1, Operation.SEND, DELAY);
        try (ServiceBusSenderAsyncClient held =
                        builder.sender().queueName("held").buildAsyncClient();
                ServiceBusSenderClient free = builder.sender().queueName("free").buildClient();
                ServiceBusReceiverClient freeReceiver =
                        builder.receiver().queueName("free").buildClient()) {
            CompletableFuture<Void> send =
                    held.sendMessage(new ServiceBusMessage("later")).toFuture();
            awaitHeld();
            trafficGoesOn(free, freeReceiver);
            assertFalse(send.isDone());
            assertEquals(0, active("held"));

            namespace.clock().advance(DELAY);
            send.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertEquals(1, active("held"));
        }
    }

    @Test
    @DisplayName("AMQP-18 a delayed settlement holds only itself, and applies once the clock gets there")
    void delayedSettlement() throws Exception {
        try (ServiceBusSenderClient sender = builder.sender().queueName("held").buildClient();
                ServiceBusReceiverAsyncClient held = builder.receiver()
                        .queueName("held")
                        .disableAutoComplete()
                        .buildAsyncClient();
                ServiceBusSenderClient free = builder.sender().queueName("free").buildClient();
                ServiceBusReceiverClient freeReceiver =
                        builder.receiver().queueName("free").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("to complete"));
            BlockingQueue<ServiceBusReceivedMessage> received = new LinkedBlockingQueue<>();
            Disposable receiving = held.receiveMessages().subscribe(received::add); // the link stays open
            try {
                ServiceBusReceivedMessage m = received.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertNotNull(m);
                namespace.faults().on("held").delayNext(1, Operation.SETTLE, DELAY);
                CompletableFuture<Void> complete = held.complete(m).toFuture();
                awaitHeld();
                trafficGoesOn(free, freeReceiver);
                assertFalse(complete.isDone());

                namespace.clock().advance(DELAY);
                complete.get(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertEquals(0, namespace.runtimeInfo(EntityPath.queue("held")).totalMessageCount());
            } finally {
                receiving.dispose();
            }
        }
    }

    @Test
    @DisplayName("AMQP-18 a delayed $management request (peek) holds only itself")
    void delayedManagementRequest() throws Exception {
        try (ServiceBusSenderClient sender = builder.sender().queueName("held").buildClient();
                ServiceBusReceiverAsyncClient held = builder.receiver()
                        .queueName("held")
                        .disableAutoComplete()
                        .buildAsyncClient();
                ServiceBusSenderClient free = builder.sender().queueName("free").buildClient();
                ServiceBusReceiverClient freeReceiver =
                        builder.receiver().queueName("free").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("to peek"));
            namespace.faults().on("held").delayNext(1, Operation.MANAGEMENT, DELAY);
            CompletableFuture<ServiceBusReceivedMessage> peek =
                    held.peekMessage().toFuture();
            awaitHeld();
            trafficGoesOn(free, freeReceiver);
            assertFalse(peek.isDone());

            namespace.clock().advance(DELAY);
            assertEquals(
                    "to peek",
                    peek.get(BOUND.toSeconds(), TimeUnit.SECONDS).getBody().toString());
        }
    }
}
