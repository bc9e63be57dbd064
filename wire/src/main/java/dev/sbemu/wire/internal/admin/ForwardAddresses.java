package dev.sbemu.wire.internal.admin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The forwarding targets of a namespace's entities in the form a client set them ({@code sb://host:port/q},
 * {@code https://host/q}), so that an entity reports its target as it was given, as the service does (FWD-5: the
 * Go SDK's tests compare what they read with what they wrote). The core keeps the entity names; this keeps only
 * the spelling. Bounded (least recently used first out): a forgotten spelling falls back to
 * {@code https://<host>/<name>}, the same target. Thread-safe.
 */
final class ForwardAddresses {
    private static final int CAPACITY = 10_000;

    private final Map<String, String> given = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > CAPACITY;
        }
    };

    /** The spelling of {@code element} of entity {@code path}, or null. */
    synchronized String get(String path, String element) {
        return given.get(key(path, element));
    }

    /** Records the spelling, or forgets it for null (a plain name or no target). */
    synchronized void put(String path, String element, String url) {
        if (url == null) {
            given.remove(key(path, element));
        } else {
            given.put(key(path, element), url);
        }
    }

    /** Forgets what an entity and, for a topic, its subscriptions were given (it was deleted). */
    synchronized void forget(String path) {
        String own = path + "|";
        String subscriptions = path + "/Subscriptions/";
        given.keySet().removeIf(key -> key.startsWith(own) || key.startsWith(subscriptions));
    }

    private static String key(String path, String element) {
        return path + "|" + element;
    }
}
