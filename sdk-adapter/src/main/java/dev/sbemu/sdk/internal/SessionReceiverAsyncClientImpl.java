package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.SessionLock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code ServiceBusSessionReceiverAsyncClient} (SES-2): accepts a session of a session-enabled queue or
 * subscription and hands out a receiver bound to it. As in the SDK, {@link #acceptNextSession()} waits
 * until a session is free however long that takes (it retries the service's one-minute timeout),
 * while {@link #acceptSession(String)} fails at once when another receiver holds the session. Refusals
 * surface as the SDK's AMQP layer raises them, unwrapped: {@code AmqpException} with condition
 * {@code com.microsoft:session-cannot-be-locked} or {@code amqp:not-found}, and
 * {@code UnsupportedOperationException} for an entity that does not require sessions (SES-5).
 * Cancelling an accept interrupts the wait; a session locked after cancellation is released.
 * {@link #close()} ends a pending accept at once ("disposed receiver"), and closes (and so releases)
 * every session receiver this client accepted.
 */
public final class SessionReceiverAsyncClientImpl {
    /** The operation a closed client's accept names (the SDK's, for both accept methods). */
    private static final String ACCEPT = "acceptSession";

    private final ClientContext context;
    private final EntityPath entity;
    private final ServiceBusReceiveMode mode;
    private final Duration tryTimeout;
    private final CoreCalls calls;
    private final Set<ReceiverAsyncClientImpl> accepted = ConcurrentHashMap.newKeySet();
    /** Ends a pending accept when the client closes. */
    private final Cancellation closing = new Cancellation();

    public SessionReceiverAsyncClientImpl(
            ClientContext context, EntityPath entity, ServiceBusReceiveMode mode, Duration tryTimeout) {
        this.context = context;
        this.entity = entity;
        this.mode = mode;
        this.tryTimeout = tryTimeout;
        this.calls = CoreCalls.receiver(context.info(entity));
    }

    public Mono<ServiceBusReceiverAsyncClient> acceptNextSession() {
        return accept(null);
    }

    public Mono<ServiceBusReceiverAsyncClient> acceptSession(String sessionId) {
        if (sessionId == null) {
            return Mono.error(new NullPointerException("'sessionId' cannot be null"));
        }
        if (sessionId.isEmpty()) {
            return Mono.error(new IllegalArgumentException("'sessionId' cannot be empty"));
        }
        return accept(sessionId);
    }

    private Mono<ServiceBusReceiverAsyncClient> accept(String sessionId) {
        return Mono.create(sink -> {
            AtomicBoolean cancelled = new AtomicBoolean();
            AtomicReference<Thread> waiting = new AtomicReference<>();
            sink.onCancel(() -> {
                cancelled.set(true);
                Thread thread = waiting.get();
                if (thread != null) {
                    thread.interrupt();
                }
            });
            Schedulers.boundedElastic().schedule(() -> {
                waiting.set(Thread.currentThread());
                try {
                    ReceiverAsyncClientImpl receiver = acceptRetrying(sessionId, cancelled);
                    waiting.set(null);
                    Thread.interrupted(); // a late cancel must not leak into the pooled thread
                    if (receiver == null) {
                        return;
                    }
                    if (cancelled.get()) {
                        receiver.close();
                        return;
                    }
                    sink.success(SdkInstances.delegatingTo(ServiceBusReceiverAsyncClient.class, receiver));
                } catch (RuntimeException e) {
                    waiting.set(null);
                    Thread.interrupted();
                    sink.error(e instanceof BrokerException broker ? calls.amqp(broker) : e);
                }
            });
        });
    }

    /** Accepts, retrying the service's timeout while not cancelled; null when cancelled. */
    private ReceiverAsyncClientImpl acceptRetrying(String sessionId, AtomicBoolean cancelled) {
        while (!cancelled.get()) {
            try {
                return acceptBlocking(sessionId, tryTimeout);
            } catch (BrokerException.ServiceTimeout timeout) {
                // the SDK's async session acquirer retries the service's timeout indefinitely
            }
        }
        return null;
    }

    /**
     * Locks a session (the named one, or the next free one waiting up to {@code maxWait} in real
     * time) and returns a receiver on it; throws the core's refusal.
     */
    ReceiverAsyncClientImpl acceptBlocking(String sessionId, Duration maxWait) {
        calls.checkOpen(ACCEPT);
        SessionBinding openLink =
                sessionId == null ? null : context.sessionLinks().find(entity, sessionId);
        ReceiverAsyncClientImpl receiver;
        if (openLink != null) {
            // PAR-4: the SDK hands back the open link named after the session, without asking the service
            receiver = context.receiver(openLink, mode, calls.info());
        } else {
            SessionLock lock;
            try {
                lock = context.namespace().acceptSession(entity, sessionId, maxWait, closing);
            } catch (CancellationException closedMeanwhile) {
                throw calls.disposed(ACCEPT);
            }
            receiver = context.receiver(lock, mode, calls.info());
        }
        accepted.removeIf(ReceiverAsyncClientImpl::isClosed);
        accepted.add(receiver);
        if (calls.isClosed()) {
            receiver.close();
            throw calls.disposed(ACCEPT);
        }
        return receiver;
    }

    CoreCalls calls() {
        return calls;
    }

    public void close() {
        if (!calls.close()) {
            return;
        }
        closing.cancel();
        accepted.forEach(ReceiverAsyncClientImpl::close);
        accepted.clear();
    }

    @Override
    public String toString() {
        return "ServiceBusSessionReceiverAsyncClient[emulated, " + calls.info().entityPath() + ", " + mode + "]";
    }
}
