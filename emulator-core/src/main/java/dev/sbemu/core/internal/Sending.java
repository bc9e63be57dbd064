package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityStatus;

/** The send-side checks queues and topics share. */
final class Sending {
    private Sending() {
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
