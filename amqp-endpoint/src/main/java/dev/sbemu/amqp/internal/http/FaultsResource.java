package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults;
import dev.sbemu.core.Namespace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@code /__admin/faults}: the served namespace's scripted faults: {@code GET} lists those scripted here, {@code POST}
 * scripts one ({@code failNext}, {@code failFraction}, {@code delayNext}, {@code delayNextInRealTime}), {@code DELETE}
 * clears them all, {@code DELETE /__admin/faults/<id>} cancels one.
 */
final class FaultsResource implements AdminResource {
    private final Supplier<Namespace> namespace;
    private final Map<Long, Scripted> scripts = new ConcurrentHashMap<>();

    /** A script made here, with what was asked for (listed with it, so a reader sees what each fault is). */
    private record Scripted(Faults.Script script, Map<String, Object> asked) {}

    /** The request fields a listed fault repeats. */
    private static final List<String> ASKED =
            List.of("action", "operation", "failure", "entity", "subscription", "count", "fraction", "seed", "delay");

    private final AtomicLong scriptIds = new AtomicLong();

    FaultsResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    /** Forgets the scripts listed here (a reset served a fresh namespace, without them). */
    void forgetScripts() {
        scripts.clear();
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        String method = request.method();
        String rest = request.rest();
        Faults faults = namespace.get().faults();
        if (rest.isEmpty()) {
            switch (method) {
                case "GET" -> {
                    List<Object> out = new ArrayList<>();
                    scripts.forEach((id, scripted) -> out.add(scriptJson(id, scripted)));
                    return AdminRoutes.Answer.ok(AdminRequest.obj("faults", out));
                }
                case "DELETE" -> {
                    faults.clear();
                    scripts.clear();
                    return AdminRoutes.Answer.ok(AdminRequest.obj("faults", List.of()));
                }
                case "POST" -> {
                    Map<String, Object> spec = request.json();
                    Faults.Target target = target(namespace.get(), faults, spec);
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
                                    intValue(spec, "count", 1),
                                    operation,
                                    AdminRequest.duration(spec.get("delay"), "delay"));
                        case "delayNextInRealTime" ->
                            target.delayNextInRealTime(
                                    intValue(spec, "count", 1),
                                    operation,
                                    AdminRequest.duration(spec.get("delay"), "delay"));
                        default ->
                            throw new IllegalArgumentException("Unknown fault action '" + action
                                    + "'; use failNext, failFraction, delayNext or delayNextInRealTime.");
                    };
                    long id = scriptIds.incrementAndGet();
                    Map<String, Object> asked = new LinkedHashMap<>();
                    for (String field : ASKED) {
                        if (spec.get(field) != null) {
                            asked.put(field, spec.get(field));
                        }
                    }
                    Scripted scripted = new Scripted(script, asked);
                    scripts.put(id, scripted);
                    return new AdminRoutes.Answer(201, JsonBodies.write(scriptJson(id, scripted)));
                }
                default ->
                    throw new AdminRoutes.Refusal(
                            405,
                            "MethodNotAllowed",
                            method + " is not allowed on /__admin/faults;" + " use GET, POST or DELETE.");
            }
        }
        request.require("DELETE");
        Scripted scripted;
        try {
            scripted = scripts.remove(Long.parseLong(rest));
        } catch (NumberFormatException e) {
            scripted = null;
        }
        if (scripted == null) {
            throw new AdminRoutes.Refusal(404, "NotFound", "No fault with id '" + rest + "'.");
        }
        scripted.script().cancel();
        return AdminRoutes.Answer.ok(AdminRequest.obj("cancelled", Long.parseLong(rest)));
    }

    private static Map<String, Object> scriptJson(long id, Scripted scripted) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("actedOn", scripted.script().actedOn());
        out.put("done", scripted.script().isDone());
        out.putAll(scripted.asked());
        return out;
    }

    /** The fault's target: any entity, or one that exists (404 otherwise, HTTP-4). */
    private static Faults.Target target(Namespace ns, Faults faults, Map<String, Object> spec) {
        Object entity = spec.get("entity");
        Object subscription = spec.get("subscription");
        if (entity == null) {
            if (subscription != null) {
                throw new IllegalArgumentException("'subscription' needs 'entity', its topic.");
            }
            return faults.onAnyEntity();
        }
        String name = entity.toString();
        if (subscription == null) {
            if (!ns.queueExists(name) && !ns.topicExists(name)) {
                throw new AdminRoutes.Refusal(404, "NotFound", "No queue or topic '" + name + "'.");
            }
            return faults.on(name);
        }
        if (!ns.subscriptionExists(name, subscription.toString())) {
            throw new AdminRoutes.Refusal(
                    404, "NotFound", "No subscription '" + subscription + "' on topic '" + name + "'.");
        }
        return faults.on(EntityPath.subscription(name, subscription.toString()));
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

    /** A whole number from 1 to 2,147,483,647 (400 otherwise, HTTP-4: {@code 1e30} or {@code 2.5} is no count). */
    private static int intValue(Map<String, Object> spec, String field, int absent) {
        if (spec.get(field) == null) {
            return absent;
        }
        double value = number(spec, field).doubleValue();
        if (value != Math.rint(value) || value < 1 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("'" + field + "' must be a whole number from 1 to " + Integer.MAX_VALUE
                    + ", was " + spec.get(field) + ".");
        }
        return (int) value;
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
}
