package dev.sbemu.core;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The fields of an AMQP message that Service Bus carries from sender to receiver without acting on them
 * (MSG-1): the header's priority, durable and first-acquirer flags; the properties' user-id,
 * content-encoding, group-sequence, absolute-expiry-time and creation-time; the delivery annotations and
 * the footer. Each is null (or an empty map) when the sender left it out, so a receiver sees exactly what was
 * sent. The fields the broker acts on (TTL, message id, session id, ...) are {@link Message}'s own; those the
 * broker stamps (delivery count, sequence number, lock token, ...) are {@link BrokeredMessage}'s.
 * Immutable; build one with {@link #builder()}.
 *
 * @param priority the header's priority (an AMQP ubyte, 0 to 255), or null
 * @param durable the header's durable flag, or null
 * @param firstAcquirer the header's first-acquirer flag, or null
 * @param userId the properties' user-id (AMQP binary), or null; copied in and out
 * @param contentEncoding the properties' content-encoding (an AMQP symbol), or null
 * @param groupSequence the properties' group-sequence (an AMQP uint, 0 to 2^32-1), or null
 * @param absoluteExpiryTime the properties' absolute-expiry-time, or null; the broker does not act on it
 *        (expiry follows the header's TTL, TTL-16)
 * @param creationTime the properties' creation-time, or null
 * @param deliveryAnnotations the delivery annotations (keys are AMQP symbols), in insertion order
 * @param footer the footer (keys are AMQP symbols), in insertion order
 * @param typedMessageId the message-id as sent when the sender gave it an AMQP type other than string: a
 *        {@link UUID}, an unsigned long as a {@link BigInteger}, or binary as a {@code byte[]}; null for a string
 *        id. {@link Message#messageId()} holds its string form either way, for the broker's own use (duplicate
 *        detection, filters)
 * @param typedCorrelationId likewise for the correlation-id and {@link Message#correlationId()}
 */
public record AmqpFields(
        Integer priority,
        Boolean durable,
        Boolean firstAcquirer,
        byte[] userId,
        String contentEncoding,
        Long groupSequence,
        Instant absoluteExpiryTime,
        Instant creationTime,
        Map<String, Object> deliveryAnnotations,
        Map<String, Object> footer,
        Object typedMessageId,
        Object typedCorrelationId) {

    /** No field set: what a message that only uses Service Bus's own properties carries. */
    public static final AmqpFields NONE = builder().build();

    /** The largest AMQP uint, the range of group-sequence. */
    public static final long MAX_GROUP_SEQUENCE = 0xFFFF_FFFFL;

    public AmqpFields {
        if (priority != null && (priority < 0 || priority > 255)) {
            throw new IllegalArgumentException("priority is an AMQP ubyte (0 to 255), was " + priority);
        }
        if (groupSequence != null && (groupSequence < 0 || groupSequence > MAX_GROUP_SEQUENCE)) {
            throw new IllegalArgumentException(
                    "groupSequence is an AMQP uint (0 to " + MAX_GROUP_SEQUENCE + "), was " + groupSequence);
        }
        userId = userId == null ? null : userId.clone();
        typedMessageId = typedId("typedMessageId", typedMessageId);
        typedCorrelationId = typedId("typedCorrelationId", typedCorrelationId);
        deliveryAnnotations = frozenCopy(deliveryAnnotations);
        footer = frozenCopy(footer);
    }

    private static final BigInteger MAX_ULONG = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private static Object typedId(String name, Object id) {
        if (id == null || id instanceof UUID) {
            return id;
        }
        if (id instanceof byte[] bytes) {
            return bytes.clone();
        }
        if (id instanceof BigInteger big && big.signum() >= 0 && big.compareTo(MAX_ULONG) <= 0) {
            return big;
        }
        throw new IllegalArgumentException(name + " is a UUID, an unsigned long (BigInteger) or binary (byte[]), was "
                + id.getClass().getName() + " " + id);
    }

    private static Object copy(Object id) {
        return id instanceof byte[] bytes ? bytes.clone() : id;
    }

    private static boolean idEquals(Object a, Object b) {
        return a instanceof byte[] x && b instanceof byte[] y ? Arrays.equals(x, y) : Objects.equals(a, b);
    }

    private static int idHash(Object id) {
        return id instanceof byte[] bytes ? Arrays.hashCode(bytes) : Objects.hashCode(id);
    }

    /** The typed message-id (a copy when binary), or null for a string id. */
    @Override
    public Object typedMessageId() {
        return copy(typedMessageId);
    }

    /** The typed correlation-id (a copy when binary), or null for a string id. */
    @Override
    public Object typedCorrelationId() {
        return copy(typedCorrelationId);
    }

    private static Map<String, Object> frozenCopy(Map<String, Object> map) {
        return map == null || map.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /** A copy of the user-id, or null. */
    @Override
    public byte[] userId() {
        return userId == null ? null : userId.clone();
    }

    /** True when no field is set. */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /** The approximate encoded size of these fields, counted with the headers (LIM-1). */
    public int sizeInBytes() {
        if (isEmpty()) {
            return 0;
        }
        int size = 0;
        if (userId != null) {
            size += Sizes.of(userId);
        }
        if (contentEncoding != null) {
            size += Sizes.of(contentEncoding);
        }
        // fixed widths as AMQP encodes them: ubyte 2, boolean 1, uint 5, timestamp 9
        size += (priority == null ? 0 : 2)
                + (durable == null ? 0 : 1)
                + (firstAcquirer == null ? 0 : 1)
                + (groupSequence == null ? 0 : 5)
                + (absoluteExpiryTime == null ? 0 : 9)
                + (creationTime == null ? 0 : 9);
        if (!deliveryAnnotations.isEmpty()) {
            size += Sizes.of(deliveryAnnotations);
        }
        if (!footer.isEmpty()) {
            size += Sizes.of(footer);
        }
        return size;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AmqpFields f
                && Objects.equals(priority, f.priority)
                && Objects.equals(durable, f.durable)
                && Objects.equals(firstAcquirer, f.firstAcquirer)
                && Arrays.equals(userId, f.userId)
                && Objects.equals(contentEncoding, f.contentEncoding)
                && Objects.equals(groupSequence, f.groupSequence)
                && Objects.equals(absoluteExpiryTime, f.absoluteExpiryTime)
                && Objects.equals(creationTime, f.creationTime)
                && deliveryAnnotations.equals(f.deliveryAnnotations)
                && footer.equals(f.footer)
                && idEquals(typedMessageId, f.typedMessageId)
                && idEquals(typedCorrelationId, f.typedCorrelationId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                priority,
                durable,
                firstAcquirer,
                Arrays.hashCode(userId),
                contentEncoding,
                groupSequence,
                absoluteExpiryTime,
                creationTime,
                deliveryAnnotations,
                footer,
                idHash(typedMessageId),
                idHash(typedCorrelationId));
    }

    @Override
    public String toString() {
        return "AmqpFields[priority=" + priority + ", durable=" + durable + ", firstAcquirer=" + firstAcquirer
                + ", userId=" + (userId == null ? null : userId.length + " bytes") + ", contentEncoding="
                + contentEncoding + ", groupSequence=" + groupSequence + ", absoluteExpiryTime=" + absoluteExpiryTime
                + ", creationTime=" + creationTime + ", deliveryAnnotations=" + deliveryAnnotations + ", footer="
                + footer + ", typedMessageId=" + typedMessageId + ", typedCorrelationId=" + typedCorrelationId + "]";
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these fields. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link AmqpFields}; every field starts unset. */
    public static final class Builder {
        private Integer priority;
        private Boolean durable;
        private Boolean firstAcquirer;
        private byte[] userId;
        private String contentEncoding;
        private Long groupSequence;
        private Instant absoluteExpiryTime;
        private Instant creationTime;
        private final Map<String, Object> deliveryAnnotations = new LinkedHashMap<>();
        private final Map<String, Object> footer = new LinkedHashMap<>();
        private Object typedMessageId;
        private Object typedCorrelationId;

        private Builder() {}

        private Builder(AmqpFields f) {
            priority = f.priority;
            durable = f.durable;
            firstAcquirer = f.firstAcquirer;
            userId = f.userId;
            contentEncoding = f.contentEncoding;
            groupSequence = f.groupSequence;
            absoluteExpiryTime = f.absoluteExpiryTime;
            creationTime = f.creationTime;
            deliveryAnnotations.putAll(f.deliveryAnnotations);
            footer.putAll(f.footer);
            typedMessageId = f.typedMessageId;
            typedCorrelationId = f.typedCorrelationId;
        }

        public Builder priority(Integer priority) {
            this.priority = priority;
            return this;
        }

        public Builder durable(Boolean durable) {
            this.durable = durable;
            return this;
        }

        public Builder firstAcquirer(Boolean firstAcquirer) {
            this.firstAcquirer = firstAcquirer;
            return this;
        }

        public Builder userId(byte[] userId) {
            this.userId = userId;
            return this;
        }

        public Builder contentEncoding(String contentEncoding) {
            this.contentEncoding = contentEncoding;
            return this;
        }

        public Builder groupSequence(Long groupSequence) {
            this.groupSequence = groupSequence;
            return this;
        }

        public Builder absoluteExpiryTime(Instant absoluteExpiryTime) {
            this.absoluteExpiryTime = absoluteExpiryTime;
            return this;
        }

        public Builder creationTime(Instant creationTime) {
            this.creationTime = creationTime;
            return this;
        }

        public Builder deliveryAnnotation(String name, Object value) {
            deliveryAnnotations.put(Objects.requireNonNull(name, "name"), value);
            return this;
        }

        public Builder footer(String name, Object value) {
            footer.put(Objects.requireNonNull(name, "name"), value);
            return this;
        }

        /** A message-id the sender typed other than string: UUID, BigInteger (ulong) or byte[] (binary). */
        public Builder typedMessageId(Object typedMessageId) {
            this.typedMessageId = typedMessageId;
            return this;
        }

        /** A correlation-id the sender typed other than string: UUID, BigInteger (ulong) or byte[] (binary). */
        public Builder typedCorrelationId(Object typedCorrelationId) {
            this.typedCorrelationId = typedCorrelationId;
            return this;
        }

        public AmqpFields build() {
            return new AmqpFields(
                    priority,
                    durable,
                    firstAcquirer,
                    userId,
                    contentEncoding,
                    groupSequence,
                    absoluteExpiryTime,
                    creationTime,
                    deliveryAnnotations,
                    footer,
                    typedMessageId,
                    typedCorrelationId);
        }
    }
}
