package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.models.AmqpAnnotatedMessage;
import com.azure.core.amqp.models.AmqpMessageBody;
import com.azure.core.amqp.models.AmqpMessageBodyType;
import com.azure.core.amqp.models.AmqpMessageHeader;
import com.azure.core.amqp.models.AmqpMessageProperties;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
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
    private static final OffsetDateTime EXPIRY = OffsetDateTime.of(2031, 2, 3, 4, 5, 6, 789_000_000, ZoneOffset.UTC);
    private static final OffsetDateTime CREATED = OffsetDateTime.of(2029, 8, 7, 6, 5, 4, 321_000_000, ZoneOffset.UTC);
    private static final Pattern GUID_N = Pattern.compile("[0-9a-f]{32}");

    /** A message with every AMQP field a sender can set through the SDK's raw AMQP message. */
    static ServiceBusMessage everyField() {
        ServiceBusMessage sent = new ServiceBusMessage("body").setMessageId("m-1");
        AmqpAnnotatedMessage raw = sent.getRawAmqpMessage();
        raw.getHeader().setPriority((short) 7).setDurable(true).setFirstAcquirer(true);
        raw.getProperties()
                .setUserId(new byte[] {1, 2, 3})
                .setContentEncoding("gzip")
                .setGroupSequence(42L)
                .setAbsoluteExpiryTime(EXPIRY)
                .setCreationTime(CREATED);
        raw.getDeliveryAnnotations().put("x-opt-hop", "edge-1");
        raw.getDeliveryAnnotations().put("x-count", 5L);
        raw.getFooter().put("checksum", "abc");
        raw.getFooter().put("x-size", 4);
        return sent;
    }

    /** MSG-1: what {@link #everyField()} set, with the types the SDK's deserializer gives. */
    static void assertEveryField(ServiceBusReceivedMessage got) {
        AmqpAnnotatedMessage raw = got.getRawAmqpMessage();
        AmqpMessageHeader header = raw.getHeader();
        assertEquals(Short.valueOf((short) 7), header.getPriority(), "header priority");
        assertEquals(Boolean.TRUE, header.isDurable(), "header durable");
        assertEquals(Boolean.TRUE, header.isFirstAcquirer(), "header first-acquirer");
        AmqpMessageProperties properties = raw.getProperties();
        assertArrayEquals(new byte[] {1, 2, 3}, properties.getUserId(), "user-id");
        assertEquals("gzip", properties.getContentEncoding(), "content-encoding");
        assertEquals(Long.valueOf(42), properties.getGroupSequence(), "group-sequence");
        assertEquals(EXPIRY, properties.getAbsoluteExpiryTime(), "absolute-expiry-time");
        assertEquals(CREATED, properties.getCreationTime(), "creation-time");
        assertEquals(Map.of("x-opt-hop", "edge-1", "x-count", 5L), withoutLockToken(got), "delivery annotations");
        assertEquals(Map.of("checksum", "abc", "x-size", 4), raw.getFooter(), "footer");
        assertEquals("m-1", got.getMessageId());
        assertEquals("body", got.getBody().toString());
        // what the broker stamps stays the broker's
        assertEquals(0L, header.getDeliveryCount(), "delivery count");
        assertTrue(got.getSequenceNumber() > 0, "sequence number");
    }

    /** MSG-1: a message that set none of them reads as the SDK reads an absent field. */
    static void assertNoField(ServiceBusReceivedMessage got) {
        AmqpAnnotatedMessage raw = got.getRawAmqpMessage();
        assertEquals(Short.valueOf((short) 4), raw.getHeader().getPriority(), "AMQP's default priority");
        assertNull(raw.getHeader().isDurable(), "durable");
        assertNull(raw.getHeader().isFirstAcquirer(), "first-acquirer");
        assertNull(raw.getProperties().getContentEncoding(), "content-encoding");
        assertNull(raw.getProperties().getAbsoluteExpiryTime(), "absolute-expiry-time");
        assertNull(raw.getProperties().getCreationTime(), "creation-time");
        assertArrayEquals(new byte[0], raw.getProperties().getUserId(), "user-id");
        assertTrue(raw.getDeliveryAnnotations().isEmpty(), "delivery annotations");
        assertTrue(raw.getFooter().isEmpty(), "footer");
    }

    private static ServiceBusReceivedMessage one(ServiceBusReceiverClient receiver) {
        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(1, WAIT).stream().toList();
        assertEquals(1, got.size(), "messages received");
        return got.get(0);
    }

    /** The delivery annotations but the broker's lock token, which must be the message's own when present. */
    static Map<String, Object> withoutLockToken(ServiceBusReceivedMessage got) {
        Map<String, Object> annotations =
                new java.util.HashMap<>(got.getRawAmqpMessage().getDeliveryAnnotations());
        Object token = annotations.remove("x-opt-lock-token");
        if (token != null) {
            assertEquals(got.getLockToken(), token.toString(), "x-opt-lock-token");
        }
        return annotations;
    }

    /** AMQP-22: what a peek-locked message carries from the broker. */
    static void assertBrokerAnnotations(ServiceBusReceivedMessage got, String state) {
        AmqpAnnotatedMessage raw = got.getRawAmqpMessage();
        assertEquals(
                java.util.UUID.fromString(got.getLockToken()),
                raw.getDeliveryAnnotations().get("x-opt-lock-token"),
                "the lock token, a uuid");
        Set<String> expected =
                new HashSet<>(Set.of("x-opt-enqueued-time", "x-opt-sequence-number", "x-opt-locked-until"));
        if (state != null) {
            expected.add(state);
        }
        assertEquals(expected, raw.getMessageAnnotations().keySet(), "message annotations");
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
            sender.sendMessage(everyField());
            assertEveryField(receiver.peekMessage());
            assertEveryField(one(receiver));

            sender.sendMessages(List.of(everyField(), new ServiceBusMessage("plain")));
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
                    everyField(), OffsetDateTime.now(ZoneOffset.UTC).plusDays(1));
            assertEveryField(receiver.peekMessage(scheduled));
            sender.cancelScheduledMessage(scheduled);

            sender.sendMessage(everyField());
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
            assertBrokerAnnotations(got, null);
            receiver.defer(got);
            ServiceBusReceivedMessage deferred = receiver.receiveDeferredMessage(got.getSequenceNumber());
            assertBrokerAnnotations(deferred, "x-opt-message-state");
            assertEquals(1, deferred.getRawAmqpMessage().getMessageAnnotations().get("x-opt-message-state"));
            receiver.complete(deferred);
        }
    }
}
