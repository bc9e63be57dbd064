package dev.sbemu.sdk.internal;

import com.azure.core.util.IterableStream;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.CreateMessageBatchOptions;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * {@code ServiceBusSenderClient}: blocks on the async implementation, as the SDK's sync client blocks
 * on its async client (so results, laziness and exceptions are the same).
 */
public final class SenderClientImpl {
    private final SenderAsyncClientImpl async;

    public SenderClientImpl(SenderAsyncClientImpl async) {
        this.async = async;
    }

    public String getFullyQualifiedNamespace() {
        return async.getFullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return async.getEntityPath();
    }

    public String getIdentifier() {
        return async.getIdentifier();
    }

    public void sendMessage(ServiceBusMessage message) {
        Objects.requireNonNull(message, "'message' cannot be null.");
        async.sendMessage(message).block();
    }

    public void sendMessages(Iterable<ServiceBusMessage> messages) {
        async.sendMessages(messages).block();
    }

    public void sendMessages(ServiceBusMessageBatch batch) {
        Objects.requireNonNull(batch, "'batch' cannot be null.");
        async.sendMessages(batch).block();
    }

    public ServiceBusMessageBatch createMessageBatch() {
        return async.createMessageBatch().block();
    }

    public ServiceBusMessageBatch createMessageBatch(CreateMessageBatchOptions options) {
        Objects.requireNonNull(options, "'options' cannot be null.");
        return async.createMessageBatch(options).block();
    }

    public Long scheduleMessage(ServiceBusMessage message, OffsetDateTime scheduledEnqueueTime) {
        return async.scheduleMessage(message, scheduledEnqueueTime).block();
    }

    /** Lazy, as in the SDK: the messages are scheduled when the result is iterated. */
    public Iterable<Long> scheduleMessages(Iterable<ServiceBusMessage> messages, OffsetDateTime scheduledEnqueueTime) {
        return new IterableStream<>(async.scheduleMessages(messages, scheduledEnqueueTime));
    }

    public void cancelScheduledMessage(long sequenceNumber) {
        async.cancelScheduledMessage(sequenceNumber).block();
    }

    public void cancelScheduledMessages(Iterable<Long> sequenceNumbers) {
        async.cancelScheduledMessages(sequenceNumbers).block();
    }

    public void sendMessage(ServiceBusMessage message, ServiceBusTransactionContext transactionContext) {
        async.sendMessage(message, transactionContext).block();
    }

    public void sendMessages(Iterable<ServiceBusMessage> messages, ServiceBusTransactionContext transactionContext) {
        async.sendMessages(messages, transactionContext).block();
    }

    public void sendMessages(ServiceBusMessageBatch batch, ServiceBusTransactionContext transactionContext) {
        async.sendMessages(batch, transactionContext).block();
    }

    public Long scheduleMessage(
            ServiceBusMessage message,
            OffsetDateTime scheduledEnqueueTime,
            ServiceBusTransactionContext transactionContext) {
        return async.scheduleMessage(message, scheduledEnqueueTime, transactionContext)
                .block();
    }

    /** Lazy, as in the SDK: the messages are scheduled when the result is iterated. */
    public Iterable<Long> scheduleMessages(
            Iterable<ServiceBusMessage> messages,
            OffsetDateTime scheduledEnqueueTime,
            ServiceBusTransactionContext transactionContext) {
        return new IterableStream<>(async.scheduleMessages(messages, scheduledEnqueueTime, transactionContext));
    }

    public ServiceBusTransactionContext createTransaction() {
        return async.createTransaction().block();
    }

    public void commitTransaction(ServiceBusTransactionContext transactionContext) {
        async.commitTransaction(transactionContext).block();
    }

    public void rollbackTransaction(ServiceBusTransactionContext transactionContext) {
        async.rollbackTransaction(transactionContext).block();
    }

    public void close() {
        async.close();
    }

    @Override
    public String toString() {
        return "ServiceBusSenderClient[emulated, " + async.getEntityPath() + "]";
    }
}
