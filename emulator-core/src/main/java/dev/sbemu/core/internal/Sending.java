package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The send-side checks queues and topics share. */
final class Sending {
    private Sending() {
    }

    /**
     * Validates and sizes messages for {@code entityName} (LIM-1: the entity's or the tier's size limit),
     * outside the namespace's lock but for reading the entity's limit.
     */
    static List<StoredMessage> prepare(EntityRegistry registry, String entityName, List<Message> messages) {
        Services services = registry.services;
        Long entityLimitKb = services.locked(() -> registry.sendTarget(entityName).maxMessageSizeInKilobytes());
        int limit = entityLimitKb == null ? services.tier.defaultMaxMessageSizeBytes() : (int) (entityLimitKb * 1024);
        List<StoredMessage> stored = new ArrayList<>(messages.size());
        long total = 0;
        for (Message message : messages) {
            Objects.requireNonNull(message, "message");
            Validation.message(message);
            StoredMessage m = new StoredMessage(message);
            if (m.size > limit) {
                throw new BrokerException.MessageSizeExceeded(m.size, limit);
            }
            total += m.size;
            stored.add(m);
        }
        if (total > limit) {
            throw new BrokerException.MessageSizeExceeded((int) Math.min(total, Integer.MAX_VALUE), limit);
        }
        return stored;
    }

    static void checkStatus(String entity, EntityStatus status) {
        if (status == EntityStatus.DISABLED || status == EntityStatus.SEND_DISABLED) {
            throw new BrokerException.EntityDisabled(entity, status, "send");
        }
    }

    /** SES-1: a session-enabled queue refuses messages without a session id. */
    static void checkSession(String entity, boolean requiresSession, StoredMessage m) {
        if (requiresSession && m.message.sessionId() == null) {
            throw new BrokerException.InvalidOperation("The SessionId was not set on a message, and it cannot be "
                    + "sent to the entity. Entities that have session support enabled can only receive messages "
                    + "that have the SessionId set to a valid value. Entity: '" + entity + "'.");
        }
    }
}
