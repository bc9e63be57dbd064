package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorContext;
import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code ServiceBusProcessorClient} for a queue or subscription: {@code maxConcurrentCalls} daemon
 * worker threads ({@code sbemu-processor-<entity>-<n>}), each taking one message at a time from the
 * core and running the handler as the SDK's message pump does: the handler gets a real
 * {@link ServiceBusReceivedMessageContext}; a handler exception is reported to the error handler as a
 * {@code USER_CALLBACK} {@link ServiceBusException}; with auto-complete the message is completed after
 * the handler returns, abandoned when it threw (failures of that are ignored, as in the SDK). In
 * peek-lock mode the lock is renewed on the virtual clock while the handler runs, up to
 * {@code maxAutoLockRenewDuration}. A receive error goes to the error handler and the workers retry
 * after the SDK's back-off (5 s, real time). {@link #stop()} and {@link #close()} end the workers
 * promptly: a receive blocked in the core is interrupted, a handler that is running is waited for
 * at most 10 seconds.
 */
public final class ProcessorImpl {
    static final Duration STOP_WAIT = Duration.ofSeconds(10);
    private static final Duration RECEIVE_WAIT = Duration.ofSeconds(30);
    private static final Duration NEXT_PUMP_BACKOFF = Duration.ofSeconds(5);

    private final EntityPath entity;
    private final Consumer<ServiceBusReceivedMessageContext> processMessage;
    private final Consumer<ServiceBusErrorContext> processError;
    private final int concurrency;
    private final boolean autoComplete;
    private final Duration maxAutoLockRenewDuration;
    private final ServiceBusReceiveMode mode;
    private final Supplier<ReceiverAsyncClientImpl> newReceiver;
    private final LockRenewals renewals;
    private final String identifier;
    private final List<Worker> workers = new ArrayList<>();
    private ReceiverAsyncClientImpl receiver;
    private ServiceBusReceiverAsyncClient receiverClient;

    /**
     * A processor; {@code newReceiver} makes the receiver each start uses.
     */
    public ProcessorImpl(EntityPath entity, Consumer<ServiceBusReceivedMessageContext> processMessage,
                         Consumer<ServiceBusErrorContext> processError, int concurrency, boolean autoComplete,
                         Duration maxAutoLockRenewDuration, ServiceBusReceiveMode mode,
                         Supplier<ReceiverAsyncClientImpl> newReceiver, LockRenewals renewals, String identifier) {
        this.entity = entity;
        this.processMessage = processMessage;
        this.processError = processError;
        this.concurrency = concurrency;
        this.autoComplete = autoComplete && mode == ServiceBusReceiveMode.PEEK_LOCK;
        this.maxAutoLockRenewDuration = maxAutoLockRenewDuration;
        this.mode = mode;
        this.newReceiver = newReceiver;
        this.renewals = renewals;
        this.identifier = identifier;
    }

    public synchronized void start() {
        if (!workers.isEmpty()) {
            return;
        }
        receiver = newReceiver.get();
        receiverClient = SdkMocks.delegatingTo(ServiceBusReceiverAsyncClient.class, receiver);
        for (int i = 0; i < concurrency; i++) {
            Worker worker = new Worker(receiver, receiverClient);
            workers.add(worker);
            worker.start("sbemu-processor-" + Receivers.sdkEntityPath(entity) + "-" + i);
        }
    }

    /** Stops the workers; {@link #start()} starts new ones. */
    public void stop() {
        List<Worker> stopping;
        ReceiverAsyncClientImpl closing;
        synchronized (this) {
            stopping = new ArrayList<>(workers);
            workers.clear();
            closing = receiver;
            receiver = null;
            receiverClient = null;
        }
        WorkerThread.stopAll(stopping, STOP_WAIT);
        if (closing != null) {
            closing.close();
        }
    }

    public void close() {
        stop();
    }

    public synchronized boolean isRunning() {
        return !workers.isEmpty();
    }

    public String getQueueName() {
        return entity.isSubscription() ? null : entity.topicOrQueue();
    }

    public String getTopicName() {
        return entity.isSubscription() ? entity.topicOrQueue() : null;
    }

    public String getSubscriptionName() {
        return entity.subscription();
    }

    public String getIdentifier() {
        return identifier;
    }

    @Override
    public String toString() {
        return "ServiceBusProcessorClient[emulated, " + Receivers.sdkEntityPath(entity) + "]";
    }

    /** One worker thread: receive one message, handle it, repeat. */
    private final class Worker extends WorkerThread {
        private final ReceiverAsyncClientImpl receiver;
        private final ServiceBusReceiverAsyncClient client;

        Worker(ReceiverAsyncClientImpl receiver, ServiceBusReceiverAsyncClient client) {
            this.receiver = receiver;
            this.client = client;
        }

        @Override
        public void run() {
            while (enterBlocking()) {
                List<BrokeredMessage> taken;
                try {
                    taken = receiver.receiveBatch(1, RECEIVE_WAIT);
                } catch (CancellationException closed) {
                    leaveBlocking();
                    return; // the processor is stopping: its receiver was closed
                } catch (RuntimeException e) {
                    leaveBlocking();
                    notifyError(ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, receiver.info()), receiver);
                    backOff(NEXT_PUMP_BACKOFF);
                    continue;
                }
                leaveBlocking();
                for (BrokeredMessage m : taken) {
                    if (isStopped()) {
                        receiver.handBack(m);
                    } else {
                        handle(m);
                    }
                }
            }
        }

        private void handle(BrokeredMessage brokered) {
            LockRenewals.Renewal renewal = null;
            if (mode == ServiceBusReceiveMode.PEEK_LOCK && brokered.lockToken() != null) {
                // the lock check and the renewal's start are one step against clock advances: a lock that
                // lapsed since the receive means the message may be with another worker already
                renewal = renewals.startIfHeld(brokered.lockedUntil(), maxAutoLockRenewDuration,
                        () -> receiver.source().renewLock(brokered.lockToken()), e -> { }, () -> { });
                if (renewal == null) {
                    return;
                }
            }
            ServiceBusReceivedMessage message = WireCodec.toReceived(brokered);
            Exception error = null;
            try {
                processMessage.accept(SdkAccess.receivedMessageContext(client, message));
            } catch (Exception e) {
                error = e;
                notifyError(new ServiceBusException(e, ServiceBusErrorSource.USER_CALLBACK), receiver);
            }
            if (autoComplete) {
                try {
                    (error == null ? client.complete(message) : client.abandon(message)).block();
                } catch (RuntimeException ignored) {
                    // the SDK logs and ignores a failed auto-completion (e.g. the handler settled already)
                }
            }
            if (renewal != null) {
                renewal.cancel();
            }
        }
    }

    private void notifyError(Throwable error, ReceiverAsyncClientImpl receiver) {
        try {
            processError.accept(SdkAccess.errorContext(error, receiver.getFullyQualifiedNamespace(),
                    receiver.getEntityPath()));
        } catch (RuntimeException ignored) {
            // the SDK ignores exceptions thrown by the error handler
        }
    }
}
