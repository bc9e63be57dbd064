package dev.sbemu.amqp.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.MessageState;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.VirtualClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The control API under {@code /__admin/} (docs/admin-openapi.json, served at {@code /__admin/openapi.json}): the
 * clock, the journal, a reset, faults, and an entity's messages, as JSON. Every failure is a JSON
 * {@code {"error": ..., "message": ...}} with a 4xx status; nothing throws to the HTTP server.
 */
final class ControlApi {
    /** The most messages one listing returns. */
    static final int MAX_LISTED = 1_000;

    private static final int PEEK_PAGE = 250;

    /** A JSON answer. */
    record Answer(int status, String json) {
        static Answer ok(Object value) {
            return new Answer(200, Json.write(value));
        }
    }

    /** A refusal with its status. */
    static final class Refusal extends RuntimeException {
        final int status;
        final String error;

        Refusal(int status, String error, String message) {
            super(message, null, false, false);
            this.status = status;
            this.error = error;
        }
    }

    private final EndpointContext context;
    private final Runnable reset;
    private final Map<Long, Faults.Script> scripts = new ConcurrentHashMap<>();
    private final AtomicLong scriptIds = new AtomicLong();

    /**
     * @param reset puts a fresh namespace in place of the current one
     */
    ControlApi(EndpointContext context, Runnable reset) {
        this.context = context;
        this.reset = reset;
    }

    Answer handle(String method, List<String> path, Map<String, String> query, String body) {
        try {
            return route(method, path, query, body);
        } catch (Refusal r) {
            return error(r.status, r.error, r.getMessage());
        } catch (BrokerException.EntityNotFound e) {
            return error(404, "EntityNotFound", e.getMessage());
        } catch (BrokerException e) {
            return error(409, e.reason().toString(), e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException e) {
            return error(400, "BadRequest", e.getMessage());
        }
    }

    static Answer error(int status, String error, String message) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("error", error);
        out.put("message", message == null ? error : message);
        return new Answer(status, Json.write(out));
    }

    private Answer route(String method, List<String> path, Map<String, String> query, String body) {
        String first = path.isEmpty() ? "" : path.get(0).toLowerCase(Locale.ROOT);
        String rest = String.join("/", path.subList(Math.min(1, path.size()), path.size()))
                .toLowerCase(Locale.ROOT);
        switch (first) {
            case "openapi.json" -> {
                require(method, "GET", path);
                return new Answer(200, openApi());
            }
            case "clock" -> {
                return clock(method, rest, body, path);
            }
            case "journal" -> {
                require(method, "GET", path);
                return journal(query);
            }
            case "reset" -> {
                require(method, "POST", path);
                reset.run();
                scripts.clear();
                return ok(obj(
                        "status",
                        "reset",
                        "clock",
                        clockJson(context.namespace().clock())));
            }
            case "faults" -> {
                return faults(method, rest, body, path);
            }
            case "messages" -> {
                if (!rest.isEmpty()) {
                    throw notFound(path);
                }
                EntityPath entity = entity(query);
                if (method.equals("GET")) {
                    return ok(obj("entity", entity.toString(), "messages", list(entity, max(query))));
                }
                require(method, "DELETE", path);
                return ok(obj("entity", entity.toString(), "purged", purge(entity)));
            }
            default -> throw notFound(path);
        }
    }

    /** A JSON object with its fields in the order given. */
    private static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return out;
    }

    private static Answer ok(Object value) {
        return Answer.ok(value);
    }

    private static Refusal notFound(List<String> path) {
        return new Refusal(
                404,
                "NotFound",
                "No control operation at /__admin/" + String.join("/", path) + "; see /__admin/openapi.json.");
    }

    private static void require(String method, String expected, List<String> path) {
        if (!method.equals(expected)) {
            throw new Refusal(
                    405,
                    "MethodNotAllowed",
                    method + " is not allowed on /__admin/" + String.join("/", path) + "; use " + expected + ".");
        }
    }

    // ---- clock ----------------------------------------------------------------------------------------------

    private Answer clock(String method, String rest, String body, List<String> path) {
        VirtualClock clock = context.namespace().clock();
        switch (rest) {
            case "" -> require(method, "GET", path);
            case "advance" -> {
                require(method, "POST", path);
                Duration d = duration(Json.readObject(body).get("duration"), "duration");
                if (d.isNegative()) {
                    throw new IllegalArgumentException(
                            "The clock cannot move backwards: duration " + d + " is negative.");
                }
                clock.advance(d);
            }
            case "advance-to" -> {
                require(method, "POST", path);
                Instant target = instant(Json.readObject(body).get("instant"));
                Instant now = clock.instant();
                if (target.isBefore(now)) {
                    throw new IllegalArgumentException("The clock cannot move backwards: " + target
                            + " is before its current instant " + now + ".");
                }
                clock.advanceTo(target);
            }
            case "freeze" -> {
                require(method, "POST", path);
                clock.freeze();
            }
            case "run" -> {
                require(method, "POST", path);
                clock.run();
            }
            default -> throw notFound(path);
        }
        return ok(clockJson(clock));
    }

    private static Map<String, Object> clockJson(VirtualClock clock) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("now", clock.instant().toString());
        out.put("mode", clock.mode().name());
        return out;
    }

    private static Duration duration(Object value, String field) {
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

    private static Instant instant(Object value) {
        if (!(value instanceof String text)) {
            throw new IllegalArgumentException("'instant' must be an ISO-8601 instant such as "
                    + "\"2026-01-01T10:00:00Z\", was " + (value == null ? "missing" : value) + ".");
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "'instant' is not an ISO-8601 instant (such as " + "\"2026-01-01T10:00:00Z\"): '" + text + "'.");
        }
    }

    // ---- journal --------------------------------------------------------------------------------------------

    private Answer journal(Map<String, String> query) {
        long from = longParam(query, "from", 0);
        if (from < 0) {
            throw new IllegalArgumentException("'from' must not be negative, was " + from + ".");
        }
        Namespace namespace = context.namespace();
        List<JournalEvent> events;
        long total;
        int attempts = 0;
        while (true) {
            total = namespace.journal().totalEvents();
            events = namespace.journal().events();
            if (namespace.journal().totalEvents() == total || ++attempts > 100) {
                break;
            }
        }
        long firstIndex = total - events.size();
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            long index = firstIndex + i;
            if (index < from) {
                continue;
            }
            JournalEvent e = events.get(i);
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("index", index);
            event.put("at", e.at().toString());
            event.put("type", e.type().name());
            event.put("entity", e.entity());
            if (e.sequenceNumber() >= 0) {
                event.put("sequenceNumber", e.sequenceNumber());
            }
            if (e.messageId() != null) {
                event.put("messageId", e.messageId());
            }
            if (!e.detail().isEmpty()) {
                event.put("detail", e.detail());
            }
            event.put("text", e.format());
            out.add(event);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("events", out);
        answer.put("next", total);
        answer.put("dropped", Math.max(0, firstIndex - from));
        return ok(answer);
    }

    // ---- faults ---------------------------------------------------------------------------------------------

    private Answer faults(String method, String rest, String body, List<String> path) {
        Faults faults = context.namespace().faults();
        if (rest.isEmpty()) {
            switch (method) {
                case "GET" -> {
                    List<Object> out = new ArrayList<>();
                    scripts.forEach((id, script) -> out.add(scriptJson(id, script)));
                    return ok(obj("faults", out));
                }
                case "DELETE" -> {
                    faults.clear();
                    scripts.clear();
                    return ok(obj("faults", List.of()));
                }
                case "POST" -> {
                    Map<String, Object> spec = Json.readObject(body);
                    Faults.Target target = target(faults, spec);
                    String action = string(spec, "action");
                    Faults.Operation operation = enumValue(Faults.Operation.class, spec.get("operation"), "operation");
                    Faults.Script script = switch (action) {
                        case "failNext" ->
                            target.failNext(
                                    intValue(spec, "count", 1),
                                    operation,
                                    enumValue(Faults.Failure.class, spec.get("failure"), "failure"));
                        case "failFraction" ->
                            target.failFraction(
                                    number(spec, "fraction").doubleValue(),
                                    spec.get("seed") == null
                                            ? 0
                                            : number(spec, "seed").longValue(),
                                    operation,
                                    enumValue(Faults.Failure.class, spec.get("failure"), "failure"));
                        case "delayNext" ->
                            target.delayNext(
                                    intValue(spec, "count", 1), operation, duration(spec.get("delay"), "delay"));
                        case "delayNextInRealTime" ->
                            target.delayNextInRealTime(
                                    intValue(spec, "count", 1), operation, duration(spec.get("delay"), "delay"));
                        default ->
                            throw new IllegalArgumentException("Unknown fault action '" + action
                                    + "'; use failNext, failFraction, delayNext or delayNextInRealTime.");
                    };
                    long id = scriptIds.incrementAndGet();
                    scripts.put(id, script);
                    return new Answer(201, Json.write(scriptJson(id, script)));
                }
                default ->
                    throw new Refusal(
                            405,
                            "MethodNotAllowed",
                            method + " is not allowed on /__admin/faults;" + " use GET, POST or DELETE.");
            }
        }
        require(method, "DELETE", path);
        Faults.Script script;
        try {
            script = scripts.remove(Long.parseLong(rest));
        } catch (NumberFormatException e) {
            script = null;
        }
        if (script == null) {
            throw new Refusal(404, "NotFound", "No fault with id '" + rest + "'.");
        }
        script.cancel();
        return ok(obj("cancelled", Long.parseLong(rest)));
    }

    private static Map<String, Object> scriptJson(long id, Faults.Script script) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("actedOn", script.actedOn());
        out.put("done", script.isDone());
        return out;
    }

    private static Faults.Target target(Faults faults, Map<String, Object> spec) {
        Object entity = spec.get("entity");
        if (entity == null) {
            return faults.onAnyEntity();
        }
        Object subscription = spec.get("subscription");
        return subscription == null
                ? faults.on(entity.toString())
                : faults.on(EntityPath.subscription(entity.toString(), subscription.toString()));
    }

    private static String string(Map<String, Object> spec, String field) {
        if (!(spec.get(field) instanceof String s)) {
            throw new IllegalArgumentException("'" + field + "' is missing or not a string.");
        }
        return s;
    }

    private static Number number(Map<String, Object> spec, String field) {
        if (!(spec.get(field) instanceof Number n)) {
            throw new IllegalArgumentException("'" + field + "' is missing or not a number.");
        }
        return n;
    }

    private static int intValue(Map<String, Object> spec, String field, int absent) {
        return spec.get(field) == null ? absent : number(spec, field).intValue();
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, Object value, String field) {
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(String.valueOf(value))) {
                return constant;
            }
            names.add(constant.name());
        }
        throw new IllegalArgumentException("'" + field + "' must be one of " + names + ", was "
                + (value == null ? "missing" : "'" + value + "'") + ".");
    }

    // ---- messages -------------------------------------------------------------------------------------------

    private static EntityPath entity(Map<String, String> query) {
        String name = query.get("entity");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "Name the entity: ?entity=<queue or topic>[&subscription=<name>]" + "[&subQueue=deadletter].");
        }
        String subscription = query.get("subscription");
        EntityPath path = subscription == null ? EntityPath.queue(name) : EntityPath.subscription(name, subscription);
        String subQueue = query.getOrDefault("subQueue", "").toLowerCase(Locale.ROOT);
        return switch (subQueue) {
            case "", "none" -> path;
            case "deadletter", "dead_letter_queue", "$deadletterqueue" -> path.deadLetter();
            case "transferdeadletter", "transfer_dead_letter_queue" ->
                path.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE);
            default ->
                throw new IllegalArgumentException(
                        "'subQueue' must be deadletter or transferdeadletter, was '" + subQueue + "'.");
        };
    }

    private static int max(Map<String, String> query) {
        long max = longParam(query, "max", 100);
        if (max < 1 || max > MAX_LISTED) {
            throw new IllegalArgumentException("'max' must be between 1 and " + MAX_LISTED + ", was " + max + ".");
        }
        return (int) max;
    }

    private static long longParam(Map<String, String> query, String name, long absent) {
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

    private List<Object> list(EntityPath entity, int max) {
        List<Object> out = new ArrayList<>();
        for (BrokeredMessage m : peekAll(context.namespace(), entity, max)) {
            out.add(messageJson(m));
        }
        return out;
    }

    private static List<BrokeredMessage> peekAll(Namespace namespace, EntityPath entity, int max) {
        List<BrokeredMessage> all = new ArrayList<>();
        long from = 0;
        while (all.size() < max) {
            List<BrokeredMessage> page = namespace.peek(entity, from, Math.min(PEEK_PAGE, max - all.size()));
            all.addAll(page);
            if (page.isEmpty()) {
                break;
            }
            from = page.get(page.size() - 1).sequenceNumber() + 1;
        }
        return all;
    }

    private static Map<String, Object> messageJson(BrokeredMessage m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sequenceNumber", m.sequenceNumber());
        out.put("messageId", m.message().messageId());
        out.put("state", m.state().name());
        if (m.message().sessionId() != null) {
            out.put("sessionId", m.message().sessionId());
        }
        out.put(
                "enqueuedTime",
                m.enqueuedTime() == null ? null : m.enqueuedTime().toString());
        if (m.scheduledEnqueueTime() != null) {
            out.put("scheduledEnqueueTime", m.scheduledEnqueueTime().toString());
        }
        out.put("expiresAt", m.expiresAt() == null ? null : m.expiresAt().toString());
        out.put("deliveryCount", m.deliveryCount());
        if (m.deadLetterReason() != null) {
            out.put("deadLetterReason", m.deadLetterReason());
        }
        if (m.deadLetterErrorDescription() != null) {
            out.put("deadLetterErrorDescription", m.deadLetterErrorDescription());
        }
        if (m.message().contentType() != null) {
            out.put("contentType", m.message().contentType());
        }
        if (m.message().body() instanceof MessageBody.Data || m.message().body() instanceof MessageBody.DataSections) {
            byte[] bytes = m.bodyAsString().getBytes(StandardCharsets.UTF_8);
            out.put("body", m.bodyAsString());
            out.put("bodyBase64", Base64.getEncoder().encodeToString(bytes));
        } else {
            out.put("body", String.valueOf(m.message().body()));
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        m.message()
                .applicationProperties()
                .forEach((k, v) -> properties.put(
                        k, v == null ? null : v instanceof Boolean || v instanceof Number ? v : v.toString()));
        out.put("applicationProperties", properties);
        return out;
    }

    /** Removes the entity's messages: active and deferred, and scheduled ones of a queue or topic. */
    private long purge(EntityPath entity) {
        Namespace namespace = context.namespace();
        long purged = 0;
        List<Long> deferred = new ArrayList<>();
        List<Long> scheduled = new ArrayList<>();
        for (BrokeredMessage m : peekAll(namespace, entity, Integer.MAX_VALUE)) {
            if (m.state() == MessageState.DEFERRED) {
                deferred.add(m.sequenceNumber());
            } else if (m.state() == MessageState.SCHEDULED) {
                scheduled.add(m.sequenceNumber());
            }
        }
        while (true) {
            int n = namespace
                    .receive(entity, ReceiveMode.RECEIVE_AND_DELETE, PEEK_PAGE)
                    .size();
            purged += n;
            if (n == 0) {
                break;
            }
        }
        if (!deferred.isEmpty()) {
            purged += namespace
                    .receiveDeferred(entity, ReceiveMode.RECEIVE_AND_DELETE, deferred)
                    .size();
        }
        if (!scheduled.isEmpty() && !entity.isSubscription() && entity.subQueue() == EntityPath.Part.NONE) {
            namespace.cancelScheduled(entity.topicOrQueue(), scheduled);
            purged += scheduled.size();
        }
        return purged;
    }

    // ---- OpenAPI --------------------------------------------------------------------------------------------

    private static volatile String openApi;

    static String openApi() {
        String text = openApi;
        if (text == null) {
            try (InputStream in = ControlApi.class.getResourceAsStream("/dev/sbemu/amqp/admin-openapi.json")) {
                if (in == null) {
                    throw new IllegalStateException("admin-openapi.json is missing from the jar");
                }
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            openApi = text;
        }
        return text;
    }
}
