package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.CreateMessageBatchOptions;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.Namespace;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
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
    private final CoreCalls calls;

    public SenderAsyncClientImpl(ClientContext context, String entity) {
        this.namespace = context.namespace();
        this.transactions = context.transactions();
        this.entity = entity;
        this.info = ClientInfo.of(context.fullyQualifiedNamespace(), entity);
        this.linkSize = namespace.tier().defaultMaxMessageSizeBytes();
        this.calls = CoreCalls.sender(info);
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
        return sendOne(message, null);
    }

    public Mono<Void> sendMessage(ServiceBusMessage message, ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = TransactionRegistry.checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid) : sendOne(message, transactionContext);
    }

    /**
     * As the SDK's {@code sendMessage}: the message goes into a batch of the link's size. One larger
     * than the link fails there with MESSAGE_SIZE_EXCEEDED; one that fits the link but not a batch
     * (whose size accounting reserves 1 KB per 64 KB) is dropped without an error, as the SDK's batch
     * collector drops it (azure-messaging-servicebus 7.17).
     */
    private Mono<Void> sendOne(ServiceBusMessage message, ServiceBusTransactionContext contextOrNull) {
        return calls.callWithoutClosedCheck(ServiceBusErrorSource.SEND, () -> {
            requireNonNull(message, "'message' cannot be null.");
            calls.checkOpen("sendMessage");
            MessageOperations target = transactions.target(contextOrNull);
            ServiceBusMessageBatch batch = newBatch(linkSize);
            if (serialized(() -> batch.tryAddMessage(message))) {
                send(batch, target);
            }
            return null;
        });
    }

    /**
     * PAR-1: runs a step the SDK does client-side (serialising, sizing, batching) and wraps what it throws as the
     * SDK's {@code mapError} on its send and schedule paths does: the serializer's {@code NumberFormatException}
     * for a TTL beyond a uint of milliseconds, its {@code IllegalArgumentException} for a property type AMQP cannot
     * encode, become a {@link ServiceBusException} with reason GENERAL_ERROR. The broker's refusals are mapped by
     * {@link CoreCalls} as before.
     */
    private static <T> T serialized(Supplier<T> sdkStep) {
        try {
            return sdkStep.get();
        } catch (ServiceBusException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ServiceBusException(e, ServiceBusErrorSource.SEND);
        }
    }

    public Mono<Void> sendMessages(Iterable<ServiceBusMessage> messages) {
        return sendAll(messages, null);
    }

    public Mono<Void> sendMessages(
            Iterable<ServiceBusMessage> messages, ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = TransactionRegistry.checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid) : sendAll(messages, transactionContext);
    }

    /** As the SDK: fills batches of the link's size one after the other; each batch is one send. */
    private Mono<Void> sendAll(Iterable<ServiceBusMessage> messages, ServiceBusTransactionContext contextOrNull) {
        return calls.callWithoutClosedCheck(ServiceBusErrorSource.SEND, () -> {
            MessageOperations target = transactions.target(contextOrNull);
            requireNonNull(messages, "'messages' cannot be null.");
            Iterator<ServiceBusMessage> it = messages.iterator();
            if (!it.hasNext()) {
                return null;
            }
            calls.checkOpen("createMessageBatch");
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
                send(batch, target);
            }
            return null;
        });
    }

    public Mono<Void> sendMessages(ServiceBusMessageBatch batch) {
        return sendBatch(batch, null);
    }

    public Mono<Void> sendMessages(ServiceBusMessageBatch batch, ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = TransactionRegistry.checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid) : sendBatch(batch, transactionContext);
    }

    private Mono<Void> sendBatch(ServiceBusMessageBatch batch, ServiceBusTransactionContext contextOrNull) {
        return calls.call("sendMessages", ServiceBusErrorSource.SEND, () -> {
            requireNonNull(batch, "'batch' cannot be null.");
            send(batch, transactions.target(contextOrNull));
            return null;
        });
    }

    private void send(ServiceBusMessageBatch batch, MessageOperations target) {
        List<ServiceBusMessage> messages = SdkAccess.batchMessages(batch);
        if (messages.isEmpty()) {
            return;
        }
        List<Message> core = new ArrayList<>(messages.size());
        messages.forEach(m -> core.add(WireCodec.toCore(m)));
        target.send(entity, core);
    }

    public Mono<ServiceBusMessageBatch> createMessageBatch() {
        return createMessageBatch(new CreateMessageBatchOptions());
    }

    public Mono<ServiceBusMessageBatch> createMessageBatch(CreateMessageBatchOptions options) {
        return calls.call("createMessageBatch", ServiceBusErrorSource.SEND, () -> {
            requireNonNull(options, "'options' cannot be null.");
            int maxSize = options.getMaximumSizeInBytes();
            if (maxSize > linkSize) {
                throw new IllegalArgumentException(String.format(
                        Locale.US,
                        "CreateMessageBatchOptions.getMaximumSizeInBytes (%s bytes) is larger than the link size"
                                + " (%s bytes).",
                        maxSize,
                        linkSize));
            }
            return newBatch(maxSize > 0 ? maxSize : linkSize);
        });
    }

    private ServiceBusMessageBatch newBatch(int size) {
        return SdkAccess.newBatch(size, info.fullyQualifiedNamespace(), info.entityPath());
    }

    public Mono<Long> scheduleMessage(ServiceBusMessage message, OffsetDateTime scheduledEnqueueTime) {
        return scheduleOne(message, scheduledEnqueueTime, null);
    }

    public Mono<Long> scheduleMessage(
            ServiceBusMessage message,
            OffsetDateTime scheduledEnqueueTime,
            ServiceBusTransactionContext transactionContext) {
        RuntimeException invalid = TransactionRegistry.checkContext(transactionContext);
        return invalid != null ? Mono.error(invalid) : scheduleOne(message, scheduledEnqueueTime, transactionContext);
    }

    private Mono<Long> scheduleOne(
            ServiceBusMessage message,
            OffsetDateTime scheduledEnqueueTime,
            ServiceBusTransactionContext contextOrNull) {
        return calls.callWithoutClosedCheck(ServiceBusErrorSource.SEND, () -> {
            MessageOperations target = transactions.target(contextOrNull);
            calls.checkOpen("scheduleMessage");
            requireNonNull(message, "'message' cannot be null.");
            requireNonNull(scheduledEnqueueTime, "'scheduledEnqueueTime' cannot be null.");
            List<Message> core = serialized(() -> {
                message.setScheduledEnqueueTime(scheduledEnqueueTime);
                // the SDK's management channel sizes the serialized message first: its errors come first
                SdkAccess.serializer().getSize(SdkAccess.serializer().serialize(message));
                return List.of(WireCodec.toCore(message));
            });
            return target.schedule(entity, core, scheduledEnqueueTime.toInstant())[0];
        });
    }

    public Flux<Long> scheduleMessages(Iterable<ServiceBusMessage> messages, OffsetDateTime scheduledEnqueueTime) {
        return scheduleMessages(messages, scheduledEnqueueTime, null);
    }

    /** A null context schedules outside any transaction, as in the SDK. */
    public Flux<Long> scheduleMessages(
            Iterable<ServiceBusMessage> messages,
            OffsetDateTime scheduledEnqueueTime,
            ServiceBusTransactionContext transactionContext) {
        return calls.callMany("scheduleMessages", ServiceBusErrorSource.SEND, () -> {
            requireNonNull(messages, "'messages' cannot be null.");
            requireNonNull(scheduledEnqueueTime, "'scheduledEnqueueTime' cannot be null.");
            MessageOperations target = transactions.target(
                    transactionContext == null || transactionContext.getTransactionId() == null
                            ? null
                            : transactionContext);
            List<Message> core = serialized(() -> toCore(messages, scheduledEnqueueTime));
            if (core.isEmpty()) {
                return List.<Long>of();
            }
            long[] numbers = target.schedule(entity, core, scheduledEnqueueTime.toInstant());
            List<Long> result = new ArrayList<>(numbers.length);
            for (long n : numbers) {
                result.add(n);
            }
            return result;
        });
    }

    /** As the SDK's {@code scheduleMessages}: the messages must fit one batch of the link's size. */
    private List<Message> toCore(Iterable<ServiceBusMessage> messages, OffsetDateTime scheduledEnqueueTime) {
        ServiceBusMessageBatch batch = newBatch(linkSize);
        int index = 0;
        for (ServiceBusMessage message : messages) {
            if (!batch.tryAddMessage(message)) {
                throw new IllegalArgumentException(String.format(
                        Locale.US,
                        "Messages exceed max allowed size for "
                                + "all the messages together. Failed to add message at index '%s'.",
                        index));
            }
            ++index;
        }
        List<Message> core = new ArrayList<>(index);
        for (ServiceBusMessage message : SdkAccess.batchMessages(batch)) {
            message.setScheduledEnqueueTime(scheduledEnqueueTime);
            core.add(WireCodec.toCore(message));
        }
        return core;
    }

    public Mono<Void> cancelScheduledMessage(long sequenceNumber) {
        return calls.call("cancelScheduledMessage", ServiceBusErrorSource.SEND, () -> {
            if (sequenceNumber < 0) {
                throw new IllegalArgumentException("'sequenceNumber' cannot be negative.");
            }
            cancel(sequenceNumber);
            return null;
        });
    }

    public Mono<Void> cancelScheduledMessages(Iterable<Long> sequenceNumbers) {
        return calls.call("cancelScheduledMessages", ServiceBusErrorSource.SEND, () -> {
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
        return transactions.create(calls, ServiceBusErrorSource.SEND);
    }

    public Mono<Void> commitTransaction(ServiceBusTransactionContext transactionContext) {
        return transactions.commit(calls, ServiceBusErrorSource.SEND, transactionContext);
    }

    public Mono<Void> rollbackTransaction(ServiceBusTransactionContext transactionContext) {
        return transactions.rollback(calls, ServiceBusErrorSource.SEND, transactionContext);
    }

    public void close() {
        calls.close();
    }

    @Override
    public String toString() {
        return "ServiceBusSenderAsyncClient[emulated, " + info.entityPath() + "]";
    }

    private static void requireNonNull(Object value, String message) {
        if (value == null) {
            throw new NullPointerException(message);
        }
    }
}
