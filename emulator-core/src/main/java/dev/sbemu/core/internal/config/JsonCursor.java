package dev.sbemu.core.internal.config;

import dev.sbemu.core.config.EmulatorConfigException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A JSON node of a Config.json with its path, read the way Microsoft's emulator reads the file: keys match
 * case-insensitively, absent and null values are "not set", and errors name the file, path, value and what
 * is allowed (SPEC CFG-2, CFG-3).
 */
final class JsonCursor {
    private final Object node;
    private final String path;
    private final String file;
    private final Consumer<String> warnings;

    JsonCursor(Object node, String path, String file, Consumer<String> warnings) {
        this.node = node;
        this.path = path;
        this.file = file;
        this.warnings = warnings;
    }

    String path() {
        return path;
    }

    String file() {
        return file;
    }

    /** The value: a {@code Map}, {@code List}, {@code String}, {@code BigDecimal} or {@code Boolean}. */
    Object value() {
        return node;
    }

    /** The keys of this object, in document order. */
    Iterable<String> keys() {
        return members().keySet();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> members() {
        return node instanceof Map<?, ?> ? (Map<String, Object>) node : Map.of();
    }

    /** The value under {@code key}, or null when the key is absent or its value is null. */
    JsonCursor field(String key) {
        for (Map.Entry<String, Object> f : members().entrySet()) {
            if (f.getKey().equalsIgnoreCase(key)) {
                return f.getValue() == Json.NULL ? null : child(f.getValue(), f.getKey());
            }
        }
        return null;
    }

    /** The elements of the array under {@code key}; none when the key is absent. */
    List<JsonCursor> array(String key) {
        JsonCursor value = field(key);
        if (value == null) {
            return List.of();
        }
        if (!(value.node instanceof List<?> list)) {
            throw value.invalid("expected an array [ ... ]");
        }
        List<JsonCursor> elements = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            elements.add(new JsonCursor(list.get(i), value.path + "[" + i + "]", file, warnings));
        }
        return elements;
    }

    /** The object under {@code key}, or null when the key is absent. */
    JsonCursor object(String key) {
        JsonCursor value = field(key);
        if (value != null && !(value.node instanceof Map)) {
            throw value.invalid("expected an object { ... }");
        }
        return value;
    }

    /** This node, which must be an object. */
    JsonCursor requireObject() {
        if (!(node instanceof Map)) {
            throw invalid("expected an object { ... }");
        }
        return this;
    }

    /** The string under {@code key}, or null when absent. */
    String string(String key) {
        JsonCursor value = field(key);
        if (value == null) {
            return null;
        }
        if (!(value.node instanceof String text)) {
            throw value.invalid("expected a string in double quotes");
        }
        return text;
    }

    /** The string under {@code key}; absent, null or {@code ""} fail with {@code problem}. */
    String requiredString(String key, String problem) {
        String value = string(key);
        if (value == null || value.isBlank()) {
            throw new EmulatorConfigException(file + ": " + path + "." + key + " is missing or empty: " + problem);
        }
        return value;
    }

    /** An ISO-8601 duration, or null when absent or {@code ""}. */
    Duration duration(String key) {
        JsonCursor value = field(key);
        if (value == null || value.node instanceof String text && text.isBlank()) {
            return null;
        }
        Duration d = value.node instanceof String text ? IsoDurations.parseOrNull(text) : null;
        if (d == null) {
            throw value.invalid("expected " + IsoDurations.EXAMPLES);
        }
        return d;
    }

    /** A whole number (also written as a string, as .NET's configuration binder accepts), or null. */
    Integer integer(String key) {
        JsonCursor value = field(key);
        if (value == null) {
            return null;
        }
        if (value.node instanceof BigDecimal n
                && n.stripTrailingZeros().scale() <= 0
                && n.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
                && n.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            return n.intValueExact();
        }
        if (value.node instanceof String text && text.trim().matches("[-+]?\\d{1,9}")) {
            return Integer.parseInt(text.trim());
        }
        throw value.invalid("expected a whole number");
    }

    /** {@code true} or {@code false} (also as strings), or null when absent. */
    Boolean bool(String key) {
        JsonCursor value = field(key);
        if (value == null) {
            return null;
        }
        if (value.node instanceof Boolean b) {
            return b;
        }
        if (value.node instanceof String text
                && (text.trim().equalsIgnoreCase("true") || text.trim().equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(text.trim());
        }
        throw value.invalid("expected true or false");
    }

    /** Warns once for each key of this object that is not one of {@code known} (CFG-2). */
    void warnUnknownKeys(String... known) {
        for (String name : keys()) {
            boolean isKnown = false;
            for (String k : known) {
                isKnown |= k.equalsIgnoreCase(name);
            }
            if (!isKnown) {
                String nearest = nearest(name, known);
                warnings.accept(file + ": ignoring " + join(name) + ": not a key of the emulator's Config.json "
                        + "format here" + (nearest == null ? "" : "; did you mean " + nearest + "?") + " (known: "
                        + String.join(", ", known) + ")");
            }
        }
    }

    /** The known key nearest to {@code name} (edit distance, ignoring case) when it is close enough, else null. */
    static String nearest(String name, String... known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(name.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best != null && bestDistance <= Math.max(2, best.length() / 3) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** An error naming this node's path and value. */
    EmulatorConfigException invalid(String allowed) {
        return new EmulatorConfigException(file + ": " + path + " is " + Json.render(node) + ": " + allowed);
    }

    JsonOrigin origin() {
        return new JsonOrigin(file, path);
    }

    private JsonCursor child(Object value, String key) {
        return new JsonCursor(value, join(key), file, warnings);
    }

    private String join(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
