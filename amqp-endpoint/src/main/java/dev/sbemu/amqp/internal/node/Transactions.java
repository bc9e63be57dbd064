package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.link.TransactionScope;
import dev.sbemu.amqp.internal.transport.UnknownTransaction;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Transaction;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;

/**
 * The transactions the coordinator declared, and the actions to run if one is rolled back. They belong to the
 * endpoint, not to a connection: a transaction declared on one connection can be used and discharged on another, and
 * they all end when the served namespace is replaced ({@link #endAll}) or the endpoint closes. Any thread.
 */
public final class Transactions implements TransactionScope {
    private final ServedNamespace namespace;
    private final Map<Binary, Transaction> transactions = new ConcurrentHashMap<>();
    private final Map<Binary, List<Runnable>> rollbackActions = new ConcurrentHashMap<>();
    /** The transactions an operation joined (a declared transaction without one carries over, AMQP-16). */
    private final Set<Binary> used = ConcurrentHashMap.newKeySet();

    public Transactions(ServedNamespace namespace) {
        this.namespace = namespace;
    }

    /** Registers a new transaction; its id is the 16 bytes of its UUID. */
    Binary declare(Transaction transaction) {
        UUID id = transaction.id();
        Binary txnId = new Binary(ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array());
        transactions.put(txnId, transaction);
        return txnId;
    }

    @Override
    public MessageOperations target(DeliveryState state) {
        if (!(state instanceof TransactionalState transactional)) {
            return namespace.get();
        }
        Transaction transaction = transactional.getTxnId() == null ? null : transactions.get(transactional.getTxnId());
        if (transaction == null) {
            throw new UnknownTransaction();
        }
        used.add(transactional.getTxnId());
        return transaction;
    }

    Transaction discharge(Binary txnId) {
        if (txnId == null) {
            return null;
        }
        used.remove(txnId);
        return transactions.remove(txnId);
    }

    /**
     * Runs {@code action} if the transaction {@code state} joins is rolled back: a settlement the client settled on
     * its side (Qpid JMS's transacted acknowledgements) cannot be settled again, so its message is handed back on
     * rollback (JMS-8). Nothing for a state outside a transaction.
     */
    @Override
    public void onRollback(DeliveryState state, Runnable action) {
        if (state instanceof TransactionalState transactional
                && transactional.getTxnId() != null
                && transactions.containsKey(transactional.getTxnId())) {
            rollbackActions
                    .computeIfAbsent(transactional.getTxnId(), id -> new CopyOnWriteArrayList<>())
                    .add(action);
        }
    }

    /** Removes and returns the actions to run if the transaction {@code txnId} is rolled back. */
    List<Runnable> rollbackActions(Binary txnId) {
        List<Runnable> actions = txnId == null ? null : rollbackActions.remove(txnId);
        return actions == null ? List.of() : actions;
    }

    /**
     * Rolls back the open transactions. With a {@code next} namespace (the one served from now on), a transaction no
     * operation joined yet is declared again there under its id (a JMS transacted session always holds one, AMQP-16);
     * null when the endpoint closes.
     */
    public void endAll(Namespace next) {
        rollbackActions.clear();
        for (Binary id : List.copyOf(transactions.keySet())) {
            Transaction t = transactions.remove(id);
            boolean joined = used.remove(id);
            try {
                if (t != null && next != null && !joined) {
                    transactions.put(id, next.beginTransaction());
                }
            } catch (RuntimeException ignored) {
                // the next namespace is closed already: the transaction ends
            }
            try {
                if (t != null) {
                    t.rollback();
                }
            } catch (RuntimeException ignored) {
                // ended already
            }
        }
    }
}
