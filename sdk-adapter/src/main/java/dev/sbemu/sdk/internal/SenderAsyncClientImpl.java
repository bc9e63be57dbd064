package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.models.CreateMessageBatchOptions;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private final AtomicBoolean closed = new AtomicBoolean();

    public SenderAsyncClientImpl(Namespace namespace, String entity, ClientInfo info) {
        this.namespace = namespace;
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
            Message core = WireCodec.toCore(message);
            namespace.send(entity, core);
            return null;
        });
    }

    public Mono<Void> sendMessages(Iterable<ServiceBusMessage> messages) {
        return run(() -> {
            requireNonNull(messages, "'messages' cannot be null.");
            Iterator<ServiceBusMessage> it = messages.iterator();
            if (!it.hasNext()) {
                return null;
            }
            checkOpen("createMessageBatch");
            // As the SDK: fill batches of the link's size one after the other; each batch is one send.
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
                send(batch);
            }
            return null;
        });
    }

    public Mono<Void> sendMessages(ServiceBusMessageBatch batch) {
        return run(() -> {
            checkOpen("sendMessages");
            requireNonNull(batch, "'batch' cannot be null.");
            send(batch);
            return null;
        });
    }

    private void send(ServiceBusMessageBatch batch) {
        List<ServiceBusMessage> messages = SdkAccess.batchMessages(batch);
        if (messages.isEmpty()) {
            return;
        }
        List<Message> core = new ArrayList<>(messages.size());
        messages.forEach(m -> core.add(WireCodec.toCore(m)));
        namespace.send(entity, core);
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
        return run(() -> {
            checkOpen("scheduleMessage");
            requireNonNull(message, "'message' cannot be null.");
            requireNonNull(scheduledEnqueueTime, "'scheduledEnqueueTime' cannot be null.");
            message.setScheduledEnqueueTime(scheduledEnqueueTime);
            return namespace.schedule(entity, WireCodec.toCore(message), scheduledEnqueueTime.toInstant());
        });
    }

    public Flux<Long> scheduleMessages(Iterable<ServiceBusMessage> messages, OffsetDateTime scheduledEnqueueTime) {
        return run(() -> {
            checkOpen("scheduleMessages");
            requireNonNull(messages, "'messages' cannot be null.");
            requireNonNull(scheduledEnqueueTime, "'scheduledEnqueueTime' cannot be null.");
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
            long[] numbers = namespace.schedule(entity, core, scheduledEnqueueTime.toInstant());
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

    public void close() {
        closed.set(true);
    }

    @Override
    public String toString() {
        return "ServiceBusSenderAsyncClient[emulated, " + info.entityPath() + "]";
    }

    private void checkOpen(String operation) {
        if (closed.get()) {
            throw new IllegalStateException(String.format("Cannot perform operation '%s' on a disposed sender.",
                    operation));
        }
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
