package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Auto-forwarding chains entities: a subscription forwards everything it gets to a queue, where the
 * message gets a new sequence number and remembers the one it had as its enqueued sequence number.
 */
@ServiceBusEmulator(
        queues = @Queue(name = "eu-orders"),
        topics = @Topic(name = "orders", subscriptions = @Subscription(name = "to-eu", forwardTo = "eu-orders")))
class AutoForwardingTest {

    @Test
    @DisplayName("FWD-1 FWD-2 a subscription forwards its messages to a queue with a new sequence number")
    void subscriptionForwardsToQueue(
            @Entity("orders") ServiceBusSenderClient sender, @Entity("eu-orders") ServiceBusReceiverClient euOrders) {
        sender.sendMessage(new ServiceBusMessage("first"));
        sender.sendMessage(new ServiceBusMessage("second"));

        ServiceBusReceivedMessage forwarded =
                euOrders.receiveMessages(2).stream().toList().get(1);

        assertEquals("second", forwarded.getBody().toString());
        assertEquals(2, forwarded.getSequenceNumber());
        assertEquals(2, forwarded.getEnqueuedSequenceNumber());
    }
}
