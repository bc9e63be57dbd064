package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusMessageState;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Scheduled messages appear in the queue only at their scheduled time. Until then they can be
 * peeked (state SCHEDULED) and cancelled. On activation a message gets a new sequence number, and
 * its time-to-live starts running then.
 */
@ServiceBusEmulator(
        startAt = "2026-03-01T09:00:00Z",
        queues = @Queue(name = "reminders", deadLetteringOnMessageExpiration = true))
class ScheduledMessagesTest {
    private static final OffsetDateTime NINE = OffsetDateTime.of(2026, 3, 1, 9, 0, 0, 0, ZoneOffset.UTC);

    @Test
    @DisplayName("TTL-5 scheduled 5 minutes ahead with a TTL of 10 minutes, a message expires at +15")
    void ttlRunsFromActivation(
            @Entity("reminders") ServiceBusSenderClient sender,
            @Entity("reminders") ServiceBusReceiverClient receiver,
            @Entity(value = "reminders", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
            VirtualClock clock) {
        sender.scheduleMessage(
                new ServiceBusMessage("call mum").setTimeToLive(Duration.ofMinutes(10)), NINE.plusMinutes(5));

        clock.advance(Duration.ofMinutes(14));
        ServiceBusReceivedMessage active = receiver.peekMessage();
        assertEquals(NINE.plusMinutes(5), active.getEnqueuedTime());
        assertEquals(NINE.plusMinutes(15), active.getExpiresAt());

        clock.advance(Duration.ofMinutes(1));
        assertEquals(
                0, receiver.receiveMessages(1, Duration.ofMillis(50)).stream().count());
        assertEquals(
                "TTLExpiredException",
                deadLetters.receiveMessages(1).iterator().next().getDeadLetterReason());
    }

    @Test
    @DisplayName("SCH-2 a scheduled message can be cancelled before it activates")
    void cancelBeforeActivation(
            @Entity("reminders") ServiceBusSenderClient sender,
            @Entity("reminders") ServiceBusReceiverClient receiver,
            VirtualClock clock) {
        long sequenceNumber = sender.scheduleMessage(new ServiceBusMessage("dentist"), NINE.plusHours(1));

        sender.cancelScheduledMessage(sequenceNumber);
        clock.advance(Duration.ofHours(2));

        assertEquals(
                0, receiver.receiveMessages(1, Duration.ofMillis(50)).stream().count());
    }

    @Test
    @DisplayName("SCH-3 SCH-4 peek shows a scheduled message; on activation it gets a new sequence number")
    void peekShowsScheduledThenNewSequenceNumber(
            @Entity("reminders") ServiceBusSenderClient sender,
            @Entity("reminders") ServiceBusReceiverClient receiver,
            VirtualClock clock) {
        long scheduledAs = sender.scheduleMessage(new ServiceBusMessage("standup"), NINE.plusMinutes(30));

        ServiceBusReceivedMessage peeked = receiver.peekMessage(scheduledAs);
        assertEquals(ServiceBusMessageState.SCHEDULED, peeked.getState());
        assertEquals(NINE.plusMinutes(30), peeked.getScheduledEnqueueTime());

        clock.advance(Duration.ofMinutes(30));
        ServiceBusReceivedMessage received =
                receiver.receiveMessages(1).iterator().next();
        assertNotEquals(scheduledAs, received.getSequenceNumber());
        assertEquals(ServiceBusMessageState.ACTIVE, received.getState());
        assertEquals(NINE.plusMinutes(30), received.getEnqueuedTime());
    }

    @Test
    @DisplayName("SCH-6 a scheduled time in the past enqueues the message at once")
    void pastScheduleEnqueuesAtOnce(
            @Entity("reminders") ServiceBusSenderClient sender,
            @Entity("reminders") ServiceBusReceiverClient receiver) {
        sender.scheduleMessage(new ServiceBusMessage("overdue"), NINE.minusMinutes(1));

        assertEquals(
                "overdue",
                receiver.receiveMessages(1).iterator().next().getBody().toString());
    }
}
