package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/** The send-side checks queues and topics share. */
final class Sending {
    private Sending() {}

    /**
     * Validates and sizes messages for {@code entityName} (LIM-1: the entity's or the tier's size limit),
     * outside the namespace's lock but for reading the entity's limit. The size that counts is the message as
     * the client sent it (MSG-3); only then does a message without a message id get one (MSG-2).
     */
    static List<StoredMessage> prepare(EntityRegistry registry, String entityName, List<Message> messages) {
        Services services = registry.services;
        Long entityLimitKb =
                services.locked(() -> registry.sendTarget(entityName).maxMessageSizeInKilobytes());
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
        for (StoredMessage m : stored) {
            if (m.message.messageId() == null) {
                m.message = m.message.toBuilder().messageId(newMessageId()).build();
            }
        }
        return stored;
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * The message id the service gives a message sent without one (MSG-2): a new random (version 4) GUID as
     * 32 lower-case hex digits, without dashes. Drawn from {@link ThreadLocalRandom}, not {@code SecureRandom}:
     * an id needs to be unique, not unguessable, and a send must not queue on one shared generator.
     */
    static String newMessageId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        char[] digits = new char[32];
        for (int i = 0; i < 16; i++) {
            digits[i] = HEX[(int) (high >>> (60 - 4 * i)) & 0xF];
            digits[16 + i] = HEX[(int) (low >>> (60 - 4 * i)) & 0xF];
        }
        return new String(digits);
    }

    /**
     * Refuses {@code stored} when the entity would hold more than its {@code maxSizeInMegabytes} (RES-5), as the
     * service does: {@code QuotaExceeded}, nothing of the batch taken. Under the namespace's lock.
     */
    static void checkQuota(SendTarget target, List<StoredMessage> stored) {
        long incoming = 0;
        for (StoredMessage m : stored) {
            incoming += m.size;
        }
        long held = target.heldBytes();
        long max = target.maxSizeInBytes();
        if (held + incoming > max) {
            throw new BrokerException.QuotaExceeded("The maximum entity size has been reached or exceeded for "
                    + "'" + target.name() + "'. Size of entity in bytes:" + held + ", Max entity size in bytes:"
                    + max + ". Receive or purge messages, or raise its MaxSizeInMegabytes.");
        }
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
