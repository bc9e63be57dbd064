package dev.sbemu.amqp.internal;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;

/** JSON for the HTTP control API: a writer for maps, lists and scalars, and a reader of untyped objects. */
final class Json {
    private Json() {}

    /** Writes maps (keys as strings), collections, strings, numbers, booleans and null; anything else as its text. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                quote(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof Collection<?> list) {
            out.append('[');
            boolean first = true;
            for (Object item : list) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(item, out);
            }
            out.append(']');
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Number n) {
            double d = n.doubleValue();
            out.append(Double.isFinite(d) ? String.valueOf(d) : "null");
        } else {
            quote(value.toString(), out);
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /**
     * Reads a JSON object; an empty body is an empty object.
     *
     * @throws IllegalArgumentException when the body is not a JSON object
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> readObject(String body) {
        if (body == null || body.isBlank()) {
            return Map.of();
        }
        try (JsonReader reader = JsonProviders.createReader(body)) {
            reader.nextToken();
            Object value = reader.readUntyped();
            if (value instanceof Map<?, ?> map) {
                return (Map<String, Object>) map;
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("The request body is not valid JSON: " + e.getMessage());
        }
        throw new IllegalArgumentException("The request body must be a JSON object.");
    }
}
