package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.link.TransactionScope;
import dev.sbemu.amqp.internal.transport.UnknownTransaction;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Transaction;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;

/**
 * One namespace's transactions: those an operation of one of its links joined. The ids are the endpoint's ({@link
 * TransactionRegistry}): a transaction declared on one connection can be used and discharged on another, and it is
 * begun in a namespace when an operation first joins it ({@link #target}). Each belongs to the connection that
 * declared it (RES-1, kept by the registry): rolled back when that connection ends ({@link #rollBack}). Those of a
 * namespace end when it is replaced or reset ({@link #endAll}) or the endpoint closes; a transaction only declared goes
 * on (a JMS transacted session always holds one, AMQP-16). Any thread.
 */
public final class Transactions implements TransactionScope {
    private final ServedNamespace namespace;
    private final TransactionRegistry registry;
    private final Map<Binary, Transaction> transactions = new ConcurrentHashMap<>();

    /** One namespace's transactions with a registry of its own (a namespace alone on its endpoint). */
    public Transactions(ServedNamespace namespace, int maxPerConnection) {
        this(namespace, new TransactionRegistry(maxPerConnection));
    }

    public Transactions(ServedNamespace namespace, TransactionRegistry registry) {
        this.namespace = namespace;
        this.registry = registry;
    }

    TransactionRegistry registry() {
        return registry;
    }

    /** How many transactions this namespace holds open, for tests and the health of the heap. */
    public int open() {
        return transactions.size();
    }

    /**
     * Rolls back the transaction {@code id} this namespace began, if any (its declaring connection ended, RES-1); the
     * registry forgets the id.
     */
    void rollBack(Binary id) {
        Transaction t = transactions.remove(id);
        try {
            if (t != null) {
                t.rollback();
            }
        } catch (RuntimeException ignored) {
            // ended already
        }
    }

    @Override
    public MessageOperations target(DeliveryState state) {
        if (!(state instanceof TransactionalState transactional)) {
            return namespace.get();
        }
        Binary id = transactional.getTxnId();
        Transaction transaction = id == null ? null : transactions.get(id);
        if (transaction != null) {
            return transaction;
        }
        if (!registry.claim(id, this)) {
            throw new UnknownTransaction();
        }
        // the first operation to join it: begun in this namespace
        return transactions.computeIfAbsent(id, k -> namespace.get().beginTransaction());
    }

    /** Removes the transaction {@code txnId} this namespace began, or returns null when it began none of that id. */
    Transaction discharge(Binary txnId) {
        return txnId == null ? null : transactions.remove(txnId);
    }

    /**
     * Runs {@code action} if the transaction {@code state} joins is rolled back: a settlement the client settled on
     * its side (Qpid JMS's transacted acknowledgements) cannot be settled again, so its message is handed back on
     * rollback (JMS-8). Nothing for a state outside a transaction.
     */
    @Override
    public void onRollback(DeliveryState state, Runnable action) {
        if (state instanceof TransactionalState transactional) {
            registry.onRollback(transactional.getTxnId(), action);
        }
    }

    /**
     * Rolls back the transactions an operation of this namespace joined (the namespace is replaced or reset, or the
     * endpoint closes); a transaction only declared is pending in no namespace and goes on (AMQP-16).
     */
    public void endAll() {
        for (Binary id : List.copyOf(transactions.keySet())) {
            Transaction t = transactions.remove(id);
            registry.rollbackActions(id);
            registry.forget(id);
            try {
                if (t != null) {
                    t.rollback();
                }
            } catch (RuntimeException ignored) {
                // ended already
            }
        }
    }

    /** As {@link #endAll()}: {@code next} is no longer needed, a declared transaction is begun where it is joined. */
    public void endAll(Namespace next) {
        endAll();
    }
}
