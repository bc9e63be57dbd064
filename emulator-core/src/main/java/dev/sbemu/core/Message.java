package dev.sbemu.core;

import dev.sbemu.core.filter.SystemProperty;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a sender hands the broker: the body and every property a {@code ServiceBusMessage} can carry.
 * Immutable; build one with {@link #builder()} or {@link #ofText(String)}.
 *
 * @param body the body
 * @param messageId the message id, or null
 * @param sessionId the session id (AMQP group-id), or null
 * @param correlationId the correlation id, or null
 * @param subject the subject (label), or null
 * @param to the to address, or null
 * @param replyTo the reply-to address, or null
 * @param replyToSessionId the reply-to session id (AMQP reply-to-group-id), or null
 * @param contentType the content type, or null
 * @param partitionKey the partition key, or null
 * @param timeToLive the message's own time-to-live, or null when it has none (the entity default applies)
 * @param scheduledEnqueueTime when to enqueue the message, or null to enqueue at once
 * @param applicationProperties the application properties with their types, in insertion order
 * @param messageAnnotations custom AMQP message annotations that the broker passes through unchanged
 * @param amqp the other AMQP fields the broker carries without acting on them (MSG-1); never null,
 *        {@link AmqpFields#NONE} when the sender set none
 */
public record Message(
        MessageBody body,
        String messageId,
        String sessionId,
        String correlationId,
        String subject,
        String to,
        String replyTo,
        String replyToSessionId,
        String contentType,
        String partitionKey,
        Duration timeToLive,
        Instant scheduledEnqueueTime,
        Map<String, Object> applicationProperties,
        Map<String, Object> messageAnnotations,
        AmqpFields amqp) {

    public Message {
        Objects.requireNonNull(body, "body");
        amqp = amqp == null ? AmqpFields.NONE : amqp;
        applicationProperties = frozenCopy(applicationProperties);
        messageAnnotations = frozenCopy(messageAnnotations);
        if (timeToLive != null && (timeToLive.isNegative() || timeToLive.isZero())) {
            throw new IllegalArgumentException("timeToLive must be positive, was " + timeToLive);
        }
    }

    private static Map<String, Object> frozenCopy(Map<String, Object> map) {
        return map == null || map.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /** A message whose body is {@code text} as UTF-8 bytes (what {@code new ServiceBusMessage(String)} sends). */
    public static Message ofText(String text) {
        return builder().body(text).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this message's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The approximate encoded size of the message, as counted against the limits of LIM-1. The fixed
     * part (24 bytes: a data section's descriptor and length) is what the SDK's own batch accounting
     * counts per message, so a batch the SDK filled to the link size is never refused here.
     */
    public int sizeInBytes() {
        return 24 + body.sizeInBytes() + headerSizeInBytes();
    }

    /** Largest encoded application property, name and value (LIM-1). */
    public static final int MAX_PROPERTY_BYTES = 32 * 1024;
    /** Largest encoded headers: system and application properties together (LIM-1). */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    /** The approximate encoded size of the headers: system and application properties (LIM-1). */
    public int headerSizeInBytes() {
        int size = 0;
        for (String s : new String[] {
            messageId, sessionId, correlationId, subject, to, replyTo, replyToSessionId, contentType, partitionKey
        }) {
            if (s != null) {
                size += Sizes.of(s);
            }
        }
        // an empty map is no section on the wire, and counts nothing (a batch the Go SDK fills to the link's size)
        return size
                + (applicationProperties.isEmpty() ? 0 : Sizes.of(applicationProperties))
                + (messageAnnotations.isEmpty() ? 0 : Sizes.of(messageAnnotations))
                + amqp.sizeInBytes();
    }

    /**
     * Checks the header limits of LIM-1: each application property at most 32 KB, all headers at
     * most 64 KB.
     *
     * @throws BrokerException.MessageSizeExceeded naming the property, or the headers' size
     */
    public void checkHeaderLimits() {
        for (Map.Entry<String, Object> property : applicationProperties.entrySet()) {
            int size = Sizes.of(property.getKey()) + Sizes.of(property.getValue());
            if (size > MAX_PROPERTY_BYTES) {
                throw new BrokerException.MessageSizeExceeded("The application property '" + property.getKey() + "' is "
                        + size + " bytes; a property may have at most " + MAX_PROPERTY_BYTES + " bytes.");
            }
        }
        int headers = headerSizeInBytes();
        if (headers > MAX_HEADER_BYTES) {
            throw new BrokerException.MessageSizeExceeded("The message headers are " + headers + " bytes; at most "
                    + MAX_HEADER_BYTES + " bytes are allowed.");
        }
    }

    /** Builds a {@link Message}. */
    public static final class Builder {
        private MessageBody body = new MessageBody.Data(new byte[0]);
        private String messageId;
        private String sessionId;
        private String correlationId;
        private String subject;
        private String to;
        private String replyTo;
        private String replyToSessionId;
        private String contentType;
        private String partitionKey;
        private Duration timeToLive;
        private Instant scheduledEnqueueTime;
        private final Map<String, Object> applicationProperties = new LinkedHashMap<>();
        private final Map<String, Object> messageAnnotations = new LinkedHashMap<>();
        private AmqpFields amqp = AmqpFields.NONE;

        private Builder() {}

        private Builder(Message m) {
            body = m.body;
            messageId = m.messageId;
            sessionId = m.sessionId;
            correlationId = m.correlationId;
            subject = m.subject;
            to = m.to;
            replyTo = m.replyTo;
            replyToSessionId = m.replyToSessionId;
            contentType = m.contentType;
            partitionKey = m.partitionKey;
            timeToLive = m.timeToLive;
            scheduledEnqueueTime = m.scheduledEnqueueTime;
            applicationProperties.putAll(m.applicationProperties);
            messageAnnotations.putAll(m.messageAnnotations);
            amqp = m.amqp;
        }

        public Builder body(MessageBody body) {
            this.body = Objects.requireNonNull(body, "body");
            return this;
        }

        /** A data body holding {@code text} as UTF-8. */
        public Builder body(String text) {
            return body(new MessageBody.Data(text.getBytes(StandardCharsets.UTF_8)));
        }

        public Builder body(byte[] bytes) {
            return body(new MessageBody.Data(bytes));
        }

        public Builder messageId(String messageId) {
            this.messageId = messageId;
            return this;
        }

        public Builder sessionId(String sessionId) {
            this.sessionId = sessionId;
            return this;
        }

        public Builder correlationId(String correlationId) {
            this.correlationId = correlationId;
            return this;
        }

        public Builder subject(String subject) {
            this.subject = subject;
            return this;
        }

        public Builder to(String to) {
            this.to = to;
            return this;
        }

        public Builder replyTo(String replyTo) {
            this.replyTo = replyTo;
            return this;
        }

        public Builder replyToSessionId(String replyToSessionId) {
            this.replyToSessionId = replyToSessionId;
            return this;
        }

        public Builder contentType(String contentType) {
            this.contentType = contentType;
            return this;
        }

        public Builder partitionKey(String partitionKey) {
            this.partitionKey = partitionKey;
            return this;
        }

        public Builder timeToLive(Duration timeToLive) {
            this.timeToLive = timeToLive;
            return this;
        }

        public Builder scheduledEnqueueTime(Instant scheduledEnqueueTime) {
            this.scheduledEnqueueTime = scheduledEnqueueTime;
            return this;
        }

        public Builder applicationProperty(String name, Object value) {
            applicationProperties.put(Objects.requireNonNull(name, "name"), value);
            return this;
        }

        public Builder applicationProperties(Map<String, Object> properties) {
            applicationProperties.clear();
            applicationProperties.putAll(properties);
            return this;
        }

        public Builder messageAnnotation(String name, Object value) {
            messageAnnotations.put(Objects.requireNonNull(name, "name"), value);
            return this;
        }

        public Builder messageAnnotations(Map<String, Object> annotations) {
            messageAnnotations.clear();
            messageAnnotations.putAll(annotations);
            return this;
        }

        /** The other AMQP fields (MSG-1); null means none. */
        public Builder amqp(AmqpFields amqp) {
            this.amqp = amqp == null ? AmqpFields.NONE : amqp;
            return this;
        }

        public Message build() {
            return new Message(
                    body,
                    messageId,
                    sessionId,
                    correlationId,
                    subject,
                    to,
                    replyTo,
                    replyToSessionId,
                    contentType,
                    partitionKey,
                    timeToLive,
                    scheduledEnqueueTime,
                    applicationProperties,
                    messageAnnotations,
                    amqp);
        }
    }

    /**
     * Returns this message's value of a system property its sender sets, as a filter reads it ({@code sys.MessageId},
     * {@code sys.CorrelationId}, {@code sys.To}, {@code sys.ReplyTo}, {@code sys.Label} (the subject),
     * {@code sys.SessionId}, {@code sys.ReplyToSessionId}, {@code sys.ContentType}, {@code sys.PartitionKey}).
     *
     * @param property the property
     * @return its value (null when not set), or null for the properties the broker assigns (sequence number,
     *         enqueued time, delivery count and the like), which the stored message knows, not this one
     */
    public Object senderProperty(SystemProperty property) {
        return switch (property) {
            case MESSAGE_ID -> messageId;
            case CORRELATION_ID -> correlationId;
            case TO -> to;
            case REPLY_TO -> replyTo;
            case LABEL -> subject;
            case SESSION_ID -> sessionId;
            case REPLY_TO_SESSION_ID -> replyToSessionId;
            case CONTENT_TYPE -> contentType;
            case PARTITION_KEY -> partitionKey;
            default -> null;
        };
    }
}
