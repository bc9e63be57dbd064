package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Transaction;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transactions that the clients of one {@code EmulatorClients} declared (TXN-1): each SDK
 * {@link ServiceBusTransactionContext} carries the core transaction's id as its 16-byte transaction
 * id, as the service's coordinator hands out a transaction id on declare; operations look the core
 * {@link Transaction} up by that id. A context that was never declared here, or whose transaction was
 * committed or rolled back, is refused as the service refuses an unknown transaction id.
 */
public final class TransactionRegistry {
    private final Namespace namespace;
    private final Map<UUID, Transaction> open = new ConcurrentHashMap<>();

    public TransactionRegistry(Namespace namespace) {
        this.namespace = namespace;
    }

    /** Declares a transaction and returns the SDK's context for it. */
    public ServiceBusTransactionContext declare() {
        Transaction transaction = namespace.beginTransaction();
        open.put(transaction.id(), transaction);
        ByteBuffer id = ByteBuffer.allocate(16);
        id.putLong(transaction.id().getMostSignificantBits()).putLong(transaction.id().getLeastSignificantBits());
        id.flip();
        return SdkAccess.transactionContext(id.asReadOnlyBuffer());
    }

    /** The open transaction of {@code context}; throws {@link BrokerException.TransactionFailed} when there is none. */
    public Transaction get(ServiceBusTransactionContext context) {
        UUID id = id(context);
        Transaction transaction = id == null ? null : open.get(id);
        if (transaction == null) {
            throw new BrokerException.TransactionFailed("The transaction " + (id == null ? "with a malformed id" : id)
                    + " is unknown: it was not declared on this namespace, or it was committed or rolled back.");
        }
        return transaction;
    }

    /** Commits the transaction; it is ended afterwards, whether the commit succeeded or not. */
    public void commit(ServiceBusTransactionContext context) {
        Transaction transaction = get(context);
        try {
            transaction.commit();
        } finally {
            open.remove(transaction.id());
        }
    }

    /** Rolls the transaction back. */
    public void rollback(ServiceBusTransactionContext context) {
        Transaction transaction = get(context);
        try {
            transaction.rollback();
        } finally {
            open.remove(transaction.id());
        }
    }

    private static UUID id(ServiceBusTransactionContext context) {
        ByteBuffer id = context.getTransactionId();
        if (id == null || id.remaining() != 16) {
            return null;
        }
        return new UUID(id.getLong(id.position()), id.getLong(id.position() + 8));
    }
}
