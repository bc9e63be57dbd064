package dev.sbemu.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sbemu.core.AmqpDecimal;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.MessageState;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.Decimal128;
import org.apache.qpid.proton.amqp.Decimal32;
import org.apache.qpid.proton.amqp.Decimal64;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.amqp.messaging.Data;
import org.apache.qpid.proton.amqp.messaging.Footer;
import org.apache.qpid.proton.amqp.messaging.Header;
import org.apache.qpid.proton.amqp.messaging.Properties;
import org.apache.qpid.proton.codec.AMQPDefinedTypes;
import org.apache.qpid.proton.codec.DecoderImpl;
import org.apache.qpid.proton.codec.EncoderImpl;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The codec keeps what proton-j's own message decoding drops: several data sections and the footer after them. */
class AmqpMessagesTest {
    private static final DecoderImpl DECODER = new DecoderImpl();
    private static final EncoderImpl ENCODER = new EncoderImpl(DECODER);

    static {
        AMQPDefinedTypes.registerAllTypes(DECODER, ENCODER);
    }

    private static byte[] encode(Object... sections) {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        ENCODER.setByteBuffer(buffer);
        for (Object section : sections) {
            ENCODER.writeObject(section);
        }
        ENCODER.setByteBuffer((ByteBuffer) null);
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static List<Object> sections(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        DECODER.setByteBuffer(buffer);
        List<Object> out = new ArrayList<>();
        while (buffer.hasRemaining()) {
            out.add(DECODER.readObject());
        }
        DECODER.setByteBuffer(null);
        return out;
    }

    @Test
    @DisplayName("MSG-1 a body of several data sections is kept apart, with the footer after it, both ways")
    void severalDataSections() {
        Properties properties = new Properties();
        properties.setMessageId("m");
        byte[] sent = encode(
                new Header(),
                properties,
                new Data(new Binary(new byte[] {1, 2})),
                new Data(new Binary(new byte[] {3})),
                new Data(new Binary(new byte[0])),
                new Footer(Map.of(Symbol.valueOf("sum"), "x")));

        Message core = AmqpMessages.toCore(sent, 0, sent.length);
        MessageBody.DataSections body = assertInstanceOf(MessageBody.DataSections.class, core.body());
        assertEquals(3, body.sections().size());
        assertArrayEquals(new byte[] {1, 2}, body.sections().get(0));
        assertArrayEquals(new byte[] {3}, body.sections().get(1));
        assertArrayEquals(new byte[] {1, 2, 3}, body.bytes());
        assertEquals(Map.of("sum", "x"), core.amqp().footer());
        assertEquals("m", core.messageId());

        BrokeredMessage brokered = brokered(core);
        List<Object> out = sections(AmqpMessages.encode(AmqpMessages.toAmqp(brokered)));
        List<byte[]> data = out.stream()
                .filter(Data.class::isInstance)
                .map(d -> ((Data) d).getValue().getArray())
                .map(b -> b.clone())
                .toList();
        assertEquals(3, data.size(), "three data sections on the wire: " + out);
        assertArrayEquals(new byte[] {3}, Arrays.copyOf(data.get(1), 1));
        Footer footer = assertInstanceOf(Footer.class, out.get(out.size() - 1), "the footer comes last");
        assertEquals("x", footer.getValue().get(Symbol.valueOf("sum")));
    }

    @Test
    @DisplayName("MSG-1 one data section stays a plain data body")
    void oneDataSection() {
        byte[] sent = encode(new Data(new Binary(new byte[] {9})));
        Message core = AmqpMessages.toCore(sent, 0, sent.length);
        assertEquals(new MessageBody.Data(new byte[] {9}), core.body());
    }

    @Test
    @DisplayName("MSG-5 decimal properties in raw AMQP come to the core as their numbers and go back out with their"
            + " bits, beside the other simple types")
    void decimalsRoundTrip() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("d32", new Decimal32(0x8000_0000 | (99 << 23) | 225));
        wire.put("d64", new Decimal64((397L << 53) | 15));
        wire.put("d128", new Decimal128((6176L - 3) << 49, 12_345));
        wire.put("nan", new Decimal32(0x7C00_0000));
        wire.put("ulong", UnsignedLong.valueOf("18000000000000000000"));
        wire.put("symbol", Symbol.valueOf("s"));
        wire.put("char", 'c');
        byte[] sent = encode(new ApplicationProperties(wire), new Data(new Binary(new byte[] {1})));

        Message core = AmqpMessages.toCore(sent, 0, sent.length);
        Map<String, Object> properties = core.applicationProperties();
        assertEquals(new BigDecimal("-2.25"), ((AmqpDecimal) properties.get("d32")).value());
        assertEquals(new BigDecimal("1.5"), ((AmqpDecimal) properties.get("d64")).value());
        assertEquals(new BigDecimal("12.345"), ((AmqpDecimal) properties.get("d128")).value());

        BrokeredMessage brokered = brokered(core);
        ApplicationProperties back = sections(AmqpMessages.encode(AmqpMessages.toAmqp(brokered))).stream()
                .filter(ApplicationProperties.class::isInstance)
                .map(ApplicationProperties.class::cast)
                .findFirst()
                .orElseThrow();
        wire.forEach((name, value) -> {
            assertEquals(value, back.getValue().get(name), name);
            assertEquals(value.getClass(), back.getValue().get(name).getClass(), name);
        });
    }

    /** {@code core} as the broker hands it out: sequence number 1, a lock token, no other state. */
    private static BrokeredMessage brokered(Message core) {
        return new BrokeredMessage(
                core,
                1,
                Instant.EPOCH,
                null,
                null,
                UUID.randomUUID(),
                Instant.EPOCH,
                0,
                MessageState.ACTIVE,
                null,
                0,
                null,
                -1);
    }
}
