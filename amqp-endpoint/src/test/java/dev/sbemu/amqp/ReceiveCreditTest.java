package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The endpoint takes no more messages from the broker than a receiver's credit allows, so a receive-and-delete
 * receiver on an open link gets every message, however its credit and the endpoint's deliveries interleave.
 * Prefetch and receive sizes stay within what the SDK can buffer: it closes a receive link itself
 * ({@code delivery-buffer-overflow}) when more than about 512 deliveries arrive ahead of its pumping thread,
 * which a prefetch of 1,000 plus a receive of 1,000 (2,000 credits) allows.
 */
class ReceiveCreditTest extends EndpointFixture {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    @DisplayName("AMQP-11 receive-and-delete, one message per receive (credit 1): none lost in 2,000 round trips")
    void oneAtATime() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver = clients.receiver()
                        .queueName("orders")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            for (int i = 0; i < 2_000; i++) {
                sender.sendMessage(new ServiceBusMessage("m" + i));
                ServiceBusReceivedMessage got = receiver.receiveMessages(1, WAIT).stream()
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("a message was lost"));
                assertEquals(i + 1, got.getSequenceNumber());
            }
        }
    }

    @Test
    @DisplayName("AMQP-11 receive-and-delete with prefetch 100: every message of 10 batches of 1,000 arrives, in order")
    void prefetchedBatches() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver = clients.receiver()
                        .queueName("orders")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .prefetchCount(100)
                        .buildClient()) {
            long expected = 1;
            for (int r = 0; r < 10; r++) {
                int round = r;
                ServiceBusMessageBatch batch = sender.createMessageBatch();
                for (int i = 0; i < 1_000; i++) {
                    assertTrue(batch.tryAddMessage(new ServiceBusMessage(new byte[100])));
                }
                sender.sendMessages(batch);
                int received = 0;
                while (received < 1_000) {
                    int got = 0;
                    for (ServiceBusReceivedMessage m :
                            receiver.receiveMessages(Math.min(100, 1_000 - received), WAIT)) {
                        assertEquals(expected++, m.getSequenceNumber());
                        got++;
                    }
                    int soFar = received;
                    assertTrue(
                            got > 0,
                            () -> "round " + round + ": received " + soFar + " of 1000, then nothing; "
                                    + namespace.runtimeInfo(EntityPath.queue("orders")));
                    received += got;
                }
            }
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).totalMessageCount());
        }
    }
}
