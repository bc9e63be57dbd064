package dev.sbemu.amqp.internal.transport;

import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/** A transactional delivery or request names a transaction this endpoint does not know. */
public final class UnknownTransaction extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnknownTransaction() {
        super("The transaction is not known (ended already, or never declared here).", null, false, false);
    }

    public ErrorCondition condition() {
        return new ErrorCondition(AmqpErrors.TRANSACTION_UNKNOWN, getMessage());
    }
}
