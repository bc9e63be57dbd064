package dev.sbemu.amqp.internal.http;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One request to the control API: its method, path segments below {@code /__admin/}, query and body; {@code rest} is
 * the path below the resource's segment, lower-cased. With the checks and readers the resources share.
 */
record AdminRequest(String method, List<String> path, String rest, Map<String, String> query, String body) {

    /** Refuses the request with 405 unless its method is {@code expected}. */
    void require(String expected) {
        if (!method.equals(expected)) {
            throw new AdminRoutes.Refusal(
                    405,
                    "MethodNotAllowed",
                    method + " is not allowed on /__admin/" + String.join("/", path) + "; use " + expected + ".");
        }
    }

    /** The refusal of a path no resource serves. */
    AdminRoutes.Refusal notFound() {
        return new AdminRoutes.Refusal(
                404,
                "NotFound",
                "No control operation at /__admin/" + String.join("/", path) + "; see /__admin/openapi.json.");
    }

    /** The body as a JSON object (an empty body: an empty object). */
    Map<String, Object> json() {
        return JsonBodies.readObject(body);
    }

    /** The query parameter {@code name} as a whole number, or {@code absent} without one. */
    long longParam(String name, long absent) {
        String value = query.get(name);
        if (value == null) {
            return absent;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + name + "' must be a whole number, was '" + value + "'.");
        }
    }

    /** An ISO-8601 duration of a JSON body's {@code field}. */
    static Duration duration(Object value, String field) {
        if (!(value instanceof String text)) {
            throw new IllegalArgumentException("'" + field + "' must be an ISO-8601 duration such as \"PT11M\", was "
                    + (value == null ? "missing" : value) + ".");
        }
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "'" + field + "' is not an ISO-8601 duration (such as \"PT11M\"): '" + text + "'.");
        }
    }

    /** A JSON object with its fields in the order given. */
    static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return out;
    }
}
