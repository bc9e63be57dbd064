package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.LinkHandler;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * The transaction ids the coordinator declared, over every namespace of the endpoint. A declared transaction belongs
 * to no namespace until an operation first joins it: then it is begun in the namespace of that operation's link
 * ({@link Transactions#target}) and belongs to it. So a client that attaches the coordinator and declares before its
 * connection's credentials chose a namespace (azure-core-amqp attaches the coordinator without a token, AMQP-9) gets
 * its transaction in the namespace its sends and settlements go to (NS-1). Holds the rollback actions too. Each
 * declared transaction belongs to the connection that declared it (RES-1): it is rolled back when that connection ends,
 * and one connection holds at most {@code maxPerConnection} at once (a Declare beyond is rejected with {@code
 * amqp:resource-limit-exceeded}), so that no client can fill the heap with transactions. Any thread.
 */
public final class TransactionRegistry {
    /** Declared ids, and the namespace's transactions that own each once joined (absent: pending). */
    private final Map<Binary, Transactions> owners = new ConcurrentHashMap<>();

    private final Map<Binary, Boolean> declared = new ConcurrentHashMap<>();
    private final Map<Binary, List<Runnable>> rollbackActions = new ConcurrentHashMap<>();
    private final int maxPerConnection;
    /** The ids each connection declared and has not discharged yet. */
    private final Map<AmqpConnection, Set<Binary>> byConnection = new ConcurrentHashMap<>();
    /** The connection that declared each open transaction. */
    private final Map<Binary, AmqpConnection> declaredBy = new ConcurrentHashMap<>();

    /** @param maxPerConnection the most transactions one connection holds at once (AMQP-19) */
    public TransactionRegistry(int maxPerConnection) {
        this.maxPerConnection = maxPerConnection;
    }

    /**
     * Declares a new transaction for {@code owner}, pending; its id is the 16 bytes of a random UUID. Loop thread (of
     * {@code owner}).
     *
     * @throws TooManyTransactions when {@code owner} holds its most already
     */
    Binary declare(AmqpConnection owner) {
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
        UUID id = UUID.randomUUID();
        Binary txnId = new Binary(ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array());
        declared.put(txnId, Boolean.TRUE);
        declaredBy.put(txnId, owner);
        owned.add(txnId);
        return txnId;
    }

    /**
     * Rolls back the transactions {@code owner} declared and did not discharge, each in the namespace that began it,
     * and forgets them: the connection ended (RES-1).
     */
    void endConnection(AmqpConnection owner) {
        Set<Binary> owned = byConnection.remove(owner);
        if (owned == null) {
            return;
        }
        for (Binary id : owned) {
            Transactions claimed = owners.get(id);
            rollbackActions.remove(id);
            forget(id);
            if (claimed != null) {
                claimed.rollBack(id);
            }
        }
    }

    /** Whether {@code txnId} is declared and not discharged. */
    boolean isDeclared(Binary txnId) {
        return txnId != null && declared.containsKey(txnId);
    }

    /**
     * Makes {@code claimer} the owner of the pending {@code txnId}; true when it owns it now (it claimed it, or
     * did before), false when the id is unknown or another namespace owns it.
     */
    boolean claim(Binary txnId, Transactions claimer) {
        if (!isDeclared(txnId)) {
            return false;
        }
        return owners.computeIfAbsent(txnId, id -> claimer) == claimer;
    }

    /** The owner of {@code txnId}, or null while it is pending or unknown. */
    Transactions owner(Binary txnId) {
        return txnId == null ? null : owners.get(txnId);
    }

    /** Forgets {@code txnId} (discharged, or ended with its namespace). */
    void forget(Binary txnId) {
        if (txnId == null) {
            return;
        }
        declared.remove(txnId);
        owners.remove(txnId);
        AmqpConnection owner = declaredBy.remove(txnId);
        Set<Binary> owned = owner == null ? null : byConnection.get(owner);
        if (owned != null) {
            owned.remove(txnId);
        }
    }

    void onRollback(Binary txnId, Runnable action) {
        if (isDeclared(txnId)) {
            rollbackActions
                    .computeIfAbsent(txnId, id -> new CopyOnWriteArrayList<>())
                    .add(action);
        }
    }

    /** Removes and returns the actions to run if the transaction {@code txnId} is rolled back. */
    List<Runnable> rollbackActions(Binary txnId) {
        List<Runnable> actions = txnId == null ? null : rollbackActions.remove(txnId);
        return actions == null ? List.of() : actions;
    }

    /** Forgets every transaction (the endpoint closes). */
    public void clear() {
        declared.clear();
        owners.clear();
        rollbackActions.clear();
        declaredBy.clear();
        byConnection.clear();
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
}
