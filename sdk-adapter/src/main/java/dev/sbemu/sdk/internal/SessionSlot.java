package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.SessionLock;
import dev.sbemu.sdk.ProcessorOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One of a session processor's {@code maxConcurrentSessions} threads: accepts a session, runs the
 * {@link MessagePump} on it, handling up to {@code maxConcurrentCalls} of its messages at once, lets it go, and
 * repeats. The session lock is renewed on the virtual clock up to {@code maxAutoLockRenewDuration}. The slot lets
 * go of its session when the session has had nothing to deliver for the session idle timeout (SES-6: the
 * builder's {@code sessionIdleTimeout}, by default its one-minute try-timeout, in virtual time), or at once when
 * it has nothing to deliver and another session is waiting for a receiver, so that a test need not move the
 * clock to have every session processed. A receive error lets go of the session; an accept error is followed
 * by the SDK's back-off (5 s, real time).
 */
final class SessionSlot extends WorkerThread {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration ACCEPT_WAIT = Duration.ofSeconds(30);
    /** The SDK's default session idle timeout: its try-timeout. */
    private static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(1);

    private static final Duration BACKOFF = Duration.ofSeconds(5);

    private final EntityPath entity;
    private final ProcessorOptions options;
    private final ClientContext context;
    private final ClientInfo info;
    private final MessagePump pump;
    private final Duration sessionIdleTimeout;

    SessionSlot(EntityPath entity, ProcessorOptions options, ClientContext context, ClientInfo info, MessagePump pump) {
        this.entity = entity;
        this.options = options;
        this.context = context;
        this.info = info;
        this.pump = pump;
        this.sessionIdleTimeout =
                options.sessionIdleTimeout() != null ? options.sessionIdleTimeout() : DEFAULT_SESSION_IDLE_TIMEOUT;
    }

    @Override
    public void run() {
        int calls = options.maxConcurrentCalls();
        ExecutorService handlers = calls > 1
                ? Executors.newFixedThreadPool(calls, r -> {
                    Thread t = new Thread(r, threadName() + "-call");
                    t.setDaemon(true);
                    return t;
                })
                : null;
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
        LockRenewals renewals = context.renewals();
        ReceiverAsyncClientImpl receiver = context.receiver(lock, options.receiveMode(), info);
        ServiceBusReceiverAsyncClient client = SdkInstances.delegatingTo(ServiceBusReceiverAsyncClient.class, receiver);
        // as for a message lock: the session lock check and the renewal's start are one step against advances
        LockRenewals.Renewal renewal = renewals.startIfHeld(
                lock.lockedUntil(),
                options.maxAutoLockRenewDuration(),
                () -> context.namespace().renewSessionLock(lock),
                e -> {},
                () -> {});
        if (renewal == null) {
            receiver.close(); // the session lock lapsed since the accept: the session is free again
            return null;
        }
        Instant lastActivity = renewals.now();
        SessionLock next = null;
        try {
            while (!isStopped()) {
                MessagePump.Turn turn = pump.turn(this, receiver, client, options.maxConcurrentCalls(), POLL, handlers);
                if (turn == MessagePump.Turn.FAILED || turn == MessagePump.Turn.CLOSED) {
                    break;
                }
                if (turn == MessagePump.Turn.TOOK) {
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

    /** The next free session, waiting up to {@code wait}; null when none (or stopped). */
    private SessionLock accept(Duration wait) {
        if (!enterBlocking()) {
            return null;
        }
        try {
            return context.namespace().acceptSession(entity, null, wait);
        } catch (BrokerException.ServiceTimeout timeout) {
            return null; // the SDK retries the service's timeout
        } catch (BrokerException e) {
            leaveBlocking();
            pump.notifyError(ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, info));
            backOff(BACKOFF);
            return null;
        } finally {
            leaveBlocking();
        }
    }

    private void release(SessionLock lock) {
        try {
            context.namespace().releaseSession(lock);
        } catch (BrokerException ignored) {
            // the entity is gone: nothing is held
        }
    }
}
