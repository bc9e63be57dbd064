package dev.sbemu.amqp.internal.link;

import dev.sbemu.core.MessageOperations;
import org.apache.qpid.proton.amqp.transport.DeliveryState;

/**
 * Where a link's operation takes effect, by its delivery's state: in the transaction the state joins, or at once in
 * the served namespace. The coordinator's transactions implement it ({@code node.Transactions}); links see only this.
 */
public interface TransactionScope {
    /**
     * The transaction {@code state} joins, or the namespace at once for a state outside a transaction.
     *
     * @throws dev.sbemu.amqp.internal.transport.UnknownTransaction when the state names a transaction that is not held
     */
    MessageOperations target(DeliveryState state);

    /**
     * Runs {@code action} if the transaction {@code state} joins is rolled back (a settlement the client settled on
     * its side cannot be settled again, JMS-8). Nothing for a state outside a transaction.
     */
    void onRollback(DeliveryState state, Runnable action);
}
