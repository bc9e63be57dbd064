package dev.sbemu.wire.internal.admin;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One management request, independent of the HTTP stack that carried it.
 *
 * @param method the HTTP method, upper case
 * @param path the decoded path segments ({@code ["orders"]}, {@code ["t", "Subscriptions", "s"]})
 * @param query the decoded query parameters
 * @param ifMatch the {@code If-Match} header, or null
 * @param body the request body, or null
 * @param host the authority the client addressed ({@code Host} header, {@code localhost:5300}), or null when unknown
 */
public record ManagementRequest(
        String method, List<String> path, Map<String, String> query, String ifMatch, String body, String host) {

    public ManagementRequest {
        Objects.requireNonNull(method, "method");
        path = List.copyOf(path);
        query = Map.copyOf(query);
    }

    /** A request whose addressed host is not known. */
    public ManagementRequest(String method, List<String> path, Map<String, String> query, String ifMatch, String body) {
        this(method, path, query, ifMatch, body, null);
    }

    /** The path as one string, without a leading slash. */
    String pathText() {
        return String.join("/", path);
    }
}
