package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.ReceivingLink;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.amqp.internal.transport.UnknownTransaction;
import dev.sbemu.core.Transaction;
import java.util.List;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.transaction.Declare;
import org.apache.qpid.proton.amqp.transaction.Declared;
import org.apache.qpid.proton.amqp.transaction.Discharge;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Receiver;

/**
 * The transaction coordinator (AMQP 1.0 transactions): {@code Declare} starts a namespace transaction and
 * answers {@code Declared} with its id; {@code Discharge} commits it, or rolls it back when {@code fail} is
 * set. A commit the broker refuses (a lock lost meanwhile, the transaction timed out) is answered Rejected
 * with the broker's error, and nothing of the transaction is applied. On rollback, the messages whose settlement
 * in the transaction the client had already settled on its side are handed back (JMS-8).
 */
final class CoordinatorLink extends ReceivingLink {
    private final ServedNamespace namespace;
    private final Transactions transactions;
    private final AmqpConnection connection;

    CoordinatorLink(
            ServedNamespace namespace, Transactions transactions, AmqpConnection connection, Receiver receiver) {
        super(receiver);
        this.namespace = namespace;
        this.transactions = transactions;
        this.connection = connection;
    }

    @Override
    protected DeliveryState accept(byte[] bytes, Delivery delivery) {
        Object body = Deliveries.decode(bytes).getBody() instanceof AmqpValue v ? v.getValue() : null;
        try {
            if (body instanceof Declare) {
                Declared declared = new Declared();
                // begun where an operation first joins it (TransactionRegistry): the connection may not have chosen
                // its namespace yet; it belongs to this connection, rolled back when it ends (RES-1)
                declared.setTxnId(transactions.registry().declare(connection));
                return declared;
            }
            if (body instanceof Discharge discharge) {
                return discharge(discharge.getTxnId(), Boolean.TRUE.equals(discharge.getFail()));
            }
            return AmqpErrors.rejected(new ErrorCondition(
                    AmqpErrors.NOT_IMPLEMENTED, "The coordinator takes Declare and Discharge only."));
        } catch (TransactionRegistry.TooManyTransactions e) {
            return AmqpErrors.rejected(e.condition());
        } catch (RuntimeException e) {
            return AmqpErrors.rejected(AmqpErrors.of(e));
        }
    }

    private DeliveryState discharge(Binary txnId, boolean fail) {
        TransactionRegistry registry = transactions.registry();
        if (!registry.isDeclared(txnId)) {
            throw new UnknownTransaction();
        }
        Transactions owner = registry.owner(txnId);
        Transaction transaction = owner == null ? null : owner.discharge(txnId);
        List<Runnable> onRollback = registry.rollbackActions(txnId);
        registry.forget(txnId);
        if (transaction == null) {
            // no operation joined it: nothing to commit or roll back
            if (fail) {
                for (Runnable action : onRollback) {
                    action.run();
                }
            }
            return Accepted.getInstance();
        }
        if (fail) {
            transaction.rollback();
            for (Runnable action : onRollback) {
                action.run();
            }
        } else {
            transaction.commit();
        }
        return Accepted.getInstance();
    }
}
