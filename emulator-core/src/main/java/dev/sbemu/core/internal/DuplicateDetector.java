package dev.sbemu.core.internal;

import dev.sbemu.core.PendingTimer.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Message ids seen within the detection window (DUP-1); each id is forgotten by a clock timer. */
final class DuplicateDetector {
    private final Services services;
    private final String entity;
    private final Map<String, Instant> seen = new HashMap<>();

    DuplicateDetector(Services services, String entity) {
        this.services = services;
        this.entity = entity;
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
        int partitionKey = id.indexOf('\u0000');
        String messageId = partitionKey < 0 ? id : id.substring(0, partitionKey);
        services.timers.schedule(
                now.plus(window),
                new TimerQueue.Label(Kind.DUPLICATE_WINDOW_END, entity, -1, messageId, ""),
                () -> seen.remove(id, now));
        return false;
    }

    void clear() {
        seen.clear();
    }
}
