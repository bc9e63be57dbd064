package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorContext;
import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code ServiceBusProcessorClient} for a session-enabled queue or subscription: {@code maxConcurrentSessions}
 * daemon threads ({@code sbemu-session-processor-<entity>-<n>}), each holding one session at a time and
 * handling up to {@code maxConcurrentCalls} of its messages at once, with the same handler contract as
 * {@link ProcessorImpl} (real contexts, auto-complete / abandon, {@code USER_CALLBACK} errors). The
 * session lock is renewed on the virtual clock up to {@code maxAutoLockRenewDuration}. A thread lets go
 * of its session when the session has had nothing to deliver for the session idle timeout (SES-6: the
 * builder's {@code sessionIdleTimeout}, by default its one-minute try-timeout, in virtual time), or at
 * once when it has nothing to deliver and another session is waiting for a receiver, so that a test
 * need not move the clock to have every session processed.
 */
public final class SessionProcessorImpl {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration ACCEPT_WAIT = Duration.ofSeconds(30);
    /** The SDK's default session idle timeout: its try-timeout. */
    private static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration BACKOFF = Duration.ofSeconds(5);

    private final Namespace namespace;
    private final EntityPath entity;
    private final Consumer<ServiceBusReceivedMessageContext> processMessage;
    private final Consumer<ServiceBusErrorContext> processError;
    private final int sessions;
    private final int callsPerSession;
    private final boolean autoComplete;
    private final Duration maxAutoLockRenewDuration;
    private final Duration sessionIdleTimeout;
    private final ServiceBusReceiveMode mode;
    private final LockRenewals renewals;
    private final TransactionRegistry transactions;
    private final ClientInfo info;
    private final List<Slot> slots = new ArrayList<>();

    public SessionProcessorImpl(Namespace namespace, EntityPath entity,
                                Consumer<ServiceBusReceivedMessageContext> processMessage,
                                Consumer<ServiceBusErrorContext> processError, int sessions, int callsPerSession,
                                boolean autoComplete, Duration maxAutoLockRenewDuration, Duration sessionIdleTimeout,
                                ServiceBusReceiveMode mode, LockRenewals renewals, TransactionRegistry transactions, ClientInfo info) {
        this.namespace = namespace;
        this.entity = entity;
        this.processMessage = processMessage;
        this.processError = processError;
        this.sessions = sessions;
        this.callsPerSession = callsPerSession;
        this.autoComplete = autoComplete && mode == ServiceBusReceiveMode.PEEK_LOCK;
        this.maxAutoLockRenewDuration = maxAutoLockRenewDuration;
        this.sessionIdleTimeout = sessionIdleTimeout != null ? sessionIdleTimeout : DEFAULT_SESSION_IDLE_TIMEOUT;
        this.mode = mode;
        this.renewals = renewals;
        this.transactions = transactions;
        this.info = info;
    }

    public synchronized void start() {
        if (!slots.isEmpty()) {
            return;
        }
        for (int i = 0; i < sessions; i++) {
            Slot slot = new Slot();
            slots.add(slot);
            slot.start("sbemu-session-processor-" + info.entityPath() + "-" + i);
        }
    }

    /** Stops every slot, releasing the sessions they hold; {@link #start()} starts new ones. */
    public void stop() {
        List<Slot> stopping;
        synchronized (this) {
            stopping = new ArrayList<>(slots);
            slots.clear();
        }
        WorkerThread.stopAll(stopping, ProcessorImpl.STOP_WAIT);
    }

    public void close() {
        stop();
    }

    public synchronized boolean isRunning() {
        return !slots.isEmpty();
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
        return "ServiceBusProcessorClient[emulated, sessions, " + info.entityPath() + "]";
    }

    /** One concurrent session: accept, drain, let go, repeat. */
    private final class Slot extends WorkerThread {

        @Override
        public void run() {
            ExecutorService handlers = callsPerSession > 1 ? Executors.newFixedThreadPool(callsPerSession, r -> {
                Thread t = new Thread(r, threadName() + "-call");
                t.setDaemon(true);
                return t;
            }) : null;
            try {
                SessionLock next = null;
                while (!isStopped()) {
                    SessionLock lock = next != null ? next : accept(ACCEPT_WAIT);
                    next = null;
                    if (lock != null) {
                        next = process(lock, handlers);
                    }
                }
                if (next != null) {
                    release(next);
                }
            } finally {
                if (handlers != null) {
                    handlers.shutdownNow();
                }
            }
        }

        /** Handles the session until it idles or the slot stops; returns the next session when it switched. */
        private SessionLock process(SessionLock lock, ExecutorService handlers) {
            ReceiverAsyncClientImpl receiver = Receivers.forSession(namespace, lock, mode, info, renewals,
                    transactions);
            ServiceBusReceiverAsyncClient client = SdkMocks.delegatingTo(ServiceBusReceiverAsyncClient.class,
                    receiver);
            // as for a message lock: the session lock check and the renewal's start are one step against advances
            LockRenewals.Renewal renewal = renewals.startIfHeld(lock.lockedUntil(), maxAutoLockRenewDuration,
                    () -> namespace.renewSessionLock(lock), e -> { }, () -> { });
            if (renewal == null) {
                receiver.close(); // the session lock lapsed since the accept: the session is free again
                return null;
            }
            Instant lastActivity = renewals.now();
            SessionLock next = null;
            try {
                while (!isStopped()) {
                    List<BrokeredMessage> taken;
                    try {
                        taken = receive(receiver);
                    } catch (BrokerException e) {
                        notifyError(ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, info));
                        break;
                    }
                    if (!taken.isEmpty()) {
                        handleAll(taken, receiver, client, handlers);
                        lastActivity = renewals.now();
                        continue;
                    }
                    next = accept(Duration.ZERO);
                    if (next != null || !renewals.now().isBefore(lastActivity.plus(sessionIdleTimeout))) {
                        break;
                    }
                }
            } finally {
                renewal.cancel();
                receiver.close();
            }
            return next;
        }

        private List<BrokeredMessage> receive(ReceiverAsyncClientImpl receiver) {
            if (!enterBlocking()) {
                return List.of();
            }
            try {
                return receiver.receiveBatch(callsPerSession, POLL);
            } finally {
                leaveBlocking();
            }
        }

        private void handleAll(List<BrokeredMessage> taken, ReceiverAsyncClientImpl receiver,
                               ServiceBusReceiverAsyncClient client, ExecutorService handlers) {
            if (handlers == null || taken.size() == 1) {
                taken.forEach(m -> handleOrHandBack(m, receiver, client));
                return;
            }
            List<Future<?>> running = new ArrayList<>(taken.size());
            taken.forEach(m -> running.add(handlers.submit(() -> handleOrHandBack(m, receiver, client))));
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (java.util.concurrent.ExecutionException e) {
                    // handle() reports handler failures itself
                }
            }
        }

        private void handleOrHandBack(BrokeredMessage m, ReceiverAsyncClientImpl receiver,
                                      ServiceBusReceiverAsyncClient client) {
            if (isStopped()) {
                receiver.handBack(m);
                return;
            }
            ServiceBusReceivedMessage message = WireCodec.toReceived(m);
            Exception error = null;
            try {
                processMessage.accept(SdkAccess.receivedMessageContext(client, message));
            } catch (Exception e) {
                error = e;
                notifyError(new ServiceBusException(e, ServiceBusErrorSource.USER_CALLBACK));
            }
            if (autoComplete && !SdkAccess.isSettled(message)) {
                try {
                    (error == null ? client.complete(message) : client.abandon(message)).block();
                } catch (RuntimeException ignored) {
                    // the SDK logs and ignores a failed auto-completion
                }
            }
        }

        /** The next free session, waiting up to {@code wait}; null when none (or stopped). */
        private SessionLock accept(Duration wait) {
            if (!enterBlocking()) {
                return null;
            }
            try {
                return namespace.acceptSession(entity, null, wait);
            } catch (BrokerException.ServiceTimeout timeout) {
                return null; // the SDK retries the service's timeout
            } catch (BrokerException e) {
                leaveBlocking();
                notifyError(ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, info));
                backOff(BACKOFF);
                return null;
            } finally {
                leaveBlocking();
            }
        }

        private void release(SessionLock lock) {
            try {
                namespace.releaseSession(lock);
            } catch (BrokerException ignored) {
                // the entity is gone: nothing is held
            }
        }
    }

    private void notifyError(Throwable error) {
        try {
            processError.accept(SdkAccess.errorContext(error, info.fullyQualifiedNamespace(), info.entityPath()));
        } catch (RuntimeException ignored) {
            // the SDK ignores exceptions thrown by the error handler
        }
    }
}
