package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.sdk.EmulatorClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Behaviour the SDKs' own suites found on the real service (issue 31), through the Java SDK both ways in: the
 * in-process clients ({@link EmulatorClients#of}) and the SDK's own clients over the endpoint
 * ({@link EmulatorClients#connectingTo}). Each test runs once per way ({@code amqp} false, then true).
 */
class ConformanceTest {
    /** The namespaces start at the wall-clock now, as {@link EndpointFixture} explains. */
    private static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    private static final Duration WAIT = Duration.ofSeconds(5);

    private Namespace ns;
    private ServiceBusEmulatorServer server;
    private EmulatorClients clients;

    private void open(boolean amqp) {
        ns = Namespace.builder().startingAt(START).build();
        server = amqp ? ServiceBusEmulatorServer.start(ns) : null;
        clients = amqp ? EmulatorClients.connectingTo(ns, server.getConnectionString()) : EmulatorClients.of(ns);
    }

    @AfterEach
    void close() {
        if (clients != null) {
            clients.close();
        }
        if (server != null) {
            server.close();
        }
        if (ns != null) {
            ns.close();
        }
    }

    private static ServiceBusReceivedMessage one(ServiceBusReceiverClient receiver) {
        return receiver.receiveMessages(1, WAIT).stream().findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("DLQ-6 abandoning a message in the dead-letter queue keeps its delivery count")
    void abandonInTheDeadLetterQueueKeepsTheDeliveryCount(boolean amqp) {
        open(amqp);
        ns.createQueue("q");
        clients.sender("q").sendMessage(new ServiceBusMessage("m"));
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceivedMessage first = one(receiver);
        assertEquals(0, first.getDeliveryCount());
        receiver.abandon(first);
        ServiceBusReceivedMessage second = one(receiver);
        assertEquals(1, second.getDeliveryCount());
        receiver.deadLetter(second);

        ServiceBusReceiverClient dlq =
                clients.receiver(EntityPath.queue("q").deadLetter(), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceivedMessage dead = one(dlq);
        assertEquals(1, dead.getDeliveryCount());
        dlq.abandon(dead, new AbandonOptions().setPropertiesToModify(Map.of("hello", "world")));
        ServiceBusReceivedMessage again = one(dlq);
        assertEquals(1, again.getDeliveryCount(), "the service keeps the count in the dead-letter queue");
        assertEquals("world", again.getApplicationProperties().get("hello"));
        dlq.complete(again);
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName(
            "SES-7 session state cleared with null or an empty array reads back null, as a session never given one")
    void clearedSessionStateReadsNull(boolean amqp) {
        open(amqp);
        ns.createQueue("s", QueueOptions.builder().requiresSession(true).build());
        clients.sender("s").sendMessage(new ServiceBusMessage("m").setSessionId("a"));
        ServiceBusReceiverClient session = clients.sessionReceiver(
                        EntityPath.queue("s"), ServiceBusReceiveMode.PEEK_LOCK)
                .acceptSession("a");
        assertNull(session.getSessionState(), "never set");
        session.setSessionState("hello".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), session.getSessionState());
        session.setSessionState(null);
        assertNull(session.getSessionState(), "cleared with null");
        session.setSessionState("again".getBytes(StandardCharsets.UTF_8));
        session.setSessionState(new byte[0]);
        assertNull(session.getSessionState(), "cleared with an empty array, as the Go SDK sends its nil slice");
        session.close();
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("MSG-4 a message without a body section reaches the Java SDK as an empty body")
    void bodilessMessageReadsEmpty(boolean amqp) {
        open(amqp);
        ns.createQueue("q");
        ns.send(
                "q",
                Message.builder().messageId("bodiless").body(MessageBody.ABSENT).build());
        ServiceBusReceivedMessage got =
                one(clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.RECEIVE_AND_DELETE));
        assertEquals("bodiless", got.getMessageId());
        assertEquals(0, got.getBody().toBytes().length);
    }
}
