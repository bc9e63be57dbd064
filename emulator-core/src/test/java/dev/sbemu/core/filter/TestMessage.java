package dev.sbemu.core.filter;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** A message copy for filter tests: system properties in an EnumMap, application properties in order. */
final class TestMessage implements FilterMessage {

    private final Map<SystemProperty, Object> system = new EnumMap<>(SystemProperty.class);
    private final Map<String, Object> properties = new LinkedHashMap<>();

    /** A message with the given application properties, as name, value, name, value, ... */
    static TestMessage with(Object... namesAndValues) {
        TestMessage message = new TestMessage();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            message.properties.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return message;
    }

    TestMessage sys(SystemProperty property, Object value) {
        system.put(property, value);
        return this;
    }

    @Override
    public Object systemProperty(SystemProperty property) {
        return system.get(property);
    }

    @Override
    public Map<String, Object> applicationProperties() {
        return properties;
    }

    @Override
    public void setSystemProperty(SystemProperty property, Object value) {
        if (!property.settable()) {
            throw new IllegalStateException("not settable: " + property);
        }
        if (value == null) {
            system.remove(property);
        } else {
            system.put(property, value);
        }
    }

    @Override
    public String toString() {
        return (system.isEmpty() ? "" : "sys" + system + " ") + "user" + properties;
    }
}
