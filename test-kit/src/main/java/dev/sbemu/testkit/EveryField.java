package dev.sbemu.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.models.AmqpAnnotatedMessage;
import com.azure.core.amqp.models.AmqpMessageHeader;
import com.azure.core.amqp.models.AmqpMessageProperties;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

/**
 * MSG-1's "every field" message: a {@link ServiceBusMessage} with every AMQP field a sender can set through the
 * SDK's raw AMQP message, and the checks that a received message carries them, with the types the SDK's
 * deserializer gives (in process: sdk-adapter's {@code MessageFieldsTest}; over the wire: amqp-endpoint's
 * {@code MessageFieldsOverAmqpTest}).
 */
public final class EveryField {
    /** The absolute-expiry-time the message carries (an AMQP property the broker does not act on). */
    public static final OffsetDateTime EXPIRY = OffsetDateTime.of(2031, 2, 3, 4, 5, 6, 789_000_000, ZoneOffset.UTC);
    /** The creation-time the message carries. */
    public static final OffsetDateTime CREATED = OffsetDateTime.of(2029, 8, 7, 6, 5, 4, 321_000_000, ZoneOffset.UTC);

    private EveryField() {}

    /** A new message with message id {@code m-1}, body {@code body} and every settable AMQP field set. */
    public static ServiceBusMessage message() {
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

    /** MSG-1: {@code got} carries what {@link #message()} set, and what the broker stamps stays the broker's. */
    public static void assertEveryField(ServiceBusReceivedMessage got) {
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
        assertEquals(0L, header.getDeliveryCount(), "delivery count, the broker's");
        assertTrue(got.getSequenceNumber() > 0, "sequence number, the broker's");
    }

    /** MSG-1: a message that set none of the fields reads as the SDK reads an absent field. */
    public static void assertNoField(ServiceBusReceivedMessage got) {
        AmqpAnnotatedMessage raw = got.getRawAmqpMessage();
        assertEquals(Short.valueOf((short) 4), raw.getHeader().getPriority(), "AMQP's default priority");
        assertNull(raw.getHeader().isDurable(), "durable");
        assertNull(raw.getHeader().isFirstAcquirer(), "first-acquirer");
        assertNull(raw.getProperties().getContentEncoding(), "content-encoding");
        assertNull(raw.getProperties().getAbsoluteExpiryTime(), "absolute-expiry-time");
        assertNull(raw.getProperties().getCreationTime(), "creation-time");
        assertArrayEquals(new byte[0], raw.getProperties().getUserId(), "user-id");
        assertTrue(withoutLockToken(got).isEmpty(), "delivery annotations");
        assertTrue(raw.getFooter().isEmpty(), "footer");
    }

    /**
     * The delivery annotations but the broker's {@code x-opt-lock-token} (AMQP-22: a received message carries it),
     * which must be the message's own lock token where present.
     */
    public static Map<String, Object> withoutLockToken(ServiceBusReceivedMessage got) {
        Map<String, Object> annotations = new HashMap<>(got.getRawAmqpMessage().getDeliveryAnnotations());
        Object token = annotations.remove("x-opt-lock-token");
        if (token != null) {
            assertEquals(got.getLockToken(), token.toString(), "x-opt-lock-token");
        }
        return annotations;
    }
}
