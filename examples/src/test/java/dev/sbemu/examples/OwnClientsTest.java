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
 * namespace through its AMQP endpoint: ask for the connection string with {@code @ConnectionString}. The
 * virtual clock rules the broker on this path too. (The README's "Code that builds its own clients".)
 */
@ServiceBusEmulator(queues = @Queue(name = "orders", defaultMessageTimeToLive = "PT10M",
        deadLetteringOnMessageExpiration = true))
class OwnClientsTest {

    /** The application's own code: it builds its client itself. */
    static final class OrderService implements AutoCloseable {
        private final ServiceBusSenderClient sender;

        OrderService(String connectionString) {
            sender = new ServiceBusClientBuilder().connectionString(connectionString)
                    .sender().queueName("orders").buildClient();
        }

        void place(String orderId) {
            sender.sendMessage(new ServiceBusMessage(orderId));
        }

        @Override
        public void close() {
            sender.close();
        }
    }

    @Test
    @DisplayName("TTL-1 a service that builds its own clients: its unprocessed order is dead-lettered after the TTL")
    void unprocessedOrderIsDeadLettered(@ConnectionString String connectionString,
                                        ServiceBusEmulatorServer server, VirtualClock clock) {
        try (OrderService service = new OrderService(connectionString);
             ServiceBusReceiverClient deadLetters = new ServiceBusClientBuilder().connectionString(connectionString)
                     .receiver().queueName("orders").subQueue(SubQueue.DEAD_LETTER_QUEUE).buildClient()) {
            service.place("order-42");
            clock.advance(Duration.ofMinutes(11));

            assertEquals("TTLExpiredException",
                    deadLetters.receiveMessages(1).iterator().next().getDeadLetterReason());
            // the administration client: the SDK's own, with the endpoint's in-process HTTP transport
            ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                    .connectionString(connectionString).httpClient(server.administrationHttpClient()).buildClient();
            assertEquals(0, admin.getQueueRuntimeProperties("orders").getActiveMessageCount());
        }
    }

    @Test
    @DisplayName("without JUnit: ServiceBusEmulatorServer.start(namespace) serves a namespace you made")
    void withoutJUnit() {
        try (Namespace namespace = Namespace.create();
             ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            namespace.createQueue("orders");
            try (ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                    .connectionString(server.getConnectionString()).sender().queueName("orders").buildClient()) {
                sender.sendMessage(new ServiceBusMessage("order-42"));
            }
            assertEquals(1, server.administrationClientBuilder().buildClient()
                    .getQueueRuntimeProperties("orders").getActiveMessageCount());
        }
    }
}
