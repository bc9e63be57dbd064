package dev.sbemu.core.filter;

import java.util.Map;

/**
 * What a filter reads and an action writes: one message copy.
 *
 * <p>Implementations are provided by the broker. A filter only reads; a {@link SqlRuleAction} writes
 * through {@link #applicationProperties()} and {@link #setSystemProperty(SystemProperty, Object)}.
 */
public interface FilterMessage {

    /**
     * Returns the value of a system property, or null when the message does not carry it.
     *
     * @param property the system property
     * @return its value (String, Long, Integer, OffsetDateTime, Instant, Duration, ...) or null
     */
    Object systemProperty(SystemProperty property);

    /**
     * Returns the application (user) properties. The map is mutable: SQL actions SET and REMOVE
     * through it. Keys keep their spelling; filters look names up case-insensitively.
     *
     * @return the live, mutable application properties
     */
    Map<String, Object> applicationProperties();

    /**
     * Sets a system property on this copy; called by a SQL action such as {@code SET sys.Label = 'x'}
     * for the properties that are {@linkplain SystemProperty#settable() settable}. A null value clears it.
     *
     * @param property a settable system property
     * @param value the new value (a String for every settable property) or null
     * @throws UnsupportedOperationException unless the implementation supports it
     */
    default void setSystemProperty(SystemProperty property, Object value) {
        throw new UnsupportedOperationException(
                "This message does not support setting system property sys." + property.filterName());
    }
}
