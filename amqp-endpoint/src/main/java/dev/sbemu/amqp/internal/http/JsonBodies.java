package dev.sbemu.amqp.internal.http;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.azure.json.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;

/**
 * The HTTP side's JSON bodies, through azure-json: a writer for maps, lists and scalars (the control API's answers,
 * {@code /health}), and a reader of untyped objects (the control API's request bodies).
 */
final class JsonBodies {
    private JsonBodies() {}

    /**
     * Writes maps (keys as strings), collections, strings, numbers, booleans and null; anything else as its text. A
     * number is written with its exact digits where its text has them, else as a double, null when not finite.
     */
    static String write(Object value) {
        StringWriter out = new StringWriter();
        try (JsonWriter writer = JsonProviders.createWriter(out)) {
            write(value, writer);
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(Object value, JsonWriter out) throws IOException {
        if (value == null) {
            out.writeNull();
        } else if (value instanceof Map<?, ?> map) {
            out.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.writeFieldName(String.valueOf(e.getKey()));
                write(e.getValue(), out);
            }
            out.writeEndObject();
        } else if (value instanceof Collection<?> list) {
            out.writeStartArray();
            for (Object item : list) {
                write(item, out);
            }
            out.writeEndArray();
        } else if (value instanceof Boolean b) {
            out.writeBoolean(b);
        } else if (value instanceof Integer i) {
            out.writeInt(i);
        } else if (value instanceof Long l) {
            out.writeLong(l);
        } else if (value instanceof Number n) {
            writeNumber(n, out);
        } else {
            out.writeString(value.toString());
        }
    }

    /**
     * A number as its exact digits where it has them (a decimal, AMQP's decimals and unsigned longs: their doubles
     * would round), else as a double; NaN and the infinities, which JSON has not, as null.
     */
    private static void writeNumber(Number n, JsonWriter out) throws IOException {
        if (!(n instanceof Double) && !(n instanceof Float)) {
            try {
                out.writeRawValue(new BigDecimal(n.toString()).toString());
                return;
            } catch (NumberFormatException notDigits) {
                // NaN, an infinity, or a number type whose text is not its value: its double below
            }
        }
        double d = n.doubleValue();
        if (Double.isFinite(d)) {
            out.writeRawValue(String.valueOf(d));
        } else {
            out.writeNull();
        }
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
