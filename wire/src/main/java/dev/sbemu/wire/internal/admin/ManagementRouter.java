package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.Namespace;
import java.time.Instant;
import java.util.List;

/**
 * Dispatches management requests to the resource they address:
 * <ul>
 *   <li>{@code $namespaceinfo}</li>
 *   <li>{@code $Resources/queues}, {@code $Resources/topics}</li>
 *   <li>{@code <topic>/Subscriptions[/<sub>[/Rules[/<rule>]]]} (segment names case-insensitive)</li>
 *   <li>{@code <queue-or-topic>}, which may itself contain slashes</li>
 * </ul>
 * Every failure becomes an error response; nothing is thrown to the caller. Thread-safe: the state
 * lives in the namespace.
 */
public final class ManagementRouter {
    private static final String SUBSCRIPTIONS = "Subscriptions";
    private static final String RULES = "Rules";

    private final NamespaceResource namespaceInfo;
    private final EntityResource entities;
    private final SubscriptionResource subscriptions;
    private final RuleResource rules;

    /**
     * A router for {@code namespace}, addressed as {@code host}.
     *
     * @param apiVersion the api-version written into self links
     * @param createdAt reported as the namespace's creation time
     */
    public ManagementRouter(Namespace namespace, String host, String apiVersion, Instant createdAt) {
        Site site = new Site(namespace, host, apiVersion, createdAt, new ForwardAddresses());
        this.namespaceInfo = new NamespaceResource(site);
        this.entities = new EntityResource(site);
        this.subscriptions = new SubscriptionResource(site);
        this.rules = new RuleResource(site);
    }

    /** Answers a request; errors come back as the service's error responses. */
    public ManagementResponse handle(ManagementRequest request) {
        try {
            // HTTP-13: query parameters other than those read ($skip, $top) are ignored, as the service does
            return route(request);
        } catch (RuntimeException e) {
            return ErrorResponses.from(e);
        }
    }

    private ManagementResponse route(ManagementRequest r) {
        List<String> path = r.path();
        if (path.isEmpty() || path.stream().anyMatch(String::isEmpty)) {
            throw ManagementException.badRequest("The request path '/" + r.pathText() + "' names no entity.");
        }
        String first = path.get(0);
        if (path.size() == 1 && first.equalsIgnoreCase("$namespaceinfo")) {
            requireMethod(r, "GET");
            return namespaceInfo.get();
        }
        if (first.equalsIgnoreCase("$Resources")) {
            if (path.size() != 2) {
                throw ManagementException.notFound("Unknown resource '/" + r.pathText() + "'.");
            }
            requireMethod(r, "GET");
            return entities.list(path.get(1), Paging.of(r.query()));
        }
        int subs = indexOf(path, SUBSCRIPTIONS);
        if (subs < 0) {
            return entity(r, r.pathText());
        }
        String topic = String.join("/", path.subList(0, subs));
        List<String> rest = path.subList(subs + 1, path.size());
        if (rest.isEmpty()) {
            requireMethod(r, "GET");
            return subscriptions.list(topic, Paging.of(r.query()));
        }
        String sub = rest.get(0);
        if (rest.size() == 1) {
            return subscription(r, topic, sub);
        }
        if (!rest.get(1).equalsIgnoreCase(RULES) || rest.size() > 3) {
            throw ManagementException.notFound(
                    "Unknown resource '/" + r.pathText() + "'; below a subscription" + " there is only 'Rules'.");
        }
        if (rest.size() == 2) {
            requireMethod(r, "GET");
            return rules.list(topic, sub, Paging.of(r.query()));
        }
        return rule(r, topic, sub, rest.get(2));
    }

    private ManagementResponse entity(ManagementRequest r, String name) {
        return switch (r.method()) {
            case "GET" -> entities.get(name);
            case "PUT" -> entities.put(name, r.body(), isUpdate(r), r.host());
            case "DELETE" -> entities.delete(name);
            default -> throw methodNotAllowed(r, "GET, PUT, DELETE");
        };
    }

    private ManagementResponse subscription(ManagementRequest r, String topic, String sub) {
        return switch (r.method()) {
            case "GET" -> subscriptions.get(topic, sub);
            case "PUT" -> subscriptions.put(topic, sub, r.body(), isUpdate(r), r.host());
            case "DELETE" -> subscriptions.delete(topic, sub);
            default -> throw methodNotAllowed(r, "GET, PUT, DELETE");
        };
    }

    private ManagementResponse rule(ManagementRequest r, String topic, String sub, String rule) {
        return switch (r.method()) {
            case "GET" -> rules.get(topic, sub, rule);
            case "PUT" -> rules.put(topic, sub, rule, r.body(), isUpdate(r));
            case "DELETE" -> rules.delete(topic, sub, rule);
            default -> throw methodNotAllowed(r, "GET, PUT, DELETE");
        };
    }

    /** A PUT with {@code If-Match: *} updates; without it, it creates. */
    private static boolean isUpdate(ManagementRequest r) {
        if (r.ifMatch() == null) {
            return false;
        }
        if (!r.ifMatch().trim().equals("*")) {
            throw ManagementException.badRequest("If-Match '" + r.ifMatch() + "' is not supported; entities have no"
                    + " ETags, send If-Match: * to update.");
        }
        return true;
    }

    private static int indexOf(List<String> path, String segment) {
        for (int i = 1; i < path.size(); i++) {
            if (path.get(i).equalsIgnoreCase(segment)) {
                return i;
            }
        }
        return -1;
    }

    private static void requireMethod(ManagementRequest r, String method) {
        if (!r.method().equals(method)) {
            throw methodNotAllowed(r, method);
        }
    }

    private static ManagementException methodNotAllowed(ManagementRequest r, String allowed) {
        return new ManagementException(
                405, "Method " + r.method() + " is not allowed on '/" + r.pathText() + "'; allowed: " + allowed + ".");
    }
}
