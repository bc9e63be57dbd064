package dev.sbemu.amqp.internal.http;

import dev.sbemu.amqp.internal.transport.Traffic;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Namespace;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The control API under {@code /__admin/} (docs/admin-openapi.json, served at {@code /__admin/openapi.json}) as a route
 * table: the first path segment names the resource, one handler each: {@code clock}, {@code journal}, {@code reset},
 * {@code faults}, {@code messages}, {@code entities}, {@code sessions}, {@code connections}, {@code console} (the page),
 * {@code openapi.json}. Answers are JSON; every failure is a JSON {@code {"error":
 * ..., "message": ...}} with a 4xx status; nothing throws to the HTTP server. Any HTTP thread.
 */
public final class AdminRoutes {
    /** An answer: JSON unless another content type is named (the console's files). */
    record Answer(int status, String json, String contentType) {
        static final String JSON = "application/json; charset=utf-8";

        Answer(int status, String json) {
            this(status, json, JSON);
        }

        static Answer ok(Object value) {
            return new Answer(200, JsonBodies.write(value));
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

    private final Map<String, AdminResource> routes = new LinkedHashMap<>();

    /**
     * @param namespace the namespace served now
     * @param reset puts a fresh namespace in place of the current one
     * @param traffic the namespace's open connections and links now
     */
    public AdminRoutes(Supplier<Namespace> namespace, Runnable reset, Supplier<Traffic> traffic) {
        FaultsResource faults = new FaultsResource(namespace);
        routes.put("openapi.json", new OpenApiResource());
        routes.put("clock", new ClockResource(namespace));
        routes.put("journal", new JournalResource(namespace));
        routes.put("reset", new ResetResource(namespace, () -> {
            reset.run();
            faults.forgetScripts();
        }));
        routes.put("faults", faults);
        routes.put("messages", new MessagesResource(namespace));
        routes.put("entities", new EntitiesResource(namespace));
        routes.put("sessions", new SessionsResource(namespace));
        routes.put("connections", new ConnectionsResource(traffic));
        routes.put("console", new ConsoleResource());
    }

    /** Answers a request to {@code /__admin/<path>}. */
    Answer handle(String method, List<String> path, Map<String, String> query, String body) {
        try {
            String first = path.isEmpty() ? "" : path.get(0).toLowerCase(Locale.ROOT);
            String rest = String.join("/", path.subList(Math.min(1, path.size()), path.size()))
                    .toLowerCase(Locale.ROOT);
            AdminRequest request = new AdminRequest(method, path, rest, query, body);
            AdminResource resource = routes.get(first);
            if (resource == null) {
                throw request.notFound();
            }
            return resource.handle(request);
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
        return new Answer(status, JsonBodies.write(out));
    }
}
