package dev.sbemu.core.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Message ids seen within the detection window (DUP-1); each id is forgotten by a clock timer. */
final class DuplicateDetector {
    private final Services services;
    private final Map<String, Instant> seen = new HashMap<>();

    DuplicateDetector(Services services) {
        this.services = services;
    }

    /** DUP-1: the message id; on a partitioned entity with the partition key (or session id) too. */
    static String key(StoredMessage m, boolean partitioned) {
        String partitionKey = m.message.partitionKey() != null ? m.message.partitionKey() : m.message.sessionId();
        if (m.messageId() == null || !partitioned || partitionKey == null) {
            return m.messageId();
        }
        return m.messageId() + '\u0000' + partitionKey;
    }

    /** Records {@code id}; true when it was seen within {@code window} (the message is then dropped). */
    boolean isDuplicate(String id, Duration window) {
        if (id == null) {
            return false;
        }
        if (seen.containsKey(id)) {
            return true;
        }
        Instant now = services.now();
        seen.put(id, now);
        services.timers.schedule(now.plus(window), () -> seen.remove(id, now));
        return false;
    }

    void clear() {
        seen.clear();
    }
}
