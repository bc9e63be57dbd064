package dev.sbemu.core;

/** Why the broker refused an operation; one {@link BrokerException} subtype per reason. */
public enum ErrorReason {
    ENTITY_NOT_FOUND,
    ENTITY_ALREADY_EXISTS,
    ENTITY_DISABLED,
    MESSAGE_LOCK_LOST,
    MESSAGE_NOT_FOUND,
    MESSAGE_SIZE_EXCEEDED,
    QUOTA_EXCEEDED,
    SESSION_LOCK_LOST,
    SESSION_CANNOT_BE_LOCKED,
    SERVICE_TIMEOUT,
    /** The service is throttling the entity (the service's {@code ServerBusyException}); transient. */
    SERVICE_BUSY,
    /** The transaction timed out or was already committed or rolled back (TXN-1). */
    TRANSACTION_FAILED,
    /** The operation is not allowed on this entity (the service's {@code InvalidOperationException}). */
    INVALID_OPERATION
}
