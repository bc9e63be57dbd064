package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The message model's AMQP fields (MSG-1), the message ids the broker assigns (MSG-2), the size that counts (MSG-3). */
class MessageModelTest {
    private static final Pattern GUID_N = Pattern.compile("[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}");

    private static AmqpFields every() {
        return AmqpFields.builder()
                .priority(9)
                .durable(true)
                .firstAcquirer(false)
                .userId(new byte[] {7, 8})
                .contentEncoding("gzip")
                .groupSequence(AmqpFields.MAX_GROUP_SEQUENCE)
                .absoluteExpiryTime(Instant.parse("2031-01-01T00:00:00Z"))
                .creationTime(Instant.parse("2029-01-01T00:00:00Z"))
                .deliveryAnnotation("x-hop", "a")
                .footer("sum", 3L)
                .build();
    }

    @Test
    @DisplayName("MSG-1 the broker keeps a message's other AMQP fields from send to receive, immutable")
    void amqpFieldsKept() {
        Namespace ns = namespace();
        ns.createQueue("q");
        byte[] userId = {7, 8};
        AmqpFields sent = every().toBuilder().userId(userId).build();
        userId[0] = 0;
        ns.send("q", Message.builder().messageId("m").amqp(sent).build());

        AmqpFields got = ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 1)
                .get(0)
                .message()
                .amqp();
        assertEquals(every(), got);
        assertArrayEquals(new byte[] {7, 8}, got.userId());
        got.userId()[0] = 0;
        assertArrayEquals(new byte[] {7, 8}, got.userId(), "a copy each time");
        assertThrows(UnsupportedOperationException.class, () -> got.footer().put("x", 1));
        assertEquals(AmqpFields.NONE, Message.ofText("x").amqp());
        assertTrue(Message.ofText("x").amqp().isEmpty());
        assertEquals(
                Message.ofText("x").sizeInBytes() + every().sizeInBytes(),
                Message.builder().body("x").amqp(every()).build().sizeInBytes(),
                "they count with the headers");
    }

    @Test
    @DisplayName("MSG-1 priority is an AMQP ubyte and group-sequence an AMQP uint: values outside are refused")
    void amqpFieldRanges() {
        assertThrows(
                IllegalArgumentException.class,
                () -> AmqpFields.builder().priority(256).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> AmqpFields.builder().priority(-1).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> AmqpFields.builder()
                        .groupSequence(AmqpFields.MAX_GROUP_SEQUENCE + 1)
                        .build());
        assertThrows(
                IllegalArgumentException.class,
                () -> AmqpFields.builder().groupSequence(-1L).build());
    }

    @Test
    @DisplayName("MSG-1 an id typed uuid, ulong or binary is kept with its type; the message holds its string form")
    void typedIds() {
        AmqpFields binary = AmqpFields.builder().typedMessageId(new byte[] {1}).build();
        assertEquals(binary, AmqpFields.builder().typedMessageId(new byte[] {1}).build());
        assertEquals(
                binary.hashCode(),
                AmqpFields.builder().typedMessageId(new byte[] {1}).build().hashCode());
        ((byte[]) binary.typedMessageId())[0] = 9;
        assertArrayEquals(new byte[] {1}, (byte[]) binary.typedMessageId(), "a copy each time");
        UUID uuid = UUID.randomUUID();
        assertEquals(uuid, AmqpFields.builder().typedCorrelationId(uuid).build().typedCorrelationId());
        assertThrows(
                IllegalArgumentException.class,
                () -> AmqpFields.builder().typedMessageId(5L).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> AmqpFields.builder()
                        .typedMessageId(BigInteger.ONE.shiftLeft(64))
                        .build());
    }

    @Test
    @DisplayName("MSG-2 a message sent without a message id gets a new GUID as 32 hex digits; one with an id keeps it")
    void messageIdAssigned() {
        Namespace ns = namespace();
        ns.createQueue(
                "q", QueueOptions.builder().requiresDuplicateDetection(true).build());
        ns.send(
                "q",
                List.of(
                        Message.ofText("a"),
                        Message.ofText("b"),
                        Message.builder().messageId("mine").build()));
        ns.schedule("q", List.of(Message.ofText("c")), ns.clock().instant());

        List<String> ids = ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10).stream()
                .map(m -> m.message().messageId())
                .toList();
        assertEquals(4, ids.size(), "no id-less message is taken for a duplicate: " + ids);
        assertTrue(GUID_N.matcher(ids.get(0)).matches(), ids.get(0));
        assertTrue(GUID_N.matcher(ids.get(1)).matches(), ids.get(1));
        assertNotEquals(ids.get(0), ids.get(1));
        assertEquals("mine", ids.get(2));
        assertTrue(GUID_N.matcher(ids.get(3)).matches(), ids.get(3));
    }

    @Test
    @DisplayName("MSG-3 LIM-1 the size limit counts the messages as sent, not the ids the broker adds")
    void sizeCountsWhatWasSent() {
        Namespace ns = namespace();
        ns.createQueue("q");
        int each = Message.ofText("").sizeInBytes();
        int fit = Tier.STANDARD.defaultMaxMessageSizeBytes() / each;
        ns.send("q", new ArrayList<>(Collections.nCopies(fit, Message.ofText(""))));
        assertEquals(fit, ns.runtimeInfo(Q).activeMessageCount());

        List<Message> oneTooMany = new ArrayList<>(Collections.nCopies(fit + 1, Message.ofText("")));
        assertThrows(BrokerException.MessageSizeExceeded.class, () -> ns.send("q", oneTooMany));
        assertEquals(fit, ns.runtimeInfo(Q).activeMessageCount(), "all or nothing");
    }
}
