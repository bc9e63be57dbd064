package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What an attached receive link does to its entity's idleness (ADI-5), through the SDK over the endpoint. */
class AutoDeleteOverAmqpTest extends EndpointFixture {
    private static final Duration IDLE = Duration.ofMinutes(5);

    /**
     * Attaches the receive link and leaves credit out (the SDK keeps it after a receive that got nothing), and
     * waits until the endpoint waits in the broker for messages for it (AMQP-11: a registered wait, no thread).
     */
    private void attachWithCredit(ServiceBusReceiverClient receiver, String queue) {
        assertEquals(
                0, receiver.receiveMessages(1, Duration.ofSeconds(1)).stream().count());
        await().atMost(Duration.ofSeconds(20)).until(() -> endpointWaitsForMessages(queue));
    }

    /** Whether the endpoint waits in the broker for messages of {@code queue} for a link (the SDK's flow has arrived). */
    private boolean endpointWaitsForMessages(String queue) {
        return namespace.waitingReceivers(EntityPath.queue(queue)) > 0;
    }

    @Test
    @DisplayName("ADI-5 an attached receiver with credit does not move accessedAt while the clock advances")
    void attachedReceiverDoesNotMoveAccessedAt() {
        namespace.createQueue("orders");
        ServiceBusAdministrationClient admin =
                server.administrationClientBuilder().buildClient();
        try (ServiceBusReceiverClient receiver =
                clients().receiver().queueName("orders").buildClient()) {
            attachWithCredit(receiver, "orders");

            for (int i = 0; i < 3; i++) {
                namespace.clock().advance(Duration.ofSeconds(15));
            }

            assertEquals(
                    start,
                    admin.getQueueRuntimeProperties("orders").getAccessedAt().toInstant(),
                    "the endpoint looking into the broker again after each advance is no access");
        }
    }

    @Test
    @DisplayName("ADI-5 an attached receiver waiting with credit keeps its queue in use; once it is closed the queue "
            + "is deleted when idle")
    void attachedReceiverKeepsQueueInUse() {
        namespace.createQueue(
                "scratch", QueueOptions.builder().autoDeleteOnIdle(IDLE).build());
        ServiceBusAdministrationClient admin =
                server.administrationClientBuilder().buildClient();
        ServiceBusReceiverClient receiver =
                clients().receiver().queueName("scratch").buildClient();
        try {
            attachWithCredit(receiver, "scratch");
            namespace.clock().advance(IDLE.multipliedBy(3));
            assertTrue(admin.getQueueExists("scratch"), "a queue with a listening receiver is not idle");
            assertEquals(
                    start,
                    admin.getQueueRuntimeProperties("scratch").getAccessedAt().toInstant());
        } finally {
            receiver.close();
        }
        Instant closed = namespace.clock().instant();
        // the endpoint ends the link's wait in the broker as the detach arrives; the idle time counts from then
        await().atMost(Duration.ofSeconds(20)).until(() -> !endpointWaitsForMessages("scratch"));

        namespace.clock().advance(IDLE.minusMillis(1));
        assertTrue(admin.getQueueExists("scratch"));
        namespace.clock().advance(Duration.ofMillis(1));

        assertFalse(admin.getQueueExists("scratch"));
        assertEquals(
                closed.plus(IDLE),
                namespace.journal().events().stream()
                        .filter(e -> e.type() == JournalEvent.Type.AUTO_DELETED)
                        .findFirst()
                        .orElseThrow()
                        .at());
    }
}
