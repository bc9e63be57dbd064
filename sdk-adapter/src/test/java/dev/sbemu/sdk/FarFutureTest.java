package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.VirtualClock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CLK-4: instants at the end of the service's time range (issue 16, defect 4). */
class FarFutureTest {
    private static final Duration SHORT = Duration.ofMillis(50);
    /** {@code VirtualClock.LATEST}: .NET's DateTimeOffset.MaxValue to the millisecond. */
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusReceiverClient receiver;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder()
                .startingAt(Instant.parse("2030-01-01T00:00:00Z"))
                .build();
        ns.createQueue(
                "q",
                QueueOptions.builder().deadLetteringOnMessageExpiration(true).build());
        clients = EmulatorClients.of(ns);
        sender = clients.sender("q");
        receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    @Test
    @DisplayName("CLK-4 an hour before the latest instant: a 1-day TTL never expires; send, counts, receive and "
            + "complete work")
    void expirySaturates() {
        ns.clock().advanceTo(LATEST.minus(Duration.ofHours(1)));
        sender.sendMessage(new ServiceBusMessage("late").setTimeToLive(Duration.ofDays(1)));
        ns.clock().advanceTo(LATEST);

        ServiceBusAdministrationClient admin = clients.administrationClient();
        assertEquals(1, admin.getQueueRuntimeProperties("q").getActiveMessageCount());
        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(1, SHORT).stream().collect(Collectors.toList());
        assertEquals(1, got.size());
        assertEquals(1, got.get(0).getSequenceNumber());
        receiver.complete(got.get(0));
        assertEquals(0, admin.getQueueRuntimeProperties("q").getTotalMessageCount());
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("q")).deadLetterMessageCount());
    }

    @Test
    @DisplayName("CLK-4 the clock refuses to go past the latest instant, with a clear IllegalArgumentException")
    void clockRefusesPastLatest() {
        Instant before = ns.clock().instant();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ns.clock().advanceTo(Instant.MAX));
        assertTrue(e.getMessage().contains("cannot go past 9999-12-31T23:59:59.999Z"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ns.clock().advance(Duration.ofSeconds(Long.MAX_VALUE)));
        assertThrows(IllegalArgumentException.class, () -> VirtualClock.startingAt(Instant.MAX));
        assertEquals(before, ns.clock().instant());

        sender.sendMessage(new ServiceBusMessage("still fine"));
        assertEquals(1, receiver.receiveMessages(1, SHORT).stream().count());
    }

    @Test
    @DisplayName("CLK-4 scheduling past the latest instant is refused (IllegalArgumentException); nothing is recorded "
            + "and no sequence number is used")
    void scheduleRefusedPastLatest() {
        // OffsetDateTime.MAX fails in the SDK's own serializer, before anything is sent: GENERAL_ERROR around it
        ServiceBusException sdk = assertThrows(
                ServiceBusException.class,
                () -> sender.scheduleMessage(new ServiceBusMessage("never"), OffsetDateTime.MAX));
        assertEquals(ServiceBusFailureReason.GENERAL_ERROR, sdk.getReason());
        assertInstanceOf(DateTimeException.class, sdk.getCause());
        // a time the SDK can carry but the service cannot represent is refused by the emulator
        OffsetDateTime year10000 = OffsetDateTime.of(10_000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> sender.scheduleMessage(new ServiceBusMessage("never"), year10000));
        assertTrue(e.getMessage().contains("scheduledEnqueueTime"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> sender.sendMessage(new ServiceBusMessage("never").setScheduledEnqueueTime(year10000)));
        assertTrue(
                ns.journal().events().stream()
                        .noneMatch(
                                ev -> ev.type() == JournalEvent.Type.SCHEDULED || ev.type() == JournalEvent.Type.SENT),
                ns.journal().format());

        sender.sendMessage(new ServiceBusMessage("first"));
        assertEquals(1, receiver.receiveMessages(1, SHORT).iterator().next().getSequenceNumber());
    }
}
