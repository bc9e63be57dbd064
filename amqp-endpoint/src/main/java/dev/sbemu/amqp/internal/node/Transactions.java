package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.link.TransactionScope;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.LinkHandler;
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
import java.util.function.Supplier;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * The transactions the coordinator declared, and the actions to run if one is rolled back. Each belongs to the
 * connection that declared it (RES-1): it is rolled back when that connection ends, and one connection holds at most
 * {@code maxPerConnection} at once (a Declare beyond is rejected with {@code amqp:resource-limit-exceeded}), so that
 * no client can fill the heap with transactions. All end when the served namespace is replaced ({@link #endAll}) or
 * the endpoint closes. Any thread.
 */
public final class Transactions implements TransactionScope {
    private final ServedNamespace namespace;
    private final int maxPerConnection;
    private final Map<Binary, Transaction> transactions = new ConcurrentHashMap<>();
    /** The ids each connection declared and has not discharged yet. */
    private final Map<AmqpConnection, Set<Binary>> byConnection = new ConcurrentHashMap<>();
    /** The connection that declared each open transaction. */
    private final Map<Binary, AmqpConnection> owners = new ConcurrentHashMap<>();

    private final Map<Binary, List<Runnable>> rollbackActions = new ConcurrentHashMap<>();
    /** The transactions an operation joined (a declared transaction without one carries over, AMQP-16). */
    private final Set<Binary> used = ConcurrentHashMap.newKeySet();

    /** @param maxPerConnection the most transactions one connection holds at once (AMQP-19) */
    public Transactions(ServedNamespace namespace, int maxPerConnection) {
        this.namespace = namespace;
        this.maxPerConnection = maxPerConnection;
    }

    /**
     * Begins a transaction for {@code owner} and registers it; its id is the 16 bytes of its UUID. Loop thread (of
     * {@code owner}).
     *
     * @throws TooManyTransactions when {@code owner} holds its most already
     */
    Binary declare(AmqpConnection owner, Supplier<Transaction> begin) {
        Set<Binary> owned = byConnection.get(owner);
        if (owned == null) {
            owned = ConcurrentHashMap.newKeySet();
            byConnection.put(owner, owned);
            // told when the connection ends, however it ends: its transactions are rolled back
            owner.track(new LinkHandler() {
                @Override
                public void onClosed() {
                    endConnection(owner);
                }
            });
        }
        if (owned.size() >= maxPerConnection) {
            throw new TooManyTransactions(maxPerConnection);
        }
        Transaction transaction = begin.get();
        UUID id = transaction.id();
        Binary txnId = new Binary(ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array());
        transactions.put(txnId, transaction);
        owners.put(txnId, owner);
        owned.add(txnId);
        return txnId;
    }

    /** How many transactions are open, for tests and the health of the heap. */
    public int open() {
        return transactions.size();
    }

    /** Rolls back the transactions {@code owner} declared and did not discharge: the connection ended. */
    private void endConnection(AmqpConnection owner) {
        Set<Binary> owned = byConnection.remove(owner);
        if (owned == null) {
            return;
        }
        for (Binary id : owned) {
            owners.remove(id);
            rollbackActions.remove(id);
            used.remove(id);
            Transaction t = transactions.remove(id);
            try {
                if (t != null) {
                    t.rollback();
                }
            } catch (RuntimeException ignored) {
                // ended already
            }
        }
    }

    private void forget(Binary txnId) {
        AmqpConnection owner = owners.remove(txnId);
        Set<Binary> owned = owner == null ? null : byConnection.get(owner);
        if (owned != null) {
            owned.remove(txnId);
        }
    }

    /** A Declare beyond the connection's most transactions: {@code amqp:resource-limit-exceeded}. */
    static final class TooManyTransactions extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooManyTransactions(int max) {
            super("This connection already holds " + max + " open transactions, the most it may (sbemu's "
                    + "max-transactions-per-connection); discharge some before declaring more.");
        }

        ErrorCondition condition() {
            return new ErrorCondition(AmqpErrors.RESOURCE_LIMIT_EXCEEDED, getMessage());
        }
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
        forget(txnId);
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
            boolean carried = false;
            try {
                if (t != null && next != null && !joined) {
                    transactions.put(id, next.beginTransaction());
                    carried = true;
                }
            } catch (RuntimeException ignored) {
                // the next namespace is closed already: the transaction ends
            }
            if (!carried) {
                forget(id);
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
