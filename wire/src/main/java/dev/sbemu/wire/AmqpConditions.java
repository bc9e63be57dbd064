package dev.sbemu.wire;

import dev.sbemu.core.ErrorReason;

/**
 * The AMQP error condition the service sends for each broker refusal (docs/amqp.md, "Error
 * conditions"). The SDKs map these to their failure reasons and transience, so the in-process clients
 * (through the SDK's own {@code ExceptionUtil}) and the AMQP endpoint (on the wire) both use this one table.
 * Not a user API.
 */
public final class AmqpConditions {
    private AmqpConditions() {}

    /** The condition for {@code reason}, e.g. {@code amqp:not-found} for {@code ENTITY_NOT_FOUND}. */
    public static String of(ErrorReason reason) {
        return switch (reason) {
            case ENTITY_NOT_FOUND -> "amqp:not-found";
            case ENTITY_ALREADY_EXISTS -> "com.microsoft:entity-already-exists";
            case ENTITY_DISABLED -> "com.microsoft:entity-disabled";
            case MESSAGE_LOCK_LOST -> "com.microsoft:message-lock-lost";
            case MESSAGE_NOT_FOUND -> "com.microsoft:message-not-found";
            case MESSAGE_SIZE_EXCEEDED -> "amqp:link:message-size-exceeded";
            case QUOTA_EXCEEDED -> "amqp:resource-limit-exceeded";
            case SESSION_LOCK_LOST -> "com.microsoft:session-lock-lost";
            case SESSION_CANNOT_BE_LOCKED -> "com.microsoft:session-cannot-be-locked";
            case SERVICE_TIMEOUT -> "com.microsoft:timeout";
            case SERVICE_BUSY -> "com.microsoft:server-busy";
            case TRANSACTION_FAILED -> "amqp:transaction:rollback";
            case INVALID_OPERATION -> "amqp:not-allowed";
        };
    }
}
