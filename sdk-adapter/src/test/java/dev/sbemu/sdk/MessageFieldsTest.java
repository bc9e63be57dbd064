package dev.sbemu.sdk;

import static dev.sbemu.testkit.EveryField.assertEveryField;
import static dev.sbemu.testkit.EveryField.assertNoField;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.models.AmqpMessageBody;
import com.azure.core.amqp.models.AmqpMessageBodyType;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.AmqpFields;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.testkit.EveryField;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The in-process clients keep the AMQP message as sent (MSG-1), give a message without an id one (MSG-2) and
 * count a batch's size as the client sent it (MSG-3), as amqp-endpoint's {@code MessageFieldsOverAmqpTest} shows
 * over the wire.
 */
class MessageFieldsTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Pattern GUID_N = Pattern.compile("[0-9a-f]{32}");
    private Namespace ns;
    private EmulatorClients clients;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue("q");
        clients = EmulatorClients.of(ns);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    @Test
    @DisplayName("MSG-1 every AMQP field the sender set comes back in process with its type: receive, batch, peek")
    void everyFieldInProcess() {
        ServiceBusSenderClient sender = clients.sender("q");
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        sender.sendMessage(EveryField.message());
        sender.sendMessages(List.of(EveryField.message(), new ServiceBusMessage("plain")));
        assertEveryField(receiver.peekMessage());
        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(3, WAIT).stream().toList();
        assertEquals(3, got.size());
        assertEveryField(got.get(0));
        assertEveryField(got.get(1));
        assertNoField(got.get(2));

        // the core holds them with JDK types
        Message core = ns.peek(EntityPath.queue("q"), 1, 1).get(0).message();
        AmqpFields fields = core.amqp();
        assertEquals(7, fields.priority());
        assertEquals(Boolean.TRUE, fields.durable());
        assertArrayEquals(new byte[] {1, 2, 3}, fields.userId());
        assertEquals(42L, fields.groupSequence());
        assertEquals(EveryField.EXPIRY.toInstant(), fields.absoluteExpiryTime());
        assertEquals(EveryField.CREATED.toInstant(), fields.creationTime());
        assertEquals("abc", fields.footer().get("checksum"));
    }

    @Test
    @DisplayName("MSG-1 scheduled messages keep every AMQP field in process")
    void scheduledKeepsEveryField() {
        ServiceBusSenderClient sender = clients.sender("q");
        long number = sender.scheduleMessage(
                EveryField.message(), START.plusSeconds(60).atOffset(ZoneOffset.UTC));
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        assertEveryField(receiver.peekMessage(number));
    }

    @Test
    @DisplayName("MSG-1 body kinds in process: AmqpValue and AmqpSequence keep their kind and values")
    void bodyKinds() {
        ServiceBusSenderClient sender = clients.sender("q");
        sender.sendMessage(new ServiceBusMessage(AmqpMessageBody.fromValue(Map.of("k", 12L))));
        sender.sendMessage(new ServiceBusMessage(AmqpMessageBody.fromSequence(List.of("a", 1, true))));
        List<ServiceBusReceivedMessage> got = clients
                .receiver(EntityPath.queue("q"), ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                .receiveMessages(2, WAIT)
                .stream()
                .toList();
        assertEquals(
                AmqpMessageBodyType.VALUE,
                got.get(0).getRawAmqpMessage().getBody().getBodyType());
        assertEquals(Map.of("k", 12L), got.get(0).getRawAmqpMessage().getBody().getValue());
        assertEquals(
                AmqpMessageBodyType.SEQUENCE,
                got.get(1).getRawAmqpMessage().getBody().getBodyType());
        assertEquals(
                List.of("a", 1, true), got.get(1).getRawAmqpMessage().getBody().getSequence());
    }

    @Test
    @DisplayName("MSG-2 AMQP-15 in process too, a message sent without an id gets a GUID of 32 hex digits")
    void messageIdAssigned() {
        ServiceBusSenderClient sender = clients.sender("q");
        sender.sendMessage(new ServiceBusMessage("one"));
        sender.sendMessages(List.of(new ServiceBusMessage("two"), new ServiceBusMessage("three")));
        sender.scheduleMessage(new ServiceBusMessage("four"), START.atOffset(ZoneOffset.UTC));
        List<ServiceBusReceivedMessage> got = clients
                .receiver(EntityPath.queue("q"), ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                .receiveMessages(4, WAIT)
                .stream()
                .toList();
        assertEquals(4, got.size());
        Set<String> ids = new HashSet<>();
        for (ServiceBusReceivedMessage m : got) {
            assertTrue(GUID_N.matcher(m.getMessageId()).matches(), m.getMessageId());
            ids.add(m.getMessageId());
        }
        assertEquals(4, ids.size(), "each message its own id");
    }

    @Test
    @DisplayName("MSG-3 in process, a batch of 4,500 empty messages without ids is accepted: ids do not count")
    void sizeIsWhatTheClientSent() {
        List<ServiceBusMessage> messages = new ArrayList<>();
        for (int i = 0; i < 4_500; i++) {
            messages.add(new ServiceBusMessage(new byte[0]));
        }
        clients.sender("q").sendMessages(messages);
        assertEquals(4_500, ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount());
        List<String> ids = ns.peek(EntityPath.queue("q"), 1, 2).stream()
                .map(m -> m.message().messageId())
                .toList();
        assertNotEquals(ids.get(0), ids.get(1));
    }

    @Test
    @DisplayName(
            "AMQP-22 a peek-locked message carries x-opt-lock-token and, beside the sender's annotations, only"
                    + " enqueued time, sequence number and locked-until; a deferred one received by sequence number too (in process)")
    void brokerAnnotations() {
        ServiceBusSenderClient sender = clients.sender("q");
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        // the Java SDK's serializer sends no message annotations of its own but the scheduled time and partition key
        sender.sendMessage(new ServiceBusMessage("a"));
        ServiceBusReceivedMessage got =
                receiver.receiveMessages(1, WAIT).stream().findFirst().orElseThrow();
        EveryField.assertBrokerAnnotations(got, null);
        receiver.defer(got);
        ServiceBusReceivedMessage deferred = receiver.receiveDeferredMessage(got.getSequenceNumber());
        EveryField.assertBrokerAnnotations(deferred, "x-opt-message-state");
        assertEquals(1, deferred.getRawAmqpMessage().getMessageAnnotations().get("x-opt-message-state"));
        receiver.complete(deferred);
    }
}
