package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Transaction;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Mono;

/**
 * The one transaction helper of the clients of one {@code EmulatorClients} (TXN-1): declares, commits and
 * rolls back their transactions, and tells each send, schedule and settlement where it takes effect
 * ({@link #target}): at once on the namespace, or in the transaction its context names. Each SDK
 * {@link ServiceBusTransactionContext} carries the core transaction's id as its 16-byte transaction id, as the
 * service's coordinator hands out a transaction id on declare. A context that was never declared here, or
 * whose transaction was committed or rolled back, is refused as the service refuses an unknown transaction id.
 */
public final class TransactionRegistry {
    private final Namespace namespace;
    private final Map<UUID, Transaction> open = new ConcurrentHashMap<>();

    public TransactionRegistry(Namespace namespace) {
        this.namespace = namespace;
    }

    /**
     * Where a send, schedule or settlement takes effect: for a null context, at once on the namespace; else in the
     * context's open transaction.
     *
     * @throws BrokerException.TransactionFailed when the context names no open transaction
     */
    MessageOperations target(ServiceBusTransactionContext contextOrNull) {
        return contextOrNull == null ? namespace : get(contextOrNull);
    }

    /** The SDK's eager checks of a transaction context argument (null when it passes). */
    static RuntimeException checkContext(ServiceBusTransactionContext context) {
        if (context == null) {
            return new NullPointerException("'transactionContext' cannot be null.");
        }
        if (context.getTransactionId() == null) {
            return new NullPointerException("'transactionContext.transactionId' cannot be null.");
        }
        return null;
    }

    /** A client's {@code createTransaction()}: refused at once on a closed client, declared when subscribed. */
    Mono<ServiceBusTransactionContext> create(CoreCalls calls, ServiceBusErrorSource source) {
        if (calls.isClosed()) {
            return Mono.error(calls.disposed("createTransaction"));
        }
        return calls.callWithoutClosedCheck(source, this::declare);
    }

    /** A client's {@code commitTransaction}: the checks at once, the commit when subscribed. */
    Mono<Void> commit(CoreCalls calls, ServiceBusErrorSource source, ServiceBusTransactionContext context) {
        return end(calls, source, "commitTransaction", context, true);
    }

    /** A client's {@code rollbackTransaction}: the checks at once, the rollback when subscribed. */
    Mono<Void> rollback(CoreCalls calls, ServiceBusErrorSource source, ServiceBusTransactionContext context) {
        return end(calls, source, "rollbackTransaction", context, false);
    }

    private Mono<Void> end(
            CoreCalls calls,
            ServiceBusErrorSource source,
            String operation,
            ServiceBusTransactionContext context,
            boolean commit) {
        if (calls.isClosed()) {
            return Mono.error(calls.disposed(operation));
        }
        RuntimeException invalid = checkContext(context);
        return invalid != null
                ? Mono.error(invalid)
                : calls.callWithoutClosedCheck(source, () -> {
                    Transaction transaction = get(context);
                    try {
                        if (commit) {
                            transaction.commit();
                        } else {
                            transaction.rollback();
                        }
                    } finally {
                        open.remove(transaction.id()); // ended, whether the commit succeeded or not
                    }
                    return null;
                });
    }

    /** Declares a transaction and returns the SDK's context for it. */
    private ServiceBusTransactionContext declare() {
        Transaction transaction = namespace.beginTransaction();
        open.put(transaction.id(), transaction);
        ByteBuffer id = ByteBuffer.allocate(16);
        id.putLong(transaction.id().getMostSignificantBits())
                .putLong(transaction.id().getLeastSignificantBits());
        id.flip();
        return SdkAccess.transactionContext(id.asReadOnlyBuffer());
    }

    /** The open transaction of {@code context}; throws {@link BrokerException.TransactionFailed} when there is none. */
    private Transaction get(ServiceBusTransactionContext context) {
        UUID id = id(context);
        Transaction transaction = id == null ? null : open.get(id);
        if (transaction == null) {
            throw new BrokerException.TransactionFailed("The transaction " + (id == null ? "with a malformed id" : id)
                    + " is unknown: it was not declared on this namespace, or it was committed or rolled back.");
        }
        return transaction;
    }

    private static UUID id(ServiceBusTransactionContext context) {
        ByteBuffer id = context.getTransactionId();
        if (id == null || id.remaining() != 16) {
            return null;
        }
        return new UUID(id.getLong(id.position()), id.getLong(id.position() + 8));
    }
}
