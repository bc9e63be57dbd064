package dev.sbemu.amqp;

import static dev.sbemu.testkit.EveryField.assertEveryField;
import static dev.sbemu.testkit.EveryField.assertNoField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.models.AmqpMessageBody;
import com.azure.core.amqp.models.AmqpMessageBodyType;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.testkit.EveryField;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The AMQP message as sent comes back on receive, field by field and with the SDK's types (MSG-1); a message
 * without an id gets one (MSG-2); a batch's size is what the client sent (MSG-3). Through the real SDK over the
 * endpoint; sdk-adapter's {@code MessageFieldsTest} holds the same for the in-process clients.
 */
class MessageFieldsOverAmqpTest extends EndpointFixture {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Pattern GUID_N = Pattern.compile("[0-9a-f]{32}");

    private static ServiceBusReceivedMessage one(ServiceBusReceiverClient receiver) {
        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(1, WAIT).stream().toList();
        assertEquals(1, got.size(), "messages received");
        return got.get(0);
    }

    @Test
    @DisplayName("MSG-1 every AMQP field the sender set comes back over the wire with its type: receive, batch, peek")
    void everyFieldOverTheWire() {
        namespace.createQueue("q");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("q").buildClient();
                ServiceBusReceiverClient receiver = clients.receiver()
                        .queueName("q")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            sender.sendMessage(EveryField.message());
            assertEveryField(receiver.peekMessage());
            assertEveryField(one(receiver));

            sender.sendMessages(List.of(EveryField.message(), new ServiceBusMessage("plain")));
            List<ServiceBusReceivedMessage> got =
                    receiver.receiveMessages(2, WAIT).stream().toList();
            assertEquals(2, got.size());
            assertEveryField(got.get(0));
            assertNoField(got.get(1));
        }
    }

    @Test
    @DisplayName("MSG-1 scheduled and deferred messages keep every AMQP field too ($management)")
    void everyFieldThroughManagement() {
        namespace.createQueue("q");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("q").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("q").buildClient()) {
            long scheduled = sender.scheduleMessage(
                    EveryField.message(), OffsetDateTime.now(ZoneOffset.UTC).plusDays(1));
            assertEveryField(receiver.peekMessage(scheduled));
            sender.cancelScheduledMessage(scheduled);

            sender.sendMessage(EveryField.message());
            ServiceBusReceivedMessage got = one(receiver);
            receiver.defer(got);
            ServiceBusReceivedMessage deferred = receiver.receiveDeferredMessage(got.getSequenceNumber());
            assertEquals(
                    Short.valueOf((short) 7),
                    deferred.getRawAmqpMessage().getHeader().getPriority());
            assertEquals(
                    Map.of("checksum", "abc", "x-size", 4),
                    deferred.getRawAmqpMessage().getFooter());
            receiver.complete(deferred);
        }
    }

    @Test
    @DisplayName("MSG-1 body kinds over the wire: AmqpValue and AmqpSequence keep their kind and values")
    void bodyKinds() {
        namespace.createQueue("q");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("q").buildClient();
                ServiceBusReceiverClient receiver = clients.receiver()
                        .queueName("q")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            sender.sendMessage(new ServiceBusMessage(AmqpMessageBody.fromValue(Map.of("k", 12L))));
            sender.sendMessage(new ServiceBusMessage(AmqpMessageBody.fromSequence(List.of("a", 1, true))));
            sender.sendMessage(new ServiceBusMessage(AmqpMessageBody.fromValue("text value")));
            List<ServiceBusReceivedMessage> got = new ArrayList<>();
            while (got.size() < 3) {
                List<ServiceBusReceivedMessage> batch =
                        receiver.receiveMessages(3, WAIT).stream().toList();
                assertTrue(!batch.isEmpty(), "messages arrive");
                got.addAll(batch);
            }
            AmqpMessageBody value = got.get(0).getRawAmqpMessage().getBody();
            assertEquals(AmqpMessageBodyType.VALUE, value.getBodyType());
            assertEquals(Map.of("k", 12L), value.getValue());
            AmqpMessageBody sequence = got.get(1).getRawAmqpMessage().getBody();
            assertEquals(AmqpMessageBodyType.SEQUENCE, sequence.getBodyType());
            assertEquals(List.of("a", 1, true), sequence.getSequence());
            assertEquals("text value", got.get(2).getRawAmqpMessage().getBody().getValue());
        }
    }

    @Test
    @DisplayName("MSG-2 AMQP-15 a message sent without an id gets a GUID of 32 hex digits, one per message of a batch")
    void messageIdAssigned() {
        namespace.createQueue("q");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("q").buildClient();
                ServiceBusReceiverClient receiver = clients.receiver()
                        .queueName("q")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            sender.sendMessage(new ServiceBusMessage("one"));
            sender.sendMessages(List.of(new ServiceBusMessage("two"), new ServiceBusMessage("three")));
            Set<String> ids = new HashSet<>();
            while (ids.size() < 3) {
                List<ServiceBusReceivedMessage> got =
                        receiver.receiveMessages(3, WAIT).stream().toList();
                assertTrue(!got.isEmpty(), "messages arrive");
                got.forEach(m -> {
                    assertTrue(GUID_N.matcher(m.getMessageId()).matches(), m.getMessageId());
                    ids.add(m.getMessageId());
                });
            }
            assertEquals(3, ids.size(), "each message its own id");
        }
    }

    @Test
    @DisplayName("MSG-3 a batch of 4,500 empty messages without ids, which the SDK accepted, is accepted")
    void sizeIsWhatTheClientSent() {
        namespace.createQueue("q");
        try (ServiceBusSenderClient sender = clients().sender().queueName("q").buildClient()) {
            List<ServiceBusMessage> messages = new ArrayList<>();
            for (int i = 0; i < 4_500; i++) {
                messages.add(new ServiceBusMessage(new byte[0]));
            }
            sender.sendMessages(messages);
        }
        assertEquals(4_500, namespace.runtimeInfo(EntityPath.queue("q")).activeMessageCount());
        String first =
                namespace.peek(EntityPath.queue("q"), 1, 2).get(0).message().messageId();
        String second =
                namespace.peek(EntityPath.queue("q"), 1, 2).get(1).message().messageId();
        assertTrue(GUID_N.matcher(first).matches(), first);
        assertNotEquals(first, second);
    }

    @Test
    @DisplayName(
            "AMQP-22 a peek-locked message carries x-opt-lock-token and, beside the sender's annotations, only"
                    + " enqueued time, sequence number and locked-until; a deferred one received by sequence number too (over AMQP)")
    void brokerAnnotations() {
        namespace.createQueue("q");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("q").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("q").buildClient()) {
            ServiceBusMessage sent = new ServiceBusMessage("a");
            sent.getRawAmqpMessage().getMessageAnnotations().put("x-custom", "kept");
            sender.sendMessage(sent);
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
}
