package dev.sbemu.core.filter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A correlation filter: every field that is set must equal the message's value exactly and
 * case-sensitively, and every entry of {@code properties} must equal the application property of
 * that exact name; all conditions are ANDed and null fields are not compared (SPEC RUL-3). Property
 * values compare as in a SQL filter's {@code =} (an Integer 5 equals a Long 5).
 *
 * @param correlationId the correlation id, or null
 * @param messageId the message id, or null
 * @param to the "to" address, or null
 * @param replyTo the reply-to address, or null
 * @param subject the subject ({@code sys.Label}), or null
 * @param sessionId the session id, or null
 * @param replyToSessionId the reply-to session id, or null
 * @param contentType the content type, or null
 * @param properties application properties to match; copied, never null (null becomes empty)
 */
public record CorrelationFilter(
        String correlationId,
        String messageId,
        String to,
        String replyTo,
        String subject,
        String sessionId,
        String replyToSessionId,
        String contentType,
        Map<String, Object> properties)
        implements RuleFilter {

    /** Copies {@code properties}, which may hold null values, into an unmodifiable map. */
    public CorrelationFilter {
        properties = properties == null || properties.isEmpty()
                ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    @Override
    public boolean matches(FilterMessage message) {
        try {
            return matchesSystem(message, SystemProperty.CORRELATION_ID, correlationId)
                    && matchesSystem(message, SystemProperty.MESSAGE_ID, messageId)
                    && matchesSystem(message, SystemProperty.TO, to)
                    && matchesSystem(message, SystemProperty.REPLY_TO, replyTo)
                    && matchesSystem(message, SystemProperty.LABEL, subject)
                    && matchesSystem(message, SystemProperty.SESSION_ID, sessionId)
                    && matchesSystem(message, SystemProperty.REPLY_TO_SESSION_ID, replyToSessionId)
                    && matchesSystem(message, SystemProperty.CONTENT_TYPE, contentType)
                    && matchesProperties(message);
        } catch (RuntimeException failingMessage) {
            return false;
        }
    }

    private static boolean matchesSystem(FilterMessage message, SystemProperty property, String expected) {
        if (expected == null) {
            return true;
        }
        Object actual = message.systemProperty(property);
        return actual != null && expected.equals(actual.toString());
    }

    private boolean matchesProperties(FilterMessage message) {
        if (properties.isEmpty()) {
            return true;
        }
        Map<String, Object> actual = message.applicationProperties();
        for (Map.Entry<String, Object> expected : properties.entrySet()) {
            if (actual == null || !actual.containsKey(expected.getKey())) {
                return false;
            }
            Object value = actual.get(expected.getKey());
            boolean equal = expected.getValue() == null
                    ? value == null
                    : Boolean.TRUE.equals(Values.compare(Values.Comparison.EQ, expected.getValue(), value));
            if (!equal) {
                return false;
            }
        }
        return true;
    }
}
