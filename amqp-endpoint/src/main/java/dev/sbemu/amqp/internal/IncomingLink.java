package dev.sbemu.amqp.internal;

import dev.sbemu.core.Message;
import dev.sbemu.core.Transaction;
import java.util.List;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.messaging.Rejected;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;

/**
 * A client's sender to a queue or topic: each delivery (one message, or a batch envelope) is sent to the
 * entity as one all-or-nothing send, in the delivery's transaction if it has one, and answered with
 * Accepted or Rejected with the broker's error. A message with a future scheduled enqueue time is
 * scheduled (SCH-1). Credit is topped up as deliveries arrive.
 */
final class IncomingLink implements AmqpConnection.LinkBound {
    static final int CREDIT = 500;

    private final EndpointContext context;
    private final Receiver receiver;
    private final String entity;

    IncomingLink(EndpointContext context, Receiver receiver, String entity) {
        this.context = context;
        this.receiver = receiver;
        this.entity = entity;
    }

    @Override
    public Link link() {
        return receiver;
    }

    @Override
    public void onDelivery(Delivery delivery) {
        byte[] bytes = Wire.read(receiver, delivery);
        if (bytes == null) {
            return;
        }
        DeliveryState outcome;
        DeliveryState remote = delivery.getRemoteState();
        TransactionalState transactional = remote instanceof TransactionalState t ? t : null;
        try {
            List<Message> messages = Wire.messages(bytes, delivery.getMessageFormat());
            if (transactional != null) {
                Transaction transaction = context.transaction(transactional.getTxnId());
                if (transaction == null) {
                    throw new TransactionUnknown();
                }
                transaction.send(entity, messages);
                TransactionalState done = new TransactionalState();
                done.setTxnId(transactional.getTxnId());
                done.setOutcome(Accepted.getInstance());
                outcome = done;
            } else {
                context.namespace().send(entity, messages);
                outcome = Accepted.getInstance();
            }
        } catch (TransactionUnknown e) {
            outcome = rejected(new ErrorCondition(AmqpErrors.TRANSACTION_UNKNOWN, "The transaction is not known."));
        } catch (RuntimeException e) {
            outcome = rejected(AmqpErrors.of(e));
        }
        if (!delivery.remotelySettled()) {
            delivery.disposition(outcome);
        }
        delivery.settle();
        topUp(receiver);
    }

    static Rejected rejected(ErrorCondition error) {
        Rejected rejected = new Rejected();
        rejected.setError(error);
        return rejected;
    }

    /** Keeps a receiving link's credit at {@link #CREDIT}, granting more once half is used. */
    static void topUp(Receiver receiver) {
        int credit = receiver.getCredit();
        if (credit < CREDIT / 2) {
            receiver.flow(CREDIT - credit);
        }
    }

    /** A transactional delivery names a transaction this endpoint does not know. */
    static final class TransactionUnknown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TransactionUnknown() {
            super("The transaction is not known.", null, false, false);
        }
    }
}
