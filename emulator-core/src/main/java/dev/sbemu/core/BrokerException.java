package dev.sbemu.core;

/**
 * An operation the broker refused, with the reason the real service would give. Each reason has its
 * own subtype, so callers (the SDK adapter) map them one to one.
 */
public abstract sealed class BrokerException extends RuntimeException
        permits BrokerException.EntityNotFound,
                BrokerException.EntityAlreadyExists,
                BrokerException.EntityDisabled,
                BrokerException.MessageLockLost,
                BrokerException.MessageNotFound,
                BrokerException.MessageSizeExceeded,
                BrokerException.QuotaExceeded,
                BrokerException.SessionLockLost,
                BrokerException.SessionCannotBeLocked,
                BrokerException.ServiceTimeout,
                BrokerException.ServiceBusy,
                BrokerException.InvalidOperation,
                BrokerException.TransactionFailed {

    private static final long serialVersionUID = 1L;
    private final ErrorReason reason;

    BrokerException(ErrorReason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** The reason, as the service reports it. */
    public ErrorReason reason() {
        return reason;
    }

    /** No entity of that name (LIM-3, ADI-1). */
    public static final class EntityNotFound extends BrokerException {
        private static final long serialVersionUID = 1L;

        public EntityNotFound(String entityPath) {
            super(ErrorReason.ENTITY_NOT_FOUND, "The messaging entity '" + entityPath + "' could not be found.");
        }
    }

    /** An entity of that name exists already (LIM-3). */
    public static final class EntityAlreadyExists extends BrokerException {
        private static final long serialVersionUID = 1L;

        public EntityAlreadyExists(String entityPath) {
            super(ErrorReason.ENTITY_ALREADY_EXISTS, "The messaging entity '" + entityPath + "' already exists.");
        }
    }

    /** The entity's status forbids the operation (LIM-3). */
    public static final class EntityDisabled extends BrokerException {
        private static final long serialVersionUID = 1L;

        public EntityDisabled(String entityPath, EntityStatus status, String operation) {
            super(
                    ErrorReason.ENTITY_DISABLED,
                    "The messaging entity '" + entityPath + "' is " + status + " and does not allow " + operation
                            + ".");
        }
    }

    /** The lock is gone: expired, or the message was settled already (DLQ-3). */
    public static final class MessageLockLost extends BrokerException {
        private static final long serialVersionUID = 1L;

        public MessageLockLost(String message) {
            super(ErrorReason.MESSAGE_LOCK_LOST, message);
        }
    }

    /** No such message (scheduled message to cancel, deferred message to fetch). */
    public static final class MessageNotFound extends BrokerException {
        private static final long serialVersionUID = 1L;

        public MessageNotFound(String message) {
            super(ErrorReason.MESSAGE_NOT_FOUND, message);
        }
    }

    /** The message is larger than the tier allows (LIM-1). */
    public static final class MessageSizeExceeded extends BrokerException {
        private static final long serialVersionUID = 1L;

        public MessageSizeExceeded(int size, int limit) {
            super(
                    ErrorReason.MESSAGE_SIZE_EXCEEDED,
                    "The received message (size " + size + " bytes) exceeds the limit (" + limit
                            + " bytes) currently allowed on the link.");
        }

        /** A part of the message (a property, the headers) over its own limit. */
        public MessageSizeExceeded(String message) {
            super(ErrorReason.MESSAGE_SIZE_EXCEEDED, message);
        }
    }

    /** The entity is full (maxSizeInMegabytes) or a transaction holds too many messages. */
    public static final class QuotaExceeded extends BrokerException {
        private static final long serialVersionUID = 1L;

        public QuotaExceeded(String message) {
            super(ErrorReason.QUOTA_EXCEEDED, message);
        }
    }

    /** The session lock expired or the session was released (SES-3). */
    public static final class SessionLockLost extends BrokerException {
        private static final long serialVersionUID = 1L;

        public SessionLockLost(String message) {
            super(ErrorReason.SESSION_LOCK_LOST, message);
        }
    }

    /** Another receiver holds the session (SES-2). */
    public static final class SessionCannotBeLocked extends BrokerException {
        private static final long serialVersionUID = 1L;

        public SessionCannotBeLocked(String message) {
            super(ErrorReason.SESSION_CANNOT_BE_LOCKED, message);
        }
    }

    /** Nothing arrived within the wait (SES-2: no session available). */
    public static final class ServiceTimeout extends BrokerException {
        private static final long serialVersionUID = 1L;

        public ServiceTimeout(String message) {
            super(ErrorReason.SERVICE_TIMEOUT, message);
        }
    }

    /** The service is throttling the entity; only injected by {@link Faults} (the emulator never throttles). */
    public static final class ServiceBusy extends BrokerException {
        private static final long serialVersionUID = 1L;

        public ServiceBusy(String message) {
            super(ErrorReason.SERVICE_BUSY, message);
        }
    }

    /** The transaction timed out, or was committed or rolled back already (TXN-1). */
    public static final class TransactionFailed extends BrokerException {
        private static final long serialVersionUID = 1L;

        public TransactionFailed(String message) {
            super(ErrorReason.TRANSACTION_FAILED, message);
        }
    }

    /** The operation is not allowed on this entity (SES-1, SES-5, FWD-4). */
    public static final class InvalidOperation extends BrokerException {
        private static final long serialVersionUID = 1L;

        public InvalidOperation(String message) {
            super(ErrorReason.INVALID_OPERATION, message);
        }
    }
}
