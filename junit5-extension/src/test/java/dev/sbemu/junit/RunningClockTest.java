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
import dev.sbemu.junit.fixtures.RunningClockFixtures;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** {@code clock = RUNNING}: the injected clients see timers fall due as real time passes, with no call to advance. */
@ServiceBusEmulator(
        clock = ClockMode.RUNNING,
        queues = @Queue(name = "orders", lockDuration = "PT5S", deadLetteringOnMessageExpiration = true))
class RunningClockTest {
    private static final Duration BOUND = Duration.ofSeconds(60);

    private static boolean happened(Journal journal, JournalEvent.Type type) {
        return journal.events().stream().anyMatch(e -> e.type() == type);
    }

    @Test
    @DisplayName("CLK-7 each running namespace's clock thread ends with the namespace, per method and per class")
    void noClockThreadOutlivesItsNamespace() {
        EngineExecutionResults results =
                Kit.run(RunningClockFixtures.PerMethod.class, RunningClockFixtures.PerClass.class);
        results.testEvents().assertStatistics(s -> s.started(3).succeeded(3));
        assertEquals(List.of("RUNNING", "RUNNING", "RUNNING"), Kit.reported(results, "mode"));
        assertTrue(Kit.reported(results, "clockThreads").stream().allMatch(n -> Integer.parseInt(n) >= 1));
        // this class's own namespace (PER_METHOD: this method's) runs; the fixtures' namespaces have all closed
        await().atMost(BOUND).until(() -> clockThreads() <= 1);
    }

    private static long clockThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sbemu-clock-"))
                .count();
    }

    @Test
    @DisplayName("CLK-6 a scheduled message appears, a TTL and a lock run out as real time passes")
    void timersFallDueAsRealTimePasses(
            @Entity("orders") ServiceBusSenderClient sender,
            @Entity("orders") ServiceBusReceiverClient receiver,
            @Entity(value = "orders", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
            VirtualClock clock,
            Journal journal) {
        assertEquals(ClockMode.RUNNING, clock.mode());
        // set up on a stopped clock: however long the sends take, the schedule is ahead of the clock when it arrives
        // and the TTL and the lock start from one instant; run() lets real time move it again
        clock.freeze();
        Instant start = clock.instant();
        sender.sendMessage(new ServiceBusMessage("locked").setMessageId("locked"));
        ServiceBusReceivedMessage locked =
                receiver.receiveMessages(1, BOUND).iterator().next();
        sender.sendMessage(
                new ServiceBusMessage("short-lived").setMessageId("short-lived").setTimeToLive(Duration.ofMillis(500)));
        sender.scheduleMessage(
                new ServiceBusMessage("later").setMessageId("later"),
                start.plusSeconds(1).atOffset(ZoneOffset.UTC));
        clock.run();

        List<String> dead = deadLetters.receiveMessages(1, BOUND).stream()
                .map(ServiceBusReceivedMessage::getMessageId)
                .toList();
        assertEquals(List.of("short-lived"), dead, "the TTL ran out");
        // the scheduled message appears at +1 s and the lock runs out at +5 s; which of the two a receive between
        // them meets depends on the machine's speed (the lost lock puts "locked" back ahead of "later"), so the test
        // waits for both and then receives both, in sequence order
        await().atMost(BOUND).until(() -> happened(journal, JournalEvent.Type.ACTIVATED));
        await().atMost(BOUND).until(() -> happened(journal, JournalEvent.Type.LOCK_EXPIRED));
        List<String> later = receiver.receiveMessages(2, BOUND).stream()
                .map(ServiceBusReceivedMessage::getMessageId)
                .toList();
        assertEquals(List.of("locked", "later"), later, "the scheduled message appeared, the locked one came back");
        ServiceBusException lost = assertThrows(ServiceBusException.class, () -> receiver.complete(locked));
        assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, lost.getReason());
        assertTrue(!happened(journal, JournalEvent.Type.CLOCK_ADVANCED), "nothing advanced the clock");
        assertTrue(clock.instant().isAfter(start.plusSeconds(5)));
    }
}
