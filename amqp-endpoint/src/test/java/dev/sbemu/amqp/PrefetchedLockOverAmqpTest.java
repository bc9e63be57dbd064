package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Message;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A message whose lock ran out while it waited in the SDK's prefetch buffer (LOCK-4), over the endpoint. */
class PrefetchedLockOverAmqpTest extends EndpointFixture {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    @DisplayName("LOCK-4 a prefetched message whose lock ran out in the SDK's buffer cannot be renewed or completed "
            + "(MESSAGE_LOCK_LOST) and comes back")
    void lockRunsOutInThePrefetchBuffer() {
        namespace.createQueue("orders");
        namespace.send("orders", List.of(Message.ofText("first"), Message.ofText("second")));
        try (ServiceBusReceiverClient receiver = clients()
                .receiver()
                .queueName("orders")
                .prefetchCount(2)
                .maxAutoLockRenewDuration(Duration.ZERO)
                .disableAutoComplete()
                .buildClient()) {
            List<ServiceBusReceivedMessage> first =
                    receiver.receiveMessages(1, WAIT).stream().toList();
            assertEquals(1, first.size());
            assertEquals("first", first.get(0).getBody().toString());
            // the second is delivered into the SDK's prefetch buffer, locked from now on
            await().atMost(WAIT)
                    .until(() -> namespace.journal().events().stream()
                                    .filter(e -> e.type() == JournalEvent.Type.RECEIVED)
                                    .count()
                            == 2);

            namespace.clock().advance(Duration.ofSeconds(61)); // the first takes longer than the lock duration

            ServiceBusReceivedMessage second =
                    receiver.receiveMessages(1, WAIT).stream().findFirst().orElseThrow();
            assertEquals("second", second.getBody().toString());
            assertEquals(start.plusSeconds(60), second.getLockedUntil().toInstant(), "the lock it was sent with");
            ServiceBusException renew =
                    assertThrows(ServiceBusException.class, () -> receiver.renewMessageLock(second));
            assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, renew.getReason());
            ServiceBusException complete = assertThrows(ServiceBusException.class, () -> receiver.complete(second));
            assertEquals(ServiceBusFailureReason.MESSAGE_LOCK_LOST, complete.getReason());
        }
        assertEquals(
                2,
                namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount(),
                "neither message was completed: both come back");
    }
}
