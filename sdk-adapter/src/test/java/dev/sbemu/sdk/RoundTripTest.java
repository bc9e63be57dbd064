package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.models.AmqpMessageBody;
import com.azure.core.amqp.models.AmqpMessageBodyType;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusMessageState;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** 1,000 seeded random messages through sender, core and receiver; every getter checked. */
class RoundTripTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
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

    /** What the receiver must show for one sent message. */
    private record Expected(
            ServiceBusMessage sent,
            Map<String, Object> properties,
            AmqpMessageBodyType bodyType,
            Object body,
            Duration ttl) {}

    @Test
    @DisplayName("TTL-16 DLQ-2 SEQ-1 1,000 random messages keep every property, type and body kind")
    void roundTrip() {
        Random random = new Random(20300101L);
        ServiceBusSenderClient sender = clients.sender("q");
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        for (int i = 0; i < 1000; i++) {
            Expected expected = randomMessage(random, i);
            sender.sendMessage(expected.sent());
            ServiceBusReceivedMessage got = receiver.receiveMessages(1, Duration.ofSeconds(5))
                    .iterator()
                    .next();
            check(expected, got, i);
            receiver.complete(got);
        }
    }

    private static Expected randomMessage(Random r, int i) {
        int kind = r.nextInt(3);
        ServiceBusMessage m;
        Object body;
        AmqpMessageBodyType type;
        if (kind == 0) {
            byte[] bytes = new byte[r.nextInt(200)];
            r.nextBytes(bytes);
            m = new ServiceBusMessage(bytes);
            body = bytes;
            type = AmqpMessageBodyType.DATA;
        } else if (kind == 1) {
            Object value = r.nextBoolean() ? (Object) ("value-" + r.nextInt()) : (Object) r.nextLong();
            m = new ServiceBusMessage(AmqpMessageBody.fromValue(value));
            body = value;
            type = AmqpMessageBodyType.VALUE;
        } else {
            List<Object> values = List.of("s" + r.nextInt(), (long) r.nextInt(), r.nextBoolean());
            m = new ServiceBusMessage(AmqpMessageBody.fromSequence(values));
            body = values;
            type = AmqpMessageBodyType.SEQUENCE;
        }
        if (r.nextBoolean()) {
            m.setMessageId("id-" + i);
        }
        if (r.nextBoolean()) {
            m.setCorrelationId("corr-" + r.nextInt(100));
        }
        if (r.nextBoolean()) {
            m.setSubject("subject " + r.nextInt(100));
        }
        if (r.nextBoolean()) {
            m.setTo("to-" + r.nextInt(10));
        }
        if (r.nextBoolean()) {
            m.setReplyTo("reply-" + r.nextInt(10));
        }
        if (r.nextBoolean()) {
            m.setReplyToSessionId("rs-" + r.nextInt(10));
        }
        if (r.nextBoolean()) {
            m.setContentType(r.nextBoolean() ? "application/json" : "text/plain");
        }
        if (r.nextBoolean()) {
            String key = "pk-" + r.nextInt(10);
            m.setSessionId(key);
            m.setPartitionKey(key);
        }
        Duration ttl = null;
        if (r.nextBoolean()) {
            ttl = Duration.ofMillis(
                            1000 + (long) (r.nextDouble() * Duration.ofDays(49).toMillis()))
                    .plusNanos(r.nextInt(1_000_000));
            m.setTimeToLive(ttl);
        }
        Map<String, Object> expected = new LinkedHashMap<>();
        int count = r.nextInt(16);
        for (int p = 0; p < count; p++) {
            String name = "p" + p;
            Object[] value = randomProperty(r);
            m.getApplicationProperties().put(name, value[0]);
            expected.put(name, value[1]);
        }
        return new Expected(m, expected, type, body, ttl);
    }

    /** A value and what the SDK reads back after the wire. */
    private static Object[] randomProperty(Random r) {
        switch (r.nextInt(15)) {
            case 0: {
                String s = "str-" + r.nextInt();
                return new Object[] {s, s};
            }
            case 1: {
                Boolean b = r.nextBoolean();
                return new Object[] {b, b};
            }
            case 2: {
                Byte b = (byte) r.nextInt();
                return new Object[] {b, b};
            }
            case 3: {
                Short s = (short) r.nextInt();
                return new Object[] {s, s};
            }
            case 4: {
                Integer v = r.nextInt();
                return new Object[] {v, v};
            }
            case 5: {
                Long v = r.nextLong();
                return new Object[] {v, v};
            }
            case 6: {
                Float v = r.nextFloat();
                return new Object[] {v, v};
            }
            case 7: {
                Double v = r.nextDouble();
                return new Object[] {v, v};
            }
            case 8: {
                Character c = (char) ('a' + r.nextInt(26));
                return new Object[] {c, c};
            }
            case 9: {
                UUID u = new UUID(r.nextLong(), r.nextLong());
                return new Object[] {u, u};
            }
            case 10: {
                // the wire carries .NET ticks in UTC: the offset and sub-tick precision are lost
                OffsetDateTime odt = OffsetDateTime.ofInstant(
                        START.plusNanos(r.nextLong() & 0xFFFFFFFFFFFFL), ZoneOffset.ofHours(r.nextInt(25) - 12));
                OffsetDateTime back = odt.toInstant().atOffset(ZoneOffset.UTC).withNano(odt.getNano() / 100 * 100);
                return new Object[] {odt, back};
            }
            case 11: {
                Date d = new Date(START.toEpochMilli() + r.nextInt());
                return new Object[] {d, d};
            }
            case 12: {
                Duration d = Duration.ofNanos(r.nextLong() & 0xFFFFFFFFFFFL);
                return new Object[] {d, Duration.ofNanos(d.toNanos() / 100 * 100)};
            }
            case 13: {
                URI u = URI.create("https://example.com/" + r.nextInt(1000));
                return new Object[] {u, u};
            }
            default:
                return new Object[] {null, null};
        }
    }

    private static void check(Expected e, ServiceBusReceivedMessage got, int i) {
        ServiceBusMessage sent = e.sent();
        String at = "message " + i;
        assertEquals(e.bodyType(), got.getRawAmqpMessage().getBody().getBodyType(), at);
        switch (e.bodyType()) {
            case DATA -> assertArrayEquals((byte[]) e.body(), got.getBody().toBytes(), at);
            case VALUE ->
                assertEquals(e.body(), got.getRawAmqpMessage().getBody().getValue(), at);
            default -> assertEquals(e.body(), got.getRawAmqpMessage().getBody().getSequence(), at);
        }
        if (sent.getMessageId() != null) {
            assertEquals(sent.getMessageId(), got.getMessageId(), at);
        } else {
            assertTrue(got.getMessageId().matches("[0-9a-f]{32}"), at + ": the broker's id (MSG-2)");
        }
        assertEquals(sent.getCorrelationId(), got.getCorrelationId(), at);
        assertEquals(sent.getSubject(), got.getSubject(), at);
        assertEquals(sent.getTo(), got.getTo(), at);
        assertEquals(sent.getReplyTo(), got.getReplyTo(), at);
        assertEquals(sent.getReplyToSessionId(), got.getReplyToSessionId(), at);
        assertEquals(sent.getContentType(), got.getContentType(), at);
        assertEquals(sent.getSessionId(), got.getSessionId(), at);
        assertEquals(sent.getPartitionKey(), got.getPartitionKey(), at);
        assertEquals(e.properties(), got.getApplicationProperties(), at);
        Duration ttl = e.ttl() == null ? Duration.ZERO : e.ttl().truncatedTo(ChronoUnit.MILLIS);
        assertEquals(ttl, got.getTimeToLive(), at);
        assertEquals(START.atOffset(ZoneOffset.UTC), got.getEnqueuedTime(), at);
        assertEquals(got.getEnqueuedTime().plus(ttl), got.getExpiresAt(), at);
        assertEquals(0, got.getDeliveryCount(), at);
        assertEquals(i + 1, got.getSequenceNumber(), at);
        assertEquals(ServiceBusMessageState.ACTIVE, got.getState(), at);
        assertNotNull(got.getLockToken(), at);
        assertEquals(START.plusSeconds(60).atOffset(ZoneOffset.UTC), got.getLockedUntil(), at);
        assertNull(got.getScheduledEnqueueTime(), at);
        assertNull(got.getDeadLetterReason(), at);
        assertNull(got.getDeadLetterErrorDescription(), at);
        assertNull(got.getDeadLetterSource(), at);
        assertEquals(0, got.getEnqueuedSequenceNumber(), at);
    }

    @Test
    @DisplayName("a byte[] application property fails the send, as the SDK's AMQP encoder does")
    void byteArrayPropertyFails() {
        ServiceBusMessage m = new ServiceBusMessage("x");
        m.getApplicationProperties().put("bytes", new byte[] {1, 2});
        assertThrows(ServiceBusException.class, () -> clients.sender("q").sendMessage(m));
    }

    @Test
    @DisplayName("TTL-16 no TTL: getTimeToLive() is PT0S and getExpiresAt() equals the enqueued time")
    void noTtl() {
        clients.sender("q").sendMessage(new ServiceBusMessage("x"));
        ServiceBusReceivedMessage got = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK)
                .receiveMessages(1, Duration.ofSeconds(5))
                .iterator()
                .next();
        assertEquals(Duration.ZERO, got.getTimeToLive());
        assertEquals(got.getEnqueuedTime(), got.getExpiresAt());
    }

    @Test
    @DisplayName("SCH-1 SCH-3 scheduled messages: sequence numbers back, peek shows SCHEDULED, cancel removes")
    void scheduled() {
        ServiceBusSenderClient sender = clients.sender("q");
        OffsetDateTime at = START.plusSeconds(300).atOffset(ZoneOffset.UTC);
        long seq = sender.scheduleMessage(new ServiceBusMessage("later"), at);
        List<Long> more = new ArrayList<>();
        sender.scheduleMessages(List.of(new ServiceBusMessage("a"), new ServiceBusMessage("b")), at)
                .forEach(more::add);
        assertEquals(2, more.size());
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceivedMessage peeked = receiver.peekMessage(seq);
        assertEquals(ServiceBusMessageState.SCHEDULED, peeked.getState());
        assertEquals(at, peeked.getScheduledEnqueueTime());
        sender.cancelScheduledMessage(seq);
        sender.cancelScheduledMessages(more);
        sender.cancelScheduledMessage(12345); // unknown: the SDK reads message-not-found as success
        ns.clock().advance(Duration.ofMinutes(10));
        assertEquals(
                0, receiver.receiveMessages(5, Duration.ofMillis(50)).stream().count());
    }
}
