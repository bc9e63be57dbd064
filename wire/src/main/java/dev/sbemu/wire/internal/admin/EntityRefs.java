package dev.sbemu.wire.internal.admin;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Forwarding targets as the protocol carries them. Clients send {@code https://<namespace>/<entity>} or
 * {@code sb://<namespace>/<entity>} (the Java SDK turns a plain name into the first, the Python SDK into the second,
 * the Go SDK's tests send either with the port of their endpoint) and the service reports the URL back; the core
 * knows plain entity names.
 *
 * <p>The namespace a target belongs to is the request's, chosen by its key name (NS-2): a URL's host cannot choose
 * another one (NS-4). Its host is compared, without its port, with the names the request reached this namespace
 * by: the namespace's own host and the request's {@code Host} header, since a client behind a mapped port or a
 * container's host name addresses the server by a name it does not know (FWD-5).
 */
final class EntityRefs {
    private static final List<String> ELEMENTS = List.of("ForwardTo", "ForwardDeadLetteredMessagesTo");
    private static final int MAX_SPELLING = 1024;

    private final String host;
    private final String requestHost;
    private final ForwardAddresses addresses;
    private final String entity;
    private final Map<String, String> read = new HashMap<>();

    /**
     * @param host the namespace's host as reported ({@code 127.0.0.1:5300}, {@code sbemu.servicebus.windows.net})
     * @param requestHost the request's {@code Host} header, or null
     * @param addresses the namespace's targets as they were given
     * @param entity the path of the entity whose description is read or written ({@code t/Subscriptions/s})
     */
    EntityRefs(String host, String requestHost, ForwardAddresses addresses, String entity) {
        this.host = host;
        this.requestHost = requestHost;
        this.addresses = addresses;
        this.entity = entity;
    }

    /** The entity name a reference points at; null for an absent or empty reference. */
    String name(String element, String reference) {
        if (reference == null || reference.isBlank()) {
            return null;
        }
        String ref = reference.trim();
        if (!ref.contains("://")) {
            return stripSlashes(ref);
        }
        read.put(element, ref);
        try {
            URI uri = new URI(ref);
            if (uri.getHost() == null || !(sameHost(uri.getHost(), host) || sameHost(uri.getHost(), requestHost))) {
                throw ManagementException.badRequest("The value '" + reference + "' of " + element
                        + " points outside this namespace (" + (requestHost == null ? host : requestHost)
                        + "); only entities of the same namespace can be forwarded to.");
            }
            String name = stripSlashes(uri.getPath() == null ? "" : uri.getPath());
            if (name.isEmpty()) {
                throw ManagementException.badRequest(
                        "The value '" + reference + "' of " + element + " names no entity.");
            }
            return name;
        } catch (URISyntaxException e) {
            throw ManagementException.badRequest(
                    "The value '" + reference + "' of " + element + " is not an entity name or URL.");
        }
    }

    /**
     * Keeps the spelling of the targets read, once the description they came in was stored; one longer than {@value
     * #MAX_SPELLING} characters (a host name can be long) is reported in the namespace's form instead, so that the
     * memory stays bounded.
     */
    void remember() {
        for (String element : ELEMENTS) {
            String given = read.get(element);
            addresses.put(entity, element, given != null && given.length() <= MAX_SPELLING ? given : null);
        }
    }

    /**
     * The URL the service reports for {@code element}'s target {@code name}: as the client gave it when it still
     * names that entity, else {@code https://<host>/<name>}; null for null.
     */
    String url(String element, String name) {
        if (name == null) {
            return null;
        }
        String given = addresses.get(entity, element);
        if (given != null && name.equals(pathOf(given))) {
            return given;
        }
        return "https://" + host + "/" + name;
    }

    private static String pathOf(String url) {
        try {
            URI uri = new URI(url);
            return uri.getPath() == null ? null : stripSlashes(uri.getPath());
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** Whether a URL's host names {@code authority} ({@code host[:port]}, or null), its port aside. */
    private static boolean sameHost(String urlHost, String authority) {
        if (authority == null || authority.isBlank()) {
            return false;
        }
        String name = authority.trim();
        if (name.startsWith("[")) {
            int close = name.indexOf(']');
            // URI.getHost keeps an IPv6 literal's brackets
            name = close < 0 ? name : name.substring(0, close + 1);
        } else {
            int colon = name.lastIndexOf(':');
            name = colon < 0 ? name : name.substring(0, colon);
        }
        return urlHost.equalsIgnoreCase(name);
    }

    private static String stripSlashes(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && s.charAt(from) == '/') {
            from++;
        }
        while (to > from && s.charAt(to - 1) == '/') {
            to--;
        }
        return s.substring(from, to);
    }
}
