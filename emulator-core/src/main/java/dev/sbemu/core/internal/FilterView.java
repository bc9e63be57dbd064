package dev.sbemu.core.internal;

import dev.sbemu.core.Durations;
import dev.sbemu.core.Message;
import dev.sbemu.core.filter.FilterMessage;
import dev.sbemu.core.filter.SystemProperty;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** A topic message as rule filters read it and rule actions change it (RUL-2..4). */
final class FilterView implements FilterMessage {
    private final StoredMessage stored;
    private final Map<String, Object> applicationProperties;
    private final Map<SystemProperty, Object> changedSystemProperties = new EnumMap<>(SystemProperty.class);

    FilterView(StoredMessage stored) {
        this.stored = stored;
        this.applicationProperties = new LinkedHashMap<>(stored.message.applicationProperties());
    }

    @Override
    public Object systemProperty(SystemProperty property) {
        if (changedSystemProperties.containsKey(property)) {
            return changedSystemProperties.get(property);
        }
        Message m = stored.message;
        return switch (property) {
            case DELIVERY_COUNT -> 0;
            case SEQUENCE_NUMBER -> stored.sequenceNumber;
            case ENQUEUED_TIME_UTC -> stored.enqueuedTime;
            case SCHEDULED_ENQUEUE_TIME_UTC -> stored.scheduledEnqueueTime;
            case TIME_TO_LIVE -> m.timeToLive();
            case EXPIRES_AT_UTC ->
                m.timeToLive() == null ? null : Durations.plusOrNever(stored.enqueuedTime, m.timeToLive());
            case SIZE -> (long) stored.size;
            case ENQUEUED_SEQUENCE_NUMBER -> stored.enqueuedSequenceNumber;
            case DEAD_LETTER_SOURCE -> stored.deadLetterSource;
            case STATE -> stored.state.wireValue();
            default -> m.senderProperty(property);
        };
    }

    @Override
    public Map<String, Object> applicationProperties() {
        return applicationProperties;
    }

    @Override
    public void setSystemProperty(SystemProperty property, Object value) {
        changedSystemProperties.put(property, value);
    }

    /** The message as the action left it. */
    Message toMessage() {
        Message.Builder b = stored.message.toBuilder().applicationProperties(applicationProperties);
        changedSystemProperties.forEach((property, value) -> {
            String text = value == null ? null : value.toString();
            switch (property) {
                case MESSAGE_ID -> b.messageId(text);
                case CORRELATION_ID -> b.correlationId(text);
                case TO -> b.to(text);
                case REPLY_TO -> b.replyTo(text);
                case LABEL -> b.subject(text);
                case SESSION_ID -> b.sessionId(text);
                case REPLY_TO_SESSION_ID -> b.replyToSessionId(text);
                case CONTENT_TYPE -> b.contentType(text);
                default -> throw new IllegalStateException("sys." + property.filterName() + " cannot be set");
            }
        });
        return b.build();
    }
}
