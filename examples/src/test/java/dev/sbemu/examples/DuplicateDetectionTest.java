package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Duplicate detection: a resend of a message id seen within the detection window is accepted by the
 * send and silently dropped. After the window the id is forgotten.
 */
@ServiceBusEmulator(
        queues =
                @Queue(
                        name = "payments",
                        requiresDuplicateDetection = true,
                        duplicateDetectionHistoryTimeWindow = "PT10M"))
class DuplicateDetectionTest {

    @Test
    @DisplayName("DUP-1 a retried send within the window is dropped; after the window it is accepted")
    void retriedSendIsDropped(
            @Entity("payments") ServiceBusSenderClient sender,
            @Entity("payments") ServiceBusReceiverClient receiver,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("pay 5 EUR").setMessageId("payment-1"));
        sender.sendMessage(new ServiceBusMessage("pay 5 EUR").setMessageId("payment-1"));

        assertEquals(1, receiver.peekMessages(10).stream().count());

        clock.advance(Duration.ofMinutes(10));
        sender.sendMessage(new ServiceBusMessage("pay 5 EUR").setMessageId("payment-1"));

        assertEquals(
                2, receiver.receiveMessages(10, Duration.ofSeconds(5)).stream().count());
    }
}
