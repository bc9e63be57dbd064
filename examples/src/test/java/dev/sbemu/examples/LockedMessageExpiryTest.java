package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Expiry does not touch a message that a receiver holds locked: it can still be completed. Once the
 * lock ends without completion (abandon or lock timeout), the expiry takes effect at that instant.
 */
@ServiceBusEmulator(queues = @Queue(name = "payments", lockDuration = "PT2M", deadLetteringOnMessageExpiration = true))
class LockedMessageExpiryTest {

    @Test
    @DisplayName("TTL-3 a locked message outlives its TTL and can still be completed; it is then gone")
    void lockedMessageCanBeCompletedAfterItsTtl(
            @Entity("payments") ServiceBusSenderClient sender,
            @Entity("payments") ServiceBusReceiverClient receiver,
            @Entity(value = "payments", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("pay 10 EUR").setTimeToLive(Duration.ofMinutes(1)));
        ServiceBusReceivedMessage payment =
                receiver.receiveMessages(1).iterator().next();

        clock.advance(Duration.ofSeconds(90));
        receiver.complete(payment);

        assertEquals(0, receiver.peekMessages(10).stream().count());
        assertEquals(0, deadLetters.peekMessages(10).stream().count());
    }

    @Test
    @DisplayName("TTL-4 TTL-10 abandoning a message after its expiry dead-letters it at once")
    void abandoningAnExpiredMessageDeadLettersIt(
            @Entity("payments") ServiceBusSenderClient sender,
            @Entity("payments") ServiceBusReceiverClient receiver,
            @Entity(value = "payments", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("pay 10 EUR").setTimeToLive(Duration.ofMinutes(1)));
        ServiceBusReceivedMessage payment =
                receiver.receiveMessages(1).iterator().next();

        clock.advance(Duration.ofSeconds(90));
        receiver.abandon(payment);

        ServiceBusReceivedMessage dead =
                deadLetters.receiveMessages(1).iterator().next();
        assertEquals("TTLExpiredException", dead.getDeadLetterReason());
        assertEquals(0, receiver.peekMessages(10).stream().count());
    }

    @Test
    @DisplayName("TTL-4 when the lock of an expired message times out, it is dead-lettered at that instant")
    void lockTimeoutOfAnExpiredMessageDeadLettersIt(
            @Entity("payments") ServiceBusSenderClient sender,
            @Entity("payments") ServiceBusReceiverClient receiver,
            @Entity(value = "payments", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
            VirtualClock clock) {
        sender.sendMessage(new ServiceBusMessage("pay 10 EUR").setTimeToLive(Duration.ofMinutes(1)));
        ServiceBusReceivedMessage payment =
                receiver.receiveMessages(1).iterator().next();

        clock.advance(Duration.ofMinutes(1));
        assertEquals(0, deadLetters.peekMessages(10).stream().count(), "still locked: not expired yet");

        clock.advance(Duration.ofMinutes(1));
        ServiceBusReceivedMessage dead =
                deadLetters.receiveMessages(1).iterator().next();
        assertEquals("pay 10 EUR", dead.getBody().toString(), "lock ended at +2:00: dead-lettered");
        assertEquals("TTLExpiredException", dead.getDeadLetterReason());
        assertEquals(payment.getSequenceNumber(), dead.getSequenceNumber());
    }
}
