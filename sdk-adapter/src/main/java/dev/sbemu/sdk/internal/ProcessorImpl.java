package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.sdk.ProcessorOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ServiceBusProcessorClient} for a queue or subscription, taking its handlers and settings from its
 * {@link ProcessorOptions}. Both kinds run the shared {@link MessagePump} on daemon threads:
 * <ul>
 *   <li>an entity processor runs {@code maxConcurrentCalls} workers ({@code sbemu-processor-<entity>-<n>}) on one
 *       receiver, each taking one message at a time; a receive error goes to the error handler and the worker
 *       retries after the SDK's back-off (5 s, real time);</li>
 *   <li>a session processor ({@link ProcessorOptions#sessionEnabled()}) runs {@code maxConcurrentSessions}
 *       {@link SessionSlot}s ({@code sbemu-session-processor-<entity>-<n>}), each holding one session at a
 *       time.</li>
 * </ul>
 * {@link #stop()} and {@link #close()} end the threads promptly: a receive blocked in the core is interrupted,
 * a handler that is running is waited for at most 10 seconds; {@link #start()} starts new ones.
 */
public final class ProcessorImpl {
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);
    private static final Duration RECEIVE_WAIT = Duration.ofSeconds(30);
    private static final Duration NEXT_PUMP_BACKOFF = Duration.ofSeconds(5);

    private final EntityPath entity;
    private final ProcessorOptions options;
    private final ClientContext context;
    private final ClientInfo info;
    private final MessagePump pump;
    private final List<WorkerThread> threads = new ArrayList<>();
    /** The entity processor's receiver while it runs (null for a session processor: each slot has its own). */
    private ReceiverAsyncClientImpl receiver;

    public ProcessorImpl(EntityPath entity, ProcessorOptions options, ClientContext context) {
        this.entity = entity;
        this.options = options;
        this.context = context;
        this.info = context.info(entity);
        this.pump = new MessagePump(options, info, context.renewals());
    }

    public synchronized void start() {
        if (!threads.isEmpty()) {
            return;
        }
        if (options.sessionEnabled()) {
            for (int i = 0; i < options.maxConcurrentSessions(); i++) {
                SessionSlot slot = new SessionSlot(entity, options, context, info, pump);
                threads.add(slot);
                slot.start("sbemu-session-processor-" + info.entityPath() + "-" + i);
            }
            return;
        }
        receiver = context.receiver(entity, options.receiveMode());
        ServiceBusReceiverAsyncClient client = SdkInstances.delegatingTo(ServiceBusReceiverAsyncClient.class, receiver);
        for (int i = 0; i < options.maxConcurrentCalls(); i++) {
            Worker worker = new Worker(receiver, client);
            threads.add(worker);
            worker.start("sbemu-processor-" + info.entityPath() + "-" + i);
        }
    }

    /** Stops the threads (session slots release the sessions they hold); {@link #start()} starts new ones. */
    public void stop() {
        List<WorkerThread> stopping;
        ReceiverAsyncClientImpl closing;
        synchronized (this) {
            stopping = new ArrayList<>(threads);
            threads.clear();
            closing = receiver;
            receiver = null;
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
        return !threads.isEmpty();
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
        return info.identifier();
    }

    @Override
    public String toString() {
        return "ServiceBusProcessorClient[emulated, " + (options.sessionEnabled() ? "sessions, " : "")
                + info.entityPath() + "]";
    }

    /** One worker of an entity processor: one message at a time, until stopped or the receiver closes. */
    private final class Worker extends WorkerThread {
        private final ReceiverAsyncClientImpl receiver;
        private final ServiceBusReceiverAsyncClient client;

        Worker(ReceiverAsyncClientImpl receiver, ServiceBusReceiverAsyncClient client) {
            this.receiver = receiver;
            this.client = client;
        }

        @Override
        public void run() {
            while (!isStopped()) {
                MessagePump.Turn turn = pump.turn(this, receiver, client, 1, RECEIVE_WAIT, null);
                if (turn == MessagePump.Turn.CLOSED) {
                    return; // the processor is stopping: its receiver was closed
                }
                if (turn == MessagePump.Turn.FAILED) {
                    backOff(NEXT_PUMP_BACKOFF);
                }
            }
        }
    }
}
