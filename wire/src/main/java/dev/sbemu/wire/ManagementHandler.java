package dev.sbemu.wire;

import dev.sbemu.core.Namespace;
import dev.sbemu.wire.internal.admin.ManagementHttpClient;
import dev.sbemu.wire.internal.admin.ManagementResponse;
import dev.sbemu.wire.internal.admin.ManagementRouter;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The service's management REST API (ATOM/XML) for one {@link Namespace}, for a server that carries it over a
 * network: the same handler {@link InProcessAdministration} answers the in-process administration client with, so
 * both ways in create, list and describe entities identically. It takes a request's parts as they came over
 * HTTP and answers with the status, media type and body the service would; it never throws for a bad request
 * (errors are the service's {@code <Error>} bodies). Authorization is the caller's. Thread-safe.
 */
public final class ManagementHandler {
    private static final String API_VERSION = "2021-05";

    private final ManagementRouter router;

    private ManagementHandler(ManagementRouter router) {
        this.router = router;
    }

    /**
     * A handler for {@code namespace}.
     *
     * @param host how the namespace is addressed in the answers' self links, e.g. {@code 127.0.0.1:5672}
     */
    public static ManagementHandler of(Namespace namespace, String host) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(host, "host");
        return new ManagementHandler(new ManagementRouter(
                namespace, host, API_VERSION, namespace.clock().instant()));
    }

    /**
     * The decoded segments of a request's raw (percent-encoded) path, as this handler reads them: split at '/'
     * ({@code %2F} stays inside its segment, a '+' stays a '+'), one leading and one trailing '/' dropped. For the
     * endpoint's other HTTP routes, so that a path is read one way.
     */
    public static List<String> pathSegments(String rawPath) {
        return ManagementHttpClient.segments(rawPath);
    }

    /** The decoded parameters of a request's raw query, in their order (a name without '=' has the value ""). */
    public static Map<String, String> queryParameters(String rawQuery) {
        return ManagementHttpClient.query(rawQuery);
    }

    /**
     * Answers one request.
     *
     * @param method the HTTP method, e.g. {@code PUT}
     * @param rawPath the request path as sent (percent-encoded), e.g. {@code /orders}
     * @param rawQuery the query as sent (percent-encoded), or null
     * @param ifMatch the {@code If-Match} header, or null
     * @param body the request body as text, or null
     */
    public Response handle(String method, String rawPath, String rawQuery, String ifMatch, String body) {
        return handle(method, rawPath, rawQuery, ifMatch, body, null);
    }

    /**
     * Answers one request that came with a {@code Host} header: a forwarding target given as a URL may name the
     * namespace by that host, with or without its port.
     *
     * @param host the request's {@code Host} header, or null
     */
    public Response handle(String method, String rawPath, String rawQuery, String ifMatch, String body, String host) {
        ManagementResponse answer = router.handle(ManagementHttpClient.toManagementRequest(
                Objects.requireNonNull(method, "method"), rawPath, rawQuery, ifMatch, body, host));
        return new Response(answer.status(), answer.contentType(), answer.body());
    }

    /**
     * A management answer.
     *
     * @param status the HTTP status
     * @param contentType the body's media type, or null when there is no body
     * @param body the body, empty when there is none
     */
    public record Response(int status, String contentType, String body) {}
}
