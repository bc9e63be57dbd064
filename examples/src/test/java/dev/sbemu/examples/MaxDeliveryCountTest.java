package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A poison message: every delivery that ends without completion (abandon or lock timeout) counts.
 * After maxDeliveryCount deliveries the message moves to the dead-letter queue.
 */
@ServiceBusEmulator(queues = @Queue(name = "invoices", maxDeliveryCount = 3, lockDuration = "PT30S"))
class MaxDeliveryCountTest {

    @Test
    @DisplayName("DLQ-2 after maxDeliveryCount failed deliveries the message is dead-lettered")
    void poisonMessageIsDeadLettered(
            @Entity("invoices") ServiceBusSenderClient sender,
            @Entity("invoices") ServiceBusReceiverClient receiver,
            @Entity(value = "invoices", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("malformed invoice"));

        ServiceBusReceivedMessage first = receiver.receiveMessages(1).iterator().next();
        assertEquals(0, first.getDeliveryCount());
        receiver.abandon(first);

        ServiceBusReceivedMessage second =
                receiver.receiveMessages(1).iterator().next();
        assertEquals(1, second.getDeliveryCount());
        clock.advance(Duration.ofSeconds(30)); // the lock times out: that counts too

        ServiceBusReceivedMessage third = receiver.receiveMessages(1).iterator().next();
        assertEquals(2, third.getDeliveryCount());
        receiver.abandon(third);

        ServiceBusReceivedMessage dead =
                deadLetters.receiveMessages(1).iterator().next();
        assertEquals("MaxDeliveryCountExceeded", dead.getDeadLetterReason());
        assertEquals("Message could not be consumed after 3 delivery attempts.", dead.getDeadLetterErrorDescription());
        assertEquals(
                0, receiver.receiveMessages(1, Duration.ofMillis(50)).stream().count());
    }

    @Test
    @DisplayName("DLQ-5 a receiver can dead-letter a message itself, with a reason and a description")
    void explicitDeadLetter(
            @Entity("invoices") ServiceBusSenderClient sender,
            @Entity("invoices") ServiceBusReceiverClient receiver,
            @Entity(value = "invoices", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters) {
        sender.sendMessage(new ServiceBusMessage("invoice without total"));

        ServiceBusReceivedMessage invoice =
                receiver.receiveMessages(1).iterator().next();
        receiver.deadLetter(
                invoice,
                new DeadLetterOptions()
                        .setDeadLetterReason("ValidationFailed")
                        .setDeadLetterErrorDescription("total is missing"));

        ServiceBusReceivedMessage dead =
                deadLetters.receiveMessages(1).iterator().next();
        assertEquals("ValidationFailed", dead.getDeadLetterReason());
        assertEquals("total is missing", dead.getDeadLetterErrorDescription());
        assertEquals("invoice without total", dead.getBody().toString());
    }
}
