package dev.sbemu.amqp.internal;

import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/** A transactional delivery or request names a transaction this endpoint does not know. */
final class UnknownTransaction extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownTransaction() {
        super("The transaction is not known (ended already, or never declared here).", null, false, false);
    }

    ErrorCondition condition() {
        return new ErrorCondition(AmqpErrors.TRANSACTION_UNKNOWN, getMessage());
    }
}
