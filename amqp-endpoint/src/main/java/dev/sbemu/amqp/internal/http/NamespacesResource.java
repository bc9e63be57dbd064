package dev.sbemu.amqp.internal.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /__admin/namespaces}: {@code GET} lists the namespaces, {@code POST} creates one ({@code {"name": ...}} and
 * optional settings) and answers 201 with its connection string; {@code GET /__admin/namespaces/{name}} describes one,
 * {@code DELETE} deletes it; {@code /__admin/namespaces/{name}/<route>} is that namespace's control route (spec NS-5,
 * NS-6).
 */
final class NamespacesResource {
    private final ServedNamespaces namespaces;

    NamespacesResource(ServedNamespaces namespaces) {
        this.namespaces = namespaces;
    }

    /** Answers {@code /__admin/namespaces/<path>}; {@code host} is the request's Host header. */
    AdminRoutes.Answer handle(String method, List<String> path, Map<String, String> query, String body, String host) {
        try {
            if (path.isEmpty()) {
                return switch (method) {
                    case "GET" -> AdminRoutes.Answer.ok(Map.of("namespaces", namespaces.list(host)));
                    case "POST" -> create(body, host);
                    default ->
                        AdminRoutes.error(
                                405,
                                "MethodNotAllowed",
                                method + " is not allowed on /__admin/namespaces; use GET or POST.");
                };
            }
            String name = path.get(0);
            if (path.size() == 1) {
                switch (method) {
                    case "GET" -> {
                        Map<String, Object> one = namespaces.describe(name, host);
                        return one == null ? unknown(name) : AdminRoutes.Answer.ok(one);
                    }
                    case "DELETE" -> {
                        return namespaces.delete(name)
                                ? AdminRoutes.Answer.ok(AdminRequest.obj("status", "deleted", "name", name))
                                : unknown(name);
                    }
                    default -> {
                        return AdminRoutes.error(
                                405,
                                "MethodNotAllowed",
                                method + " is not allowed on /__admin/namespaces/" + name + "; use GET or DELETE.");
                    }
                }
            }
            AdminRoutes admin = namespaces.admin(name);
            return admin == null ? unknown(name) : admin.handle(method, path.subList(1, path.size()), query, body);
        } catch (IllegalStateException e) {
            return AdminRoutes.error(409, "Conflict", e.getMessage());
        } catch (IllegalArgumentException e) {
            return AdminRoutes.error(400, "BadRequest", e.getMessage());
        }
    }

    private AdminRoutes.Answer create(String body, String host) {
        Map<String, Object> json = JsonBodies.readObject(body);
        if (!(json.get("name") instanceof String name)) {
            throw new IllegalArgumentException("'name' must be a string such as \"team-a\".");
        }
        if (!namespaces.create(name, json)) {
            return AdminRoutes.error(409, "NamespaceExists", "A namespace named '" + name + "' exists already.");
        }
        return new AdminRoutes.Answer(201, JsonBodies.write(new LinkedHashMap<>(namespaces.describe(name, host))));
    }

    private static AdminRoutes.Answer unknown(String name) {
        return AdminRoutes.error(
                404, "NamespaceNotFound", "No namespace named '" + name + "'; GET /__admin/namespaces lists them.");
    }
}
