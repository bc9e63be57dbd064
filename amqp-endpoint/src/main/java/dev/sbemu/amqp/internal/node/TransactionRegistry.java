package dev.sbemu.amqp.internal.node;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.qpid.proton.amqp.Binary;

/**
 * The transaction ids the coordinator declared, over every namespace of the endpoint. A declared transaction belongs
 * to no namespace until an operation first joins it: then it is begun in the namespace of that operation's link
 * ({@link Transactions#target}) and belongs to it. So a client that attaches the coordinator and declares before its
 * connection's credentials chose a namespace (azure-core-amqp attaches the coordinator without a token, AMQP-9) gets
 * its transaction in the namespace its sends and settlements go to (NS-1). Holds the rollback actions too. Any
 * thread.
 */
public final class TransactionRegistry {
    /** Declared ids, and the namespace's transactions that own each once joined (absent: pending). */
    private final Map<Binary, Transactions> owners = new ConcurrentHashMap<>();

    private final Map<Binary, Boolean> declared = new ConcurrentHashMap<>();
    private final Map<Binary, List<Runnable>> rollbackActions = new ConcurrentHashMap<>();

    /** Declares a new transaction, pending; its id is the 16 bytes of a random UUID. */
    Binary declare() {
        UUID id = UUID.randomUUID();
        Binary txnId = new Binary(ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array());
        declared.put(txnId, Boolean.TRUE);
        return txnId;
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
        declared.remove(txnId);
        owners.remove(txnId);
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
    }
}
