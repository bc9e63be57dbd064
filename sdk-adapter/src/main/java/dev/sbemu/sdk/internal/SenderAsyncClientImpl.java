package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.CreateMessageBatchOptions;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Transaction;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code ServiceBusSenderAsyncClient} backed by a {@link Namespace}. Like the SDK's, every operation
 * is lazy (runs when subscribed), validates its arguments as the SDK does, and emits SDK exceptions.
 * Each operation is one call into the core, on the subscribing thread.
 */
public final class SenderAsyncClientImpl {
    private final Namespace namespace;
    private final String entity;
    private final ClientInfo info;
    private final int linkSize;
    private final TransactionRegistry transactions;
    private final AtomicBoolean closed = new AtomicBoolean();

    public SenderAsyncClientImpl(Namespace namespace, String entity, ClientInfo info,
                                 TransactionRegistry transactions) {
        this.namespace = namespace;
        this.transactions = transactions;
        this.entity = entity;
        this.info = info;
        this.linkSize = namespace.tier().defaultMaxMessageSizeBytes();
    }

    public String getFullyQualifiedNamespace() {
        return info.fullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return info.entityPath();
    }

    public String getIdentifier() {
        return info.identifier();
    }

    public Mono<Void> sendMessage(ServiceBusMessage message) {
        return run(() -> {
            requireNonNull(message, "'message' cannot be null.");
            checkOpen("sendMessage");
            sendOne(message, null);
            return null;
        });
    }

    public Mono<Void> sendMessage(ServiceBusMessage message, ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid) : run(() -> {
            requireNonNull(message, "'message' cannot be null.");
            checkOpen("sendMessage");
            sendOne(message, transactions.get(transactionContext));
            return null;
        });
    }

    /**
     * As the SDK's {@code sendMessage}: the message goes into a batch of the link's size. One larger
     * than the link fails there with MESSAGE_SIZE_EXCEEDED; one that fits the link but not a batch
     * (whose size accounting reserves 1 KB per 64 KB) is dropped without an error, as the SDK's batch
     * collector drops it (azure-messaging-servicebus 7.17).
     */
    private void sendOne(ServiceBusMessage message, Transaction transaction) {
        ServiceBusMessageBatch batch = newBatch(linkSize);
        if (batch.tryAddMessage(message)) {
            send(batch, transaction);
        }
    }

    public Mono<Void> sendMessages(Iterable<ServiceBusMessage> messages) {
        return run(() -> {
            sendAll(messages, null);
            return null;
        });
    }

    public Mono<Void> sendMessages(Iterable<ServiceBusMessage> messages,
                                   ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid) : run(() -> {
            sendAll(messages, transactions.get(transactionContext));
            return null;
        });
    }

    /** As the SDK: fills batches of the link's size one after the other; each batch is one send. */
    private void sendAll(Iterable<ServiceBusMessage> messages, Transaction transaction) {
        requireNonNull(messages, "'messages' cannot be null.");
        Iterator<ServiceBusMessage> it = messages.iterator();
        if (!it.hasNext()) {
            return;
        }
        checkOpen("createMessageBatch");
        ServiceBusMessage next = it.next();
        while (next != null) {
            ServiceBusMessageBatch batch = newBatch(linkSize);
            ServiceBusMessage first = next;
            next = null;
            if (!batch.tryAddMessage(first)) {
                throw new IllegalArgumentException("The message " + first + " is too big to send even in a batch.");
            }
            while (it.hasNext()) {
                ServiceBusMessage candidate = it.next();
                if (!batch.tryAddMessage(candidate)) {
                    next = candidate;
                    break;
                }
            }
            send(batch, transaction);
        }
    }

    public Mono<Void> sendMessages(ServiceBusMessageBatch batch) {
        return run(() -> {
            checkOpen("sendMessages");
            requireNonNull(batch, "'batch' cannot be null.");
            send(batch, null);
            return null;
        });
    }

    public Mono<Void> sendMessages(ServiceBusMessageBatch batch, ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid) : run(() -> {
            checkOpen("sendMessages");
            requireNonNull(batch, "'batch' cannot be null.");
            send(batch, transactions.get(transactionContext));
            return null;
        });
    }

    private void send(ServiceBusMessageBatch batch, Transaction transaction) {
        List<ServiceBusMessage> messages = SdkAccess.batchMessages(batch);
        if (messages.isEmpty()) {
            return;
        }
        List<Message> core = new ArrayList<>(messages.size());
        messages.forEach(m -> core.add(WireCodec.toCore(m)));
        if (transaction == null) {
            namespace.send(entity, core);
        } else {
            transaction.send(entity, core);
        }
    }

    public Mono<ServiceBusMessageBatch> createMessageBatch() {
        return createMessageBatch(new CreateMessageBatchOptions());
    }

    public Mono<ServiceBusMessageBatch> createMessageBatch(CreateMessageBatchOptions options) {
        return run(() -> {
            checkOpen("createMessageBatch");
            requireNonNull(options, "'options' cannot be null.");
            int maxSize = options.getMaximumSizeInBytes();
            if (maxSize > linkSize) {
                throw new IllegalArgumentException(String.format(Locale.US,
                        "CreateMessageBatchOptions.getMaximumSizeInBytes (%s bytes) is larger than the link size"
                                + " (%s bytes).", maxSize, linkSize));
            }
            return newBatch(maxSize > 0 ? maxSize : linkSize);
        });
    }

    private ServiceBusMessageBatch newBatch(int size) {
        return SdkAccess.newBatch(size, info.fullyQualifiedNamespace(), info.entityPath());
    }

    public Mono<Long> scheduleMessage(ServiceBusMessage message, OffsetDateTime scheduledEnqueueTime) {
        return run(() -> scheduleOne(message, scheduledEnqueueTime, null));
    }

    public Mono<Long> scheduleMessage(ServiceBusMessage message, OffsetDateTime scheduledEnqueueTime,
                                      ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid)
                : run(() -> scheduleOne(message, scheduledEnqueueTime, transactions.get(transactionContext)));
    }

    private long scheduleOne(ServiceBusMessage message, OffsetDateTime scheduledEnqueueTime, Transaction transaction) {
        checkOpen("scheduleMessage");
        requireNonNull(message, "'message' cannot be null.");
        requireNonNull(scheduledEnqueueTime, "'scheduledEnqueueTime' cannot be null.");
        message.setScheduledEnqueueTime(scheduledEnqueueTime);
        List<Message> core = List.of(WireCodec.toCore(message));
        return (transaction == null ? namespace.schedule(entity, core, scheduledEnqueueTime.toInstant())
                : transaction.schedule(entity, core, scheduledEnqueueTime.toInstant()))[0];
    }

    public Flux<Long> scheduleMessages(Iterable<ServiceBusMessage> messages, OffsetDateTime scheduledEnqueueTime) {
        return scheduleMessages(messages, scheduledEnqueueTime, null);
    }

    /** A null context schedules outside any transaction, as in the SDK. */
    public Flux<Long> scheduleMessages(Iterable<ServiceBusMessage> messages, OffsetDateTime scheduledEnqueueTime,
                                       ServiceBusTransactionContext transactionContext) {
        return run(() -> {
            checkOpen("scheduleMessages");
            requireNonNull(messages, "'messages' cannot be null.");
            requireNonNull(scheduledEnqueueTime, "'scheduledEnqueueTime' cannot be null.");
            Transaction transaction = transactionContext == null || transactionContext.getTransactionId() == null
                    ? null : transactions.get(transactionContext);
            ServiceBusMessageBatch batch = newBatch(linkSize);
            int index = 0;
            for (ServiceBusMessage message : messages) {
                if (!batch.tryAddMessage(message)) {
                    throw new IllegalArgumentException(String.format(Locale.US, "Messages exceed max allowed size for "
                            + "all the messages together. Failed to add message at index '%s'.", index));
                }
                ++index;
            }
            List<Message> core = new ArrayList<>(index);
            for (ServiceBusMessage message : SdkAccess.batchMessages(batch)) {
                message.setScheduledEnqueueTime(scheduledEnqueueTime);
                core.add(WireCodec.toCore(message));
            }
            if (core.isEmpty()) {
                return List.<Long>of();
            }
            long[] numbers = transaction == null ? namespace.schedule(entity, core, scheduledEnqueueTime.toInstant())
                    : transaction.schedule(entity, core, scheduledEnqueueTime.toInstant());
            List<Long> result = new ArrayList<>(numbers.length);
            for (long n : numbers) {
                result.add(n);
            }
            return result;
        }).flatMapIterable(list -> list);
    }

    public Mono<Void> cancelScheduledMessage(long sequenceNumber) {
        return run(() -> {
            checkOpen("cancelScheduledMessage");
            if (sequenceNumber < 0) {
                throw new IllegalArgumentException("'sequenceNumber' cannot be negative.");
            }
            cancel(sequenceNumber);
            return null;
        });
    }

    public Mono<Void> cancelScheduledMessages(Iterable<Long> sequenceNumbers) {
        return run(() -> {
            checkOpen("cancelScheduledMessages");
            requireNonNull(sequenceNumbers, "'messages' cannot be null.");
            sequenceNumbers.forEach(this::cancel);
            return null;
        });
    }

    /** The SDK reads the service's message-not-found answer to cancel as success. */
    private void cancel(long sequenceNumber) {
        try {
            namespace.cancelScheduled(entity, sequenceNumber);
        } catch (BrokerException.MessageNotFound ignored) {
            // the management channel treats 404 message-not-found as an empty, successful answer
        }
    }

    // ---- transactions (TXN-1) -------------------------------------------------------------------

    public Mono<ServiceBusTransactionContext> createTransaction() {
        if (closed.get()) {
            return Mono.error(disposed("createTransaction"));
        }
        return run(transactions::declare);
    }

    public Mono<Void> commitTransaction(ServiceBusTransactionContext transactionContext) {
        return endTransaction("commitTransaction", transactionContext, transactions::commit);
    }

    public Mono<Void> rollbackTransaction(ServiceBusTransactionContext transactionContext) {
        return endTransaction("rollbackTransaction", transactionContext, transactions::rollback);
    }

    private Mono<Void> endTransaction(String operation, ServiceBusTransactionContext context,
                                      Consumer<ServiceBusTransactionContext> end) {
        if (closed.get()) {
            return Mono.error(disposed(operation));
        }
        RuntimeException invalid = checkContext(context);
        return invalid != null ? Mono.error(invalid) : run(() -> {
            end.accept(context);
            return null;
        });
    }

    /** The SDK's eager checks of a transaction context argument. */
    private static RuntimeException checkContext(ServiceBusTransactionContext context) {
        if (context == null) {
            return new NullPointerException("'transactionContext' cannot be null.");
        }
        if (context.getTransactionId() == null) {
            return new NullPointerException("'transactionContext.transactionId' cannot be null.");
        }
        return null;
    }

    public void close() {
        closed.set(true);
    }

    @Override
    public String toString() {
        return "ServiceBusSenderAsyncClient[emulated, " + info.entityPath() + "]";
    }

    private void checkOpen(String operation) {
        if (closed.get()) {
            throw disposed(operation);
        }
    }

    private static IllegalStateException disposed(String operation) {
        return new IllegalStateException(String.format("Cannot perform operation '%s' on a disposed sender.",
                operation));
    }

    private static void requireNonNull(Object value, String message) {
        if (value == null) {
            throw new NullPointerException(message);
        }
    }

    private <T> Mono<T> run(Supplier<T> operation) {
        return Mono.fromSupplier(operation)
                .onErrorMap(RuntimeException.class, e -> ErrorMapper.map(e, ServiceBusErrorSource.SEND, info));
    }
}
