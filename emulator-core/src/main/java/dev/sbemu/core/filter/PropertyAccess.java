package dev.sbemu.core.filter;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Finds properties on a {@link FilterMessage}. Application property names are case-insensitive, as in
 * the service: an exact match wins, otherwise the first key equal ignoring case (SPEC RUL-6).
 */
final class PropertyAccess {

    private static final String SYS_PREFIX = "sys.";
    private static final String USER_PREFIX = "user.";

    private PropertyAccess() {}

    /** Returns the key under which {@code name} is stored, or null when there is none. */
    static String findKey(Map<String, Object> properties, String name) {
        if (properties == null || properties.isEmpty()) {
            return null;
        }
        if (properties.containsKey(name)) {
            return name;
        }
        for (String key : properties.keySet()) {
            if (key != null && key.equalsIgnoreCase(name)) {
                return key;
            }
        }
        return null;
    }

    static Object user(FilterMessage message, String name) {
        Map<String, Object> properties = message.applicationProperties();
        String key = findKey(properties, name);
        return key == null ? null : properties.get(key);
    }

    static boolean userExists(FilterMessage message, String name) {
        return findKey(message.applicationProperties(), name) != null;
    }

    /**
     * Resolves the argument of {@code property(name)}: {@code sys.X} names a system property,
     * {@code user.X} an application property, and any other text an application property.
     */
    static Object byDynamicName(FilterMessage message, String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith(SYS_PREFIX)) {
            Optional<SystemProperty> system = SystemProperty.byFilterName(name.substring(SYS_PREFIX.length()));
            if (system.isPresent()) {
                return message.systemProperty(system.get());
            }
        }
        if (lower.startsWith(USER_PREFIX) && !userExists(message, name)) {
            return user(message, name.substring(USER_PREFIX.length()));
        }
        return user(message, name);
    }
}
