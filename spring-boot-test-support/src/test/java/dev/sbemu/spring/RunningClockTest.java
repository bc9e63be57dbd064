package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Queue;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** {@code clock = RUNNING}: the application's clients see the namespace's timers fall due as real time passes. */
@SpringBootTest(
        classes = TestApplication.class,
        properties = {
            "spring.cloud.azure.servicebus.entity-name=orders",
            "spring.cloud.azure.servicebus.entity-type=queue",
            "spring.cloud.azure.servicebus.consumer.receive-mode=peek_lock"
        })
@SpringServiceBusEmulator(queues = @Queue(name = "orders"), clock = ClockMode.RUNNING)
class RunningClockTest {
    @Autowired
    ServiceBusSenderClient sender;

    @Autowired
    ServiceBusReceiverClient receiver;

    @Autowired
    EmulatedServiceBus emulator;

    @Test
    @DisplayName("CLK-6 a message the application schedules a second ahead arrives with no call to advance")
    void aScheduledMessageArrivesAsRealTimePasses(@Autowired VirtualClock clock) {
        assertEquals(ClockMode.RUNNING, clock.mode());
        // scheduled while the clock stands still, so that the instant is ahead of the clock when the send arrives
        // however long the send takes (one that arrived after it would be enqueued late, at its arrival); from
        // run() on, the clock follows real time again and the message falls due a real second later
        clock.freeze();
        Instant at = clock.instant().plusSeconds(1).truncatedTo(ChronoUnit.MILLIS); // AMQP carries milliseconds
        sender.scheduleMessage(new ServiceBusMessage("reminder"), at.atOffset(ZoneOffset.UTC));
        clock.run();

        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(1, Duration.ofSeconds(30)).stream().toList();
        assertEquals("reminder", got.get(0).getBody().toString());
        receiver.complete(got.get(0));
        assertEquals(at, got.get(0).getEnqueuedTime().toInstant(), "enqueued at its scheduled instant");
        assertTrue(
                emulator.journal().events().stream().noneMatch(e -> e.type() == JournalEvent.Type.CLOCK_ADVANCED),
                emulator.journal().format());
    }
}
