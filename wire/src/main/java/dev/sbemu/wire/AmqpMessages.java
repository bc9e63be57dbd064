package dev.sbemu.wire;

import com.azure.messaging.servicebus.implementation.DurationDescribedType;
import com.azure.messaging.servicebus.implementation.MessageUtils;
import com.azure.messaging.servicebus.implementation.OffsetDateTimeDescribedType;
import com.azure.messaging.servicebus.implementation.UriDescribedType;
import dev.sbemu.core.AmqpDecimal;
import dev.sbemu.core.AmqpFields;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageBody;
import java.math.BigInteger;
import java.net.URI;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.Decimal128;
import org.apache.qpid.proton.amqp.Decimal32;
import org.apache.qpid.proton.amqp.Decimal64;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedByte;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.AmqpSequence;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.amqp.messaging.Data;
import org.apache.qpid.proton.amqp.messaging.DeliveryAnnotations;
import org.apache.qpid.proton.amqp.messaging.Footer;
import org.apache.qpid.proton.amqp.messaging.Header;
import org.apache.qpid.proton.amqp.messaging.MessageAnnotations;
import org.apache.qpid.proton.amqp.messaging.Properties;
import org.apache.qpid.proton.amqp.messaging.Section;
import org.apache.qpid.proton.codec.AMQPDefinedTypes;
import org.apache.qpid.proton.codec.DecoderImpl;
import org.apache.qpid.proton.codec.EncoderImpl;
import org.apache.qpid.proton.codec.ReadableBuffer;
import org.apache.qpid.proton.codec.WritableBuffer;
import org.apache.qpid.proton.message.impl.MessageImpl;

/**
 * The one mapping between the core's messages and AMQP messages as Service Bus puts them on the wire
 * (docs/amqp.md, "Received messages"). The in-process clients feed it through the SDK's own
 * serializer ({@code internal.WireCodec}); the AMQP endpoint puts it on a socket. Not a user API: it is
 * public only so that both can share it.
 */
public final class AmqpMessages {
    public static final Symbol SEQUENCE_NUMBER = Symbol.valueOf("x-opt-sequence-number");
    public static final Symbol ENQUEUED_TIME = Symbol.valueOf("x-opt-enqueued-time");
    public static final Symbol LOCKED_UNTIL = Symbol.valueOf("x-opt-locked-until");
    public static final Symbol SCHEDULED_ENQUEUE_TIME = Symbol.valueOf("x-opt-scheduled-enqueue-time");
    public static final Symbol PARTITION_KEY = Symbol.valueOf("x-opt-partition-key");
    /** JMS 2.0's delivery time (Qpid JMS's {@code JMSDeliveryTime}), taken as the scheduled enqueue time. */
    public static final Symbol DELIVERY_TIME = Symbol.valueOf("x-opt-delivery-time");

    public static final Symbol ENQUEUE_SEQUENCE_NUMBER = Symbol.valueOf("x-opt-enqueue-sequence-number");
    public static final Symbol DEAD_LETTER_SOURCE = Symbol.valueOf("x-opt-deadletter-source");
    public static final Symbol MESSAGE_STATE = Symbol.valueOf("x-opt-message-state");
    /** The delivery annotation with a locked message's lock token, a uuid (beside the delivery tag). */
    public static final Symbol LOCK_TOKEN = Symbol.valueOf("x-opt-lock-token");
    /**
     * The annotations the broker stamps on what it delivers: a sender's own values for them are ignored on input
     * (MSG-1; the protocol guide: x-opt-enqueued-time "ignored on input").
     */
    private static final Set<Symbol> STAMPED = Set.of(
            SEQUENCE_NUMBER,
            ENQUEUED_TIME,
            LOCKED_UNTIL,
            ENQUEUE_SEQUENCE_NUMBER,
            DEAD_LETTER_SOURCE,
            MESSAGE_STATE,
            LOCK_TOKEN);
    /** The largest TTL the AMQP header can carry: a uint32 of milliseconds (TTL-16). */
    public static final long MAX_HEADER_TTL_MILLIS = 0xFFFF_FFFFL;

    private AmqpMessages() {}

    // ---- what a sender sends --------------------------------------------------------------------

    /**
     * The core message for an AMQP message as a sender put it on the wire (one message, not a batch
     * envelope). Described application property values ({@code com.microsoft:datetime-offset}, ...)
     * become their Java values, as the SDK's own decoding makes them.
     */
    public static Message toCore(org.apache.qpid.proton.message.Message amqp) {
        Message.Builder b = Message.builder().body(body(amqp.getBody()));
        Properties p = amqp.getProperties();
        if (p != null) {
            b.messageId(string(p.getMessageId()))
                    .correlationId(string(p.getCorrelationId()))
                    .to(p.getTo())
                    .replyTo(p.getReplyTo())
                    .subject(p.getSubject())
                    .sessionId(p.getGroupId())
                    .replyToSessionId(p.getReplyToGroupId())
                    .contentType(
                            p.getContentType() == null
                                    ? null
                                    : p.getContentType().toString());
        }
        Header header = amqp.getHeader();
        if (header != null && header.getTtl() != null && header.getTtl().longValue() > 0) {
            b.timeToLive(Duration.ofMillis(header.getTtl().longValue()));
        }
        b.amqp(amqpFields(header, p, amqp.getDeliveryAnnotations(), amqp.getFooter()));
        MessageAnnotations annotations = amqp.getMessageAnnotations();
        if (annotations != null && annotations.getValue() != null) {
            for (Map.Entry<Symbol, Object> e : annotations.getValue().entrySet()) {
                if (SCHEDULED_ENQUEUE_TIME.equals(e.getKey()) && e.getValue() instanceof Date date) {
                    b.scheduledEnqueueTime(date.toInstant());
                } else if (DELIVERY_TIME.equals(e.getKey())
                        && !annotations.getValue().containsKey(SCHEDULED_ENQUEUE_TIME)
                        && (e.getValue() instanceof Long || e.getValue() instanceof Date)) {
                    // JMS 2.0's delivery delay as Qpid JMS sends it (milliseconds since the epoch): the scheduled
                    // enqueue time, as the service takes it; the annotation stays for JMS consumers (JMS-12)
                    b.scheduledEnqueueTime(
                            e.getValue() instanceof Date date
                                    ? date.toInstant()
                                    : Instant.ofEpochMilli((Long) e.getValue()));
                    b.messageAnnotation(e.getKey().toString(), e.getValue());
                } else if (PARTITION_KEY.equals(e.getKey())) {
                    b.partitionKey((String) e.getValue());
                } else if (!STAMPED.contains(e.getKey())) {
                    b.messageAnnotation(e.getKey().toString(), e.getValue());
                }
            }
        }
        ApplicationProperties properties = amqp.getApplicationProperties();
        if (properties != null && properties.getValue() != null) {
            b.applicationProperties(propertiesFromWire(properties.getValue()));
        }
        return b.build();
    }

    /**
     * The core message for the encoded AMQP message in {@code bytes}, as a sender put it on the wire. Unlike
     * proton-j's own decoding, which keeps the first of several data sections and then stops, this keeps every
     * data section ({@link MessageBody.DataSections}) and the footer after them (MSG-1).
     */
    public static Message toCore(byte[] bytes, int offset, int length) {
        DecoderImpl decoder = DECODERS.get();
        ReadableBuffer buffer = ReadableBuffer.ByteBufferReader.wrap(ByteBuffer.wrap(bytes, offset, length));
        org.apache.qpid.proton.message.Message amqp = Proton.message();
        List<byte[]> data = null;
        List<List<Object>> sequences = null;
        decoder.setBuffer(buffer);
        try {
            while (buffer.hasRemaining()) {
                Object section = decoder.readObject();
                if (section instanceof Data d) {
                    if (amqp.getBody() == null) {
                        amqp.setBody(d);
                    } else {
                        if (data == null) {
                            data = new ArrayList<>();
                            data.add(bytes(((Data) amqp.getBody()).getValue()));
                        }
                        data.add(bytes(d.getValue()));
                    }
                } else if (section instanceof AmqpSequence sequence && amqp.getBody() instanceof AmqpSequence first) {
                    if (sequences == null) {
                        sequences = new ArrayList<>();
                        sequences.add(sequenceValues(first));
                    }
                    sequences.add(sequenceValues(sequence));
                } else if (section instanceof AmqpValue || section instanceof AmqpSequence) {
                    amqp.setBody((Section) section);
                } else if (section instanceof Header h) {
                    amqp.setHeader(h);
                } else if (section instanceof DeliveryAnnotations d) {
                    amqp.setDeliveryAnnotations(d);
                } else if (section instanceof MessageAnnotations m) {
                    amqp.setMessageAnnotations(m);
                } else if (section instanceof Properties p) {
                    amqp.setProperties(p);
                } else if (section instanceof ApplicationProperties a) {
                    amqp.setApplicationProperties(a);
                } else if (section instanceof Footer f) {
                    amqp.setFooter(f);
                } else {
                    throw new IllegalArgumentException("Not an AMQP message section: " + section);
                }
            }
        } finally {
            decoder.setBuffer(null);
        }
        Message message = toCore(amqp);
        if (sequences != null) {
            return message.toBuilder()
                    .body(new MessageBody.Sequences(sequences))
                    .build();
        }
        return data == null
                ? message
                : message.toBuilder().body(new MessageBody.DataSections(data)).build();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> sequenceValues(AmqpSequence sequence) {
        return sequence.getValue() == null ? List.of() : (List<Object>) sequence.getValue();
    }

    private static final ThreadLocal<DecoderImpl> DECODERS = ThreadLocal.withInitial(() -> {
        DecoderImpl decoder = new DecoderImpl();
        AMQPDefinedTypes.registerAllTypes(decoder, new EncoderImpl(decoder));
        return decoder;
    });

    /**
     * Application properties as they arrive on the wire (in a message, or as the properties to modify of a
     * settlement), with the keys as strings and the SDK's described types as their Java values.
     */
    public static Map<String, Object> propertiesFromWire(Map<?, ?> wire) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (wire != null) {
            wire.forEach((name, value) -> values.put(String.valueOf(name), coreValue(value)));
        }
        return values;
    }

    /**
     * A property value as the core keeps it: described types as the SDK decodes them, decimals as {@link
     * AmqpDecimal} (proton-j 0.34 reads every decimal's number as 0; its bits are right, and are kept).
     */
    private static Object coreValue(Object value) {
        if (value instanceof DescribedType described) {
            return MessageUtils.describedToOrigin(described);
        }
        if (value instanceof Decimal32 d) {
            return AmqpDecimal.decimal32(d.getBits());
        }
        if (value instanceof Decimal64 d) {
            return AmqpDecimal.decimal64(d.getBits());
        }
        if (value instanceof Decimal128 d) {
            return AmqpDecimal.decimal128(d.getMostSignificantBits(), d.getLeastSignificantBits());
        }
        return value;
    }

    /**
     * The lock token the service tags a pre-settled (receive-and-delete) delivery of {@code message} with (PAR-5): a
     * fresh GUID on a partitioned entity, none (an empty delivery tag) on any other. Peek-lock deliveries carry
     * their lock token instead.
     *
     * @return the GUID, or null for an empty tag
     */
    public static UUID presettledDeliveryTag(BrokeredMessage message) {
        if (message.partitionId() < 0) {
            return null;
        }
        // a version-4 GUID from the thread's generator: unique enough for a tag, without SecureRandom's cost
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }

    /** The Java SDK's serializer always sends a user-id, empty when unset: one shared value for it. */
    private static final AmqpFields EMPTY_USER_ID =
            AmqpFields.builder().userId(new byte[0]).build();

    /** The fields the broker carries without acting on them (MSG-1), as the sender put them on the wire. */
    private static AmqpFields amqpFields(
            Header header, Properties p, DeliveryAnnotations deliveryAnnotations, Footer footer) {
        boolean noHeaderField = header == null
                || header.getPriority() == null && header.getDurable() == null && header.getFirstAcquirer() == null;
        boolean noPropertiesField = p == null
                || p.getContentEncoding() == null
                        && p.getGroupSequence() == null
                        && p.getAbsoluteExpiryTime() == null
                        && p.getCreationTime() == null
                        && typedId(p.getMessageId()) == null
                        && typedId(p.getCorrelationId()) == null;
        boolean noAnnotations = (deliveryAnnotations == null
                        || deliveryAnnotations.getValue() == null
                        || deliveryAnnotations.getValue().isEmpty())
                && (footer == null
                        || footer.getValue() == null
                        || footer.getValue().isEmpty());
        if (noHeaderField && noPropertiesField && noAnnotations) {
            // what the Java SDK sends for a message that sets none of them: an empty user-id, or none at all
            Binary userId = p == null ? null : p.getUserId();
            if (userId == null) {
                return AmqpFields.NONE;
            }
            if (userId.getLength() == 0) {
                return EMPTY_USER_ID;
            }
        }
        AmqpFields.Builder f = AmqpFields.builder();
        if (header != null) {
            f.priority(
                            header.getPriority() == null
                                    ? null
                                    : header.getPriority().intValue())
                    .durable(header.getDurable())
                    .firstAcquirer(header.getFirstAcquirer());
        }
        if (p != null) {
            Binary userId = p.getUserId();
            f.userId(userId == null ? null : bytes(userId))
                    .contentEncoding(
                            p.getContentEncoding() == null
                                    ? null
                                    : p.getContentEncoding().toString())
                    .groupSequence(
                            p.getGroupSequence() == null
                                    ? null
                                    : p.getGroupSequence().longValue())
                    .absoluteExpiryTime(
                            p.getAbsoluteExpiryTime() == null
                                    ? null
                                    : p.getAbsoluteExpiryTime().toInstant())
                    .creationTime(
                            p.getCreationTime() == null
                                    ? null
                                    : p.getCreationTime().toInstant())
                    .typedMessageId(typedId(p.getMessageId()))
                    .typedCorrelationId(typedId(p.getCorrelationId()));
        }
        if (deliveryAnnotations != null && deliveryAnnotations.getValue() != null) {
            deliveryAnnotations.getValue().forEach((name, value) -> {
                if (!LOCK_TOKEN.equals(name)) {
                    f.deliveryAnnotation(name.toString(), value);
                }
            });
        }
        if (footer != null && footer.getValue() != null) {
            // keys are AMQP symbols, but the Java SDK's serializer puts the strings of its footer map there
            ((Map<?, ?>) footer.getValue()).forEach((name, value) -> f.footer(String.valueOf(name), value));
        }
        return f.build();
    }

    /**
     * A message or correlation id that the sender typed other than string, as a JDK value (MSG-1): uuid as
     * {@code UUID}, ulong as {@code BigInteger}, binary as {@code byte[]}; null for a string (or no) id.
     */
    private static Object typedId(Object id) {
        if (id instanceof UUID) {
            return id;
        }
        if (id instanceof UnsignedLong ulong) {
            return new BigInteger(ulong.toString());
        }
        if (id instanceof Binary binary) {
            return bytes(binary);
        }
        return null;
    }

    /** A typed id as AMQP puts it on the wire. */
    private static Object wireId(Object typed) {
        if (typed instanceof BigInteger big) {
            return UnsignedLong.valueOf(big.toString());
        }
        if (typed instanceof byte[] bytes) {
            return new Binary(bytes);
        }
        return typed;
    }

    private static byte[] bytes(Binary binary) {
        if (binary == null) {
            return new byte[0];
        }
        return Arrays.copyOfRange(
                binary.getArray(), binary.getArrayOffset(), binary.getArrayOffset() + binary.getLength());
    }

    private static MessageBody body(Section section) {
        if (section instanceof Data data) {
            Binary binary = data.getValue();
            return new MessageBody.Data(
                    binary == null
                            ? new byte[0]
                            : Arrays.copyOfRange(
                                    binary.getArray(),
                                    binary.getArrayOffset(),
                                    binary.getArrayOffset() + binary.getLength()));
        }
        if (section instanceof AmqpValue value) {
            return new MessageBody.Value(value.getValue());
        }
        if (section instanceof AmqpSequence sequence) {
            @SuppressWarnings("unchecked")
            List<Object> values = sequence.getValue();
            return new MessageBody.Sequence(values);
        }
        return MessageBody.ABSENT; // MSG-4: no body section, none delivered
    }

    private static String string(Object id) {
        return id == null ? null : id.toString();
    }

    // ---- what the broker sends -------------------------------------------------------------------

    /** The AMQP message the broker sends for {@code message} (docs/amqp.md, "Received messages"). */
    public static org.apache.qpid.proton.message.Message toAmqp(BrokeredMessage brokered) {
        Message m = brokered.message();
        org.apache.qpid.proton.message.Message amqp = m.body() instanceof MessageBody.DataSections sections
                ? new DataSectionsMessage(sections)
                : m.body() instanceof MessageBody.Sequences sequences
                        ? new DataSectionsMessage(sequences)
                        : Proton.message();

        AmqpFields fields = m.amqp();
        Header header = new Header();
        header.setDeliveryCount(UnsignedInteger.valueOf(brokered.deliveryCount()));
        Duration ttl = brokered.timeToLive();
        if (ttl != null && ttl.toMillis() > 0 && ttl.toMillis() <= MAX_HEADER_TTL_MILLIS) {
            header.setTtl(UnsignedInteger.valueOf(ttl.toMillis()));
        }
        if (fields.priority() != null) {
            header.setPriority(UnsignedByte.valueOf((byte) fields.priority().intValue()));
        }
        header.setDurable(fields.durable());
        header.setFirstAcquirer(fields.firstAcquirer());
        amqp.setHeader(header);

        if (!fields.deliveryAnnotations().isEmpty() || brokered.lockToken() != null) {
            Map<Symbol, Object> delivery = new LinkedHashMap<>(symbolKeys(fields.deliveryAnnotations()));
            if (brokered.lockToken() != null) {
                // the service's: the Go SDK takes a deferred message's lock token only from it
                delivery.put(LOCK_TOKEN, brokered.lockToken());
            }
            amqp.setDeliveryAnnotations(new DeliveryAnnotations(delivery));
        }

        Properties p = new Properties();
        p.setMessageId(fields.typedMessageId() != null ? wireId(fields.typedMessageId()) : m.messageId());
        p.setCorrelationId(
                fields.typedCorrelationId() != null ? wireId(fields.typedCorrelationId()) : m.correlationId());
        p.setTo(m.to());
        p.setReplyTo(m.replyTo());
        p.setSubject(m.subject());
        p.setContentType(m.contentType() == null ? null : Symbol.valueOf(m.contentType()));
        p.setGroupId(m.sessionId());
        p.setReplyToGroupId(m.replyToSessionId());
        byte[] userId = fields.userId();
        p.setUserId(userId == null ? null : new Binary(userId));
        p.setContentEncoding(fields.contentEncoding() == null ? null : Symbol.valueOf(fields.contentEncoding()));
        p.setGroupSequence(fields.groupSequence() == null ? null : UnsignedInteger.valueOf(fields.groupSequence()));
        p.setAbsoluteExpiryTime(fields.absoluteExpiryTime() == null ? null : Date.from(fields.absoluteExpiryTime()));
        p.setCreationTime(fields.creationTime() == null ? null : Date.from(fields.creationTime()));
        amqp.setProperties(p);

        Map<Symbol, Object> annotations = new LinkedHashMap<>();
        m.messageAnnotations().forEach((name, value) -> annotations.put(Symbol.valueOf(name), wireValue(value)));
        annotations.put(SEQUENCE_NUMBER, brokered.sequenceNumber());
        annotations.put(ENQUEUED_TIME, Date.from(brokered.enqueuedTime()));
        if (brokered.lockedUntil() != null) {
            annotations.put(LOCKED_UNTIL, Date.from(brokered.lockedUntil()));
        }
        if (brokered.scheduledEnqueueTime() != null) {
            annotations.put(SCHEDULED_ENQUEUE_TIME, Date.from(brokered.scheduledEnqueueTime()));
        }
        if (m.partitionKey() != null) {
            annotations.put(PARTITION_KEY, m.partitionKey());
        }
        if (brokered.enqueuedSequenceNumber() != 0) {
            annotations.put(ENQUEUE_SEQUENCE_NUMBER, brokered.enqueuedSequenceNumber());
        }
        if (brokered.deadLetterSource() != null) {
            annotations.put(DEAD_LETTER_SOURCE, brokered.deadLetterSource());
        }
        if (brokered.state().wireValue() != 0) {
            // as the service: an active message has no state annotation (the SDKs read its absence as active)
            annotations.put(MESSAGE_STATE, brokered.state().wireValue());
        }
        amqp.setMessageAnnotations(new MessageAnnotations(annotations));

        if (!m.applicationProperties().isEmpty()) {
            Map<String, Object> properties = new LinkedHashMap<>();
            m.applicationProperties().forEach((name, value) -> properties.put(name, wireValue(value)));
            amqp.setApplicationProperties(new ApplicationProperties(properties));
        }

        MessageBody body = m.body();
        if (body instanceof MessageBody.Data data) {
            amqp.setBody(new Data(new Binary(data.bytes())));
        } else if (body instanceof MessageBody.Value value) {
            amqp.setBody(new AmqpValue(wireValue(value.value())));
        } else if (body instanceof MessageBody.Sequence sequence) {
            amqp.setBody(new AmqpSequence(sequence.values()));
        } else if (body instanceof MessageBody.DataSections sections) {
            amqp.setBody(new Data(new Binary(sections.sections().get(0))));
        } else if (body instanceof MessageBody.Sequences sequences) {
            amqp.setBody(new AmqpSequence(sequences.sections().get(0)));
        } // MessageBody.Absent: no body section (MSG-4)
        if (!fields.footer().isEmpty()) {
            amqp.setFooter(new Footer(symbolKeys(fields.footer())));
        }
        return amqp;
    }

    /**
     * A proton-j message whose body is several data sections: proton-j's message holds one body section, so
     * the encoding puts the others (and then the footer) after it.
     */
    private static final class DataSectionsMessage extends MessageImpl {
        /** The body sections after the first, encoded. */
        private final List<Section> more;

        DataSectionsMessage(MessageBody.DataSections sections) {
            List<byte[]> all = sections.sections();
            this.more = all.subList(1, all.size()).stream()
                    .map(b -> (Section) new Data(new Binary(b)))
                    .toList();
        }

        DataSectionsMessage(MessageBody.Sequences sequences) {
            List<List<Object>> all = sequences.sections();
            this.more = all.subList(1, all.size()).stream()
                    .map(values -> (Section) new AmqpSequence(values))
                    .toList();
        }

        @Override
        public int encode(WritableBuffer buffer) {
            Footer footer = getFooter();
            setFooter(null);
            try {
                int length = super.encode(buffer);
                int start = buffer.position();
                DecoderImpl decoder = new DecoderImpl();
                EncoderImpl encoder = new EncoderImpl(decoder);
                AMQPDefinedTypes.registerAllTypes(decoder, encoder);
                encoder.setByteBuffer(buffer);
                for (Section section : more) {
                    encoder.writeObject(section);
                }
                if (footer != null) {
                    encoder.writeObject(footer);
                }
                encoder.setByteBuffer((WritableBuffer) null);
                return length + buffer.position() - start;
            } finally {
                setFooter(footer);
            }
        }
    }

    /** An annotations map (delivery annotations, footer) as AMQP has it: symbol keys, wire values. */
    private static Map<Symbol, Object> symbolKeys(Map<String, Object> map) {
        Map<Symbol, Object> out = new LinkedHashMap<>();
        map.forEach((name, value) -> out.put(Symbol.valueOf(name), wireValue(value)));
        return out;
    }

    /** A Java value as the service encodes it: the SDK's described types for date-time offsets, durations, URIs. */
    private static Object wireValue(Object value) {
        if (value instanceof OffsetDateTime odt) {
            return new OffsetDateTimeDescribedType(odt);
        }
        if (value instanceof Duration duration) {
            return new DurationDescribedType(duration);
        }
        if (value instanceof URI uri) {
            return new UriDescribedType(uri);
        }
        if (value instanceof byte[] bytes) {
            return new Binary(bytes.clone());
        }
        if (value instanceof AmqpDecimal d) {
            return switch (d.width()) {
                case 32 -> new Decimal32((int) d.bits());
                case 64 -> new Decimal64(d.bits());
                default -> new Decimal128(d.highBits(), d.bits());
            };
        }
        return value;
    }

    // ---- bytes --------------------------------------------------------------------------------

    /** Encodes {@code message} and decodes the bytes again, as the link does. */
    public static org.apache.qpid.proton.message.Message roundTrip(org.apache.qpid.proton.message.Message message) {
        byte[] bytes = encode(message);
        org.apache.qpid.proton.message.Message decoded = Proton.message();
        decoded.decode(bytes, 0, bytes.length);
        return decoded;
    }

    public static byte[] encode(org.apache.qpid.proton.message.Message message) {
        int capacity = 1024 + bodyHint(message);
        while (true) {
            byte[] buffer = new byte[capacity];
            try {
                int length = message.encode(buffer, 0, buffer.length);
                return Arrays.copyOf(buffer, length);
            } catch (BufferOverflowException e) {
                if (capacity > Integer.MAX_VALUE / 2) {
                    throw e;
                }
                capacity *= 2;
            }
        }
    }

    private static int bodyHint(org.apache.qpid.proton.message.Message message) {
        return message.getBody() instanceof Data data && data.getValue() != null
                ? data.getValue().getLength()
                : 0;
    }
}
