package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TransactionRolledBackException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link ServiceBusEmulatorServer#replaceNamespace}: clients built once reach the namespace served now. */
@DisplayName("AMQP-16 replaceNamespace: open connections and links reach the replacing namespace")
class ReplaceNamespaceTest {
    private final Namespace first = Namespace.create();
    private final Namespace second = Namespace.create();
    private ServiceBusEmulatorServer server;
    private ServiceBusClientBuilder builder;

    @BeforeEach
    void start() {
        first.createQueue("orders");
        second.createQueue("orders");
        server = ServiceBusEmulatorServer.start(first);
        builder = new ServiceBusClientBuilder().connectionString(server.getConnectionString());
    }

    @AfterEach
    void stop() {
        server.close();
        first.close();
        second.close();
    }

    @Test
    void openSendersAndProcessorsReachTheReplacingNamespace() {
        List<String> received = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor = builder.processor()
                .queueName("orders")
                .processMessage(c -> received.add(c.getMessage().getBody().toString()))
                .processError(c -> {})
                .buildProcessorClient();
        try (ServiceBusSenderClient sender =
                builder.sender().queueName("orders").buildClient()) {
            processor.start();
            sender.sendMessage(new ServiceBusMessage("one"));
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("one"));

            assertSame(first, server.replaceNamespace(second));
            assertSame(second, server.namespace());
            sender.sendMessage(new ServiceBusMessage("two"));
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("two"));

            assertEquals(List.of("one", "two"), received);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> second.runtimeInfo(EntityPath.queue("orders")).activeMessageCount() == 0);
        } finally {
            processor.close();
        }
    }

    @Test
    void aMessageSentBeforeTheReplacementStaysInThePreviousNamespace() {
        try (ServiceBusSenderClient sender =
                        builder.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        builder.receiver().queueName("orders").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("before"));
            server.replaceNamespace(second);
            sender.sendMessage(new ServiceBusMessage("after"));

            List<ServiceBusReceivedMessage> got =
                    receiver.receiveMessages(1, Duration.ofSeconds(20)).stream().toList();
            assertEquals(
                    List.of("after"),
                    got.stream().map(m -> m.getBody().toString()).toList());
            assertEquals(1, first.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        }
    }

    @Test
    @DisplayName("AMQP-16 a transaction only declared before the replacement goes on in the replacing namespace; "
            + "one that some operation joined ends there")
    void aDeclaredTransactionGoesOnInTheReplacingNamespace() throws Exception {
        String cs = server.getConnectionString();
        int at = cs.indexOf("SharedAccessKey=") + "SharedAccessKey=".length();
        JmsConnectionFactory factory = new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME,
                cs.substring(at, cs.indexOf(';', at)),
                "amqp://127.0.0.1:" + server.port()
                        + "?jms.forceSyncSend=true"); // a transacted send is asynchronous otherwise: reached the
        // endpoint when?
        try (Connection connection = factory.createConnection()) {
            // Qpid JMS declares a transacted session's transaction at once, and the next one after each commit
            Session idle = connection.createSession(true, Session.SESSION_TRANSACTED);
            Session busy = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer idleProducer = idle.createProducer(idle.createQueue("orders"));
            MessageProducer busyProducer = busy.createProducer(busy.createQueue("orders"));
            busyProducer.send(busy.createTextMessage("in the first namespace's transaction"));

            server.replaceNamespace(second);
            idleProducer.send(idle.createTextMessage("after"));
            idle.commit();
            assertThrows(TransactionRolledBackException.class, busy::commit);
        }

        assertEquals(0, first.runtimeInfo(EntityPath.queue("orders")).totalMessageCount());
        List<BrokeredMessage> stored = second.peek(EntityPath.queue("orders"), 0, 10);
        assertEquals(1, stored.size());
        assertEquals(new MessageBody.Value("after"), stored.get(0).message().body());
    }
}
