package dev.sbemu.junit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Journal;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code clock = RUNNING}: the injected clients see timers fall due as real time passes, with no call to advance. */
@ServiceBusEmulator(clock = ClockMode.RUNNING, queues = @Queue(name = "orders", lockDuration = "PT5S",
        deadLetteringOnMessageExpiration = true))
class RunningClockTest {
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static boolean happened(Journal journal, JournalEvent.Type type) {
        return journal.events().stream().anyMatch(e -> e.type() == type);
    }

    @Test
    @DisplayName("CLK-6 a scheduled message appears, a TTL and a lock run out as real time passes")
    void timersFallDueAsRealTimePasses(@Entity("orders") ServiceBusSenderClient sender,
                                       @Entity("orders") ServiceBusReceiverClient receiver,
                                       @Entity(value = "orders", subQueue = SubQueue.DEAD_LETTER_QUEUE)
                                       ServiceBusReceiverClient deadLetters,
                                       VirtualClock clock, Journal journal) {
        assertEquals(ClockMode.RUNNING, clock.mode());
        Instant start = clock.instant();
        sender.sendMessage(new ServiceBusMessage("locked").setMessageId("locked"));
        ServiceBusReceivedMessage locked = receiver.receiveMessages(1, BOUND).iterator().next();
        sender.sendMessage(new ServiceBusMessage("short-lived").setMessageId("short-lived")
                .setTimeToLive(Duration.ofMillis(500)));
        sender.scheduleMessage(new ServiceBusMessage("later").setMessageId("later"),
                start.plusSeconds(1).atOffset(ZoneOffset.UTC));

        List<String> dead = deadLetters.receiveMessages(1, BOUND).stream().map(ServiceBusReceivedMessage::getMessageId)
                .toList();
        assertEquals(List.of("short-lived"), dead, "the TTL ran out");
        List<String> later = receiver.receiveMessages(1, BOUND).stream().map(ServiceBusReceivedMessage::getMessageId)
                .toList();
        assertEquals(List.of("later"), later, "the scheduled message appeared");

        await().atMost(BOUND).until(() -> happened(journal, JournalEvent.Type.LOCK_EXPIRED));
        ServiceBusException lost = assertThrows(ServiceBusException.class, () -> receiver.complete(locked));
        assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, lost.getReason());
        assertTrue(!happened(journal, JournalEvent.Type.CLOCK_ADVANCED), "nothing advanced the clock");
        assertTrue(clock.instant().isAfter(start.plusSeconds(5)));
    }
}
