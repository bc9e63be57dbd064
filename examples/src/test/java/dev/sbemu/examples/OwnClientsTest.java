package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.ConnectionString;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Code that builds its own clients from a connection string, as production code does, reaches the test's
 * namespace through its AMQP endpoint: ask for the connection string with {@code @ConnectionString}. Its own
 * administration client reaches the same namespace, in process (spec ADM-1). The virtual clock rules the broker on
 * this path too. (docs/guide/junit.md, "Code that builds its own clients".)
 */
@ServiceBusEmulator(
        queues = @Queue(name = "orders", defaultMessageTimeToLive = "PT10M", deadLetteringOnMessageExpiration = true))
class OwnClientsTest {

    /** The application's own code: it builds its clients itself, the administration client too. */
    static final class OrderService implements AutoCloseable {
        private final ServiceBusSenderClient sender;
        private final ServiceBusAdministrationClient admin;

        OrderService(String connectionString) {
            sender = new ServiceBusClientBuilder()
                    .connectionString(connectionString)
                    .sender()
                    .queueName("orders")
                    .buildClient();
            admin = new ServiceBusAdministrationClientBuilder()
                    .connectionString(connectionString)
                    .buildClient();
        }

        void place(String orderId) {
            sender.sendMessage(new ServiceBusMessage(orderId));
        }

        long pendingOrders() {
            return admin.getQueueRuntimeProperties("orders").getActiveMessageCount();
        }

        @Override
        public void close() {
            sender.close();
        }
    }

    @Test
    @DisplayName("TTL-1 a service that builds its own clients: its unprocessed order is dead-lettered after the TTL")
    void unprocessedOrderIsDeadLettered(@ConnectionString String connectionString, VirtualClock clock) {
        try (OrderService service = new OrderService(connectionString);
                ServiceBusReceiverClient deadLetters = new ServiceBusClientBuilder()
                        .connectionString(connectionString)
                        .receiver()
                        .queueName("orders")
                        .subQueue(SubQueue.DEAD_LETTER_QUEUE)
                        .buildClient()) {
            service.place("order-42");
            assertEquals(1, service.pendingOrders());
            clock.advance(Duration.ofMinutes(11));

            assertEquals(
                    "TTLExpiredException",
                    deadLetters.receiveMessages(1).iterator().next().getDeadLetterReason());
            assertEquals(0, service.pendingOrders());
        }
    }

    @Test
    @DisplayName("without JUnit: ServiceBusEmulatorServer.start(namespace) serves a namespace you made")
    void withoutJUnit() {
        try (Namespace namespace = Namespace.create();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            namespace.createQueue("orders");
            try (ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                    .connectionString(server.getConnectionString())
                    .sender()
                    .queueName("orders")
                    .buildClient()) {
                sender.sendMessage(new ServiceBusMessage("order-42"));
            }
            // the application's own administration client, from the same connection string (ADM-1)
            ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                    .connectionString(server.getConnectionString())
                    .buildClient();
            assertEquals(1, admin.getQueueRuntimeProperties("orders").getActiveMessageCount());
        }
    }
}
