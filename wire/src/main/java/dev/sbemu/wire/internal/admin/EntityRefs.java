package dev.sbemu.wire.internal.admin;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Forwarding targets as the protocol carries them. Clients send {@code https://<namespace>/<entity>}
 * (the Java SDK turns a plain name into that URL) and the service reports the URL back; the core
 * knows plain entity names.
 */
final class EntityRefs {
    private final String host;

    EntityRefs(String host) {
        this.host = host;
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
        try {
            URI uri = new URI(ref);
            if (uri.getHost() == null || !uri.getHost().equalsIgnoreCase(host)) {
                throw ManagementException.badRequest("The value '" + reference + "' of " + element
                        + " points outside this namespace (" + host + "); only entities of the same namespace"
                        + " can be forwarded to.");
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

    /** The URL the service reports for an entity name; null for null. */
    String url(String name) {
        return name == null ? null : "https://" + host + "/" + name;
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
