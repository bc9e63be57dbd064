package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Message expiration (time to live): a message expires at its enqueued time plus its TTL. After
 * that it can no longer be received; it moves to the dead-letter queue when the queue says so, and
 * is dropped otherwise.
 */
@ServiceBusEmulator(
        queues = {@Queue(name = "orders", deadLetteringOnMessageExpiration = true), @Queue(name = "notifications")})
class MessageTimeToLiveTest {

    @Test
    @DisplayName("TTL-1 a message expires at its enqueued time plus its time-to-live")
    void expiresAtEnqueuedTimePlusTtl(
            @Entity("orders") ServiceBusSenderClient sender, @Entity("orders") ServiceBusReceiverClient receiver) {
        sender.sendMessage(new ServiceBusMessage("order-42").setTimeToLive(Duration.ofMinutes(10)));

        ServiceBusReceivedMessage peeked = receiver.peekMessage();

        assertEquals(peeked.getEnqueuedTime().plusMinutes(10), peeked.getExpiresAt());
        assertEquals(Duration.ofMinutes(10), peeked.getTimeToLive());
    }

    @Test
    @DisplayName("TTL-2 TTL-9 an expired message is not received; it waits in the dead-letter queue")
    void expiredMessageGoesToTheDeadLetterQueue(
            @Entity("orders") ServiceBusSenderClient sender,
            @Entity("orders") ServiceBusReceiverClient receiver,
            @Entity(value = "orders", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("order-42").setTimeToLive(Duration.ofMinutes(10)));

        clock.advance(Duration.ofMinutes(11));

        assertEquals(
                0, receiver.receiveMessages(1, Duration.ofMillis(50)).stream().count());
        ServiceBusReceivedMessage dead =
                deadLetters.receiveMessages(1).iterator().next();
        assertEquals("order-42", dead.getBody().toString());
        assertEquals("TTLExpiredException", dead.getDeadLetterReason());
        assertEquals("The message expired and was dead lettered.", dead.getDeadLetterErrorDescription());
    }

    @Test
    @DisplayName("TTL-9 without dead-lettering on expiration, an expired message is dropped")
    void expiredMessageIsDroppedWithoutDeadLettering(
            @Entity("notifications") ServiceBusSenderClient sender,
            @Entity("notifications") ServiceBusReceiverClient receiver,
            @Entity(value = "notifications", subQueue = SubQueue.DEAD_LETTER_QUEUE)
                    ServiceBusReceiverClient deadLetters,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("you have mail").setTimeToLive(Duration.ofSeconds(30)));

        clock.advance(Duration.ofSeconds(30));

        assertEquals(
                0, receiver.receiveMessages(1, Duration.ofMillis(50)).stream().count());
        assertEquals(
                0,
                deadLetters.receiveMessages(1, Duration.ofMillis(50)).stream().count());
    }

    @Test
    @DisplayName("TTL-2 one second before expiry the message is still there")
    void stillReceivableJustBeforeExpiry(
            @Entity("orders") ServiceBusSenderClient sender,
            @Entity("orders") ServiceBusReceiverClient receiver,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("order-42").setTimeToLive(Duration.ofMinutes(10)));

        clock.advance(Duration.ofMinutes(10).minusSeconds(1));

        List<ServiceBusReceivedMessage> received =
                receiver.receiveMessages(1).stream().toList();
        assertEquals(1, received.size());
        assertTrue(received.get(0).getExpiresAt().toInstant().isAfter(clock.instant()));
    }
}
