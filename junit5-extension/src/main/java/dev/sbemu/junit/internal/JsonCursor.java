package dev.sbemu.junit.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sbemu.junit.config.EmulatorConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A JSON node of a Config.json with its path, read the way Microsoft's emulator reads the file: keys match
 * case-insensitively, absent and null values are "not set", and errors name the file, path, value and what
 * is allowed (SPEC CFG-2, CFG-3).
 */
final class JsonCursor {
    private final JsonNode node;
    private final String path;
    private final String file;
    private final Consumer<String> warnings;

    JsonCursor(JsonNode node, String path, String file, Consumer<String> warnings) {
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

    JsonNode node() {
        return node;
    }

    /** The value under {@code key}, or null when the key is absent or its value is null. */
    JsonCursor field(String key) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().equalsIgnoreCase(key)) {
                return f.getValue().isNull() ? null : child(f.getValue(), f.getKey());
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
        if (!value.node.isArray()) {
            throw value.invalid("expected an array [ ... ]");
        }
        List<JsonCursor> elements = new ArrayList<>();
        for (int i = 0; i < value.node.size(); i++) {
            elements.add(new JsonCursor(value.node.get(i), value.path + "[" + i + "]", file, warnings));
        }
        return elements;
    }

    /** The object under {@code key}, or null when the key is absent. */
    JsonCursor object(String key) {
        JsonCursor value = field(key);
        if (value != null && !value.node.isObject()) {
            throw value.invalid("expected an object { ... }");
        }
        return value;
    }

    /** This node, which must be an object. */
    JsonCursor requireObject() {
        if (!node.isObject()) {
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
        if (!value.node.isTextual()) {
            throw value.invalid("expected a string in double quotes");
        }
        return value.node.textValue();
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
        if (value == null || value.node.isTextual() && value.node.textValue().isBlank()) {
            return null;
        }
        Duration d = value.node.isTextual() ? IsoDurations.parseOrNull(value.node.textValue()) : null;
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
        JsonNode n = value.node;
        if (n.isIntegralNumber() && n.canConvertToInt()) {
            return n.intValue();
        }
        if (n.isTextual() && n.textValue().trim().matches("[-+]?\\d{1,9}")) {
            return Integer.parseInt(n.textValue().trim());
        }
        throw value.invalid("expected a whole number");
    }

    /** {@code true} or {@code false} (also as strings), or null when absent. */
    Boolean bool(String key) {
        JsonCursor value = field(key);
        if (value == null) {
            return null;
        }
        JsonNode n = value.node;
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isTextual() && (n.textValue().trim().equalsIgnoreCase("true")
                || n.textValue().trim().equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(n.textValue().trim());
        }
        throw value.invalid("expected true or false");
    }

    /** Warns once for each key of this object that is not one of {@code known} (CFG-2). */
    void warnUnknownKeys(String... known) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            boolean isKnown = false;
            for (String k : known) {
                isKnown |= k.equalsIgnoreCase(name);
            }
            if (!isKnown) {
                warnings.accept(file + ": ignoring " + join(name) + ": not a key of the emulator's Config.json "
                        + "format here (known: " + String.join(", ", known) + ")");
            }
        }
    }

    void warn(String message) {
        warnings.accept(file + ": " + message);
    }

    /** An error naming this node's path and value. */
    EmulatorConfigException invalid(String allowed) {
        return new EmulatorConfigException(file + ": " + path + " is " + node + ": " + allowed);
    }

    JsonOrigin origin() {
        return new JsonOrigin(file, path);
    }

    private JsonCursor child(JsonNode value, String key) {
        return new JsonCursor(value, join(key), file, warnings);
    }

    private String join(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
