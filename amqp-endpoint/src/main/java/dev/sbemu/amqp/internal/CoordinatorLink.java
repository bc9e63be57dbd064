package dev.sbemu.amqp.internal;

import dev.sbemu.core.Transaction;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.transaction.Declare;
import org.apache.qpid.proton.amqp.transaction.Declared;
import org.apache.qpid.proton.amqp.transaction.Discharge;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;

/**
 * The transaction coordinator (AMQP 1.0 transactions): {@code Declare} starts a namespace transaction and
 * answers {@code Declared} with its id; {@code Discharge} commits it, or rolls it back when {@code fail} is
 * set. A commit the broker refuses (a lock lost meanwhile, the transaction timed out) is answered Rejected
 * with the broker's error, and nothing of the transaction is applied.
 */
final class CoordinatorLink implements AmqpConnection.LinkBound {
    private final EndpointContext context;
    private final Receiver receiver;

    CoordinatorLink(EndpointContext context, Receiver receiver) {
        this.context = context;
        this.receiver = receiver;
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
        Object body = Wire.decode(bytes).getBody() instanceof AmqpValue v ? v.getValue() : null;
        DeliveryState outcome;
        try {
            if (body instanceof Declare) {
                Declared declared = new Declared();
                declared.setTxnId(context.declare(context.namespace().beginTransaction()));
                outcome = declared;
            } else if (body instanceof Discharge discharge) {
                outcome = discharge(discharge.getTxnId(), Boolean.TRUE.equals(discharge.getFail()));
            } else {
                outcome = IncomingLink.rejected(new ErrorCondition(AmqpErrors.NOT_IMPLEMENTED,
                        "The coordinator takes Declare and Discharge only."));
            }
        } catch (RuntimeException e) {
            outcome = IncomingLink.rejected(AmqpErrors.of(e));
        }
        if (!delivery.remotelySettled()) {
            delivery.disposition(outcome);
        }
        delivery.settle();
        IncomingLink.topUp(receiver);
    }

    private DeliveryState discharge(Binary txnId, boolean fail) {
        Transaction transaction = context.discharge(txnId);
        if (transaction == null) {
            return IncomingLink.rejected(new ErrorCondition(AmqpErrors.TRANSACTION_UNKNOWN,
                    "The transaction is not known (ended already, or never declared here)."));
        }
        if (fail) {
            transaction.rollback();
        } else {
            transaction.commit();
        }
        return Accepted.getInstance();
    }
}
