package dev.sbemu.sdk.internal;

import com.azure.core.amqp.exception.AmqpException;
import com.azure.core.util.IterableStream;
import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.CompleteOptions;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.DeferOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import reactor.core.publisher.Flux;

/**
 * {@code ServiceBusReceiverClient}: blocks on the async implementation as the SDK's sync client does,
 * except {@code receiveMessages(n, maxWait)}, which takes what LOCK-3 gives straight from the core:
 * what is available at once, else the first message to arrive within {@code maxWait} (real time).
 * Closing the client ends such a receive at once, having taken nothing, with the SDK's
 * "receiver client is terminated" error when the result is iterated.
 */
public final class ReceiverClientImpl {
    /**
     * What the SDK's synchronous receiver ends a pending {@code receiveMessages} with when the client is
     * closed meanwhile (its {@code SynchronousReceiver} and azure-core-amqp's {@code WindowedSubscriber}).
     */
    static final String TERMINATED = terminated("downstream-cancel");

    private static String terminated(String reason) {
        return "The receiver client is terminated. Re-create the client to continue receive attempt. (Reason: " + reason
                + ")";
    }

    private final ReceiverAsyncClientImpl async;
    private final Duration operationTimeout;
    /** PAR-2: the error that ended the receive stream; every later receive ends with it. */
    private final AtomicReference<RuntimeException> terminal = new AtomicReference<>();
    /** PAR-5: the link credit a receive-and-delete receiver leaves out between receives; null in peek-lock. */
    private final LeftoverCredit leftover;

    public ReceiverClientImpl(ReceiverAsyncClientImpl async, Duration operationTimeout) {
        this.async = async;
        this.operationTimeout = operationTimeout;
        this.leftover = async.mode() == ServiceBusReceiveMode.RECEIVE_AND_DELETE ? new LeftoverCredit(async) : null;
    }

    public String getFullyQualifiedNamespace() {
        return async.getFullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return async.getEntityPath();
    }

    public String getSessionId() {
        return async.getSessionId();
    }

    public String getIdentifier() {
        return async.getIdentifier();
    }

    public void abandon(ServiceBusReceivedMessage message) {
        async.abandon(message).block();
    }

    public void abandon(ServiceBusReceivedMessage message, AbandonOptions options) {
        async.abandon(message, options).block();
    }

    public void complete(ServiceBusReceivedMessage message) {
        async.complete(message).block();
    }

    public void complete(ServiceBusReceivedMessage message, CompleteOptions options) {
        async.complete(message, options).block();
    }

    public void defer(ServiceBusReceivedMessage message) {
        async.defer(message).block();
    }

    public void defer(ServiceBusReceivedMessage message, DeferOptions options) {
        async.defer(message, options).block();
    }

    public void deadLetter(ServiceBusReceivedMessage message) {
        async.deadLetter(message).block();
    }

    public void deadLetter(ServiceBusReceivedMessage message, DeadLetterOptions options) {
        async.deadLetter(message, options).block();
    }

    public byte[] getSessionState() {
        return async.getSessionState().block();
    }

    public void setSessionState(byte[] sessionState) {
        async.setSessionState(sessionState).block();
    }

    public OffsetDateTime renewSessionLock() {
        return async.renewSessionLock().block();
    }

    public ServiceBusReceivedMessage peekMessage() {
        return async.peekMessage().block();
    }

    public ServiceBusReceivedMessage peekMessage(long sequenceNumber) {
        return async.peekMessage(sequenceNumber).block();
    }

    public IterableStream<ServiceBusReceivedMessage> peekMessages(int maxMessages) {
        checkMaxMessages(maxMessages);
        return eager(async.peekMessages(maxMessages));
    }

    public IterableStream<ServiceBusReceivedMessage> peekMessages(int maxMessages, long sequenceNumber) {
        checkMaxMessages(maxMessages);
        return eager(async.peekMessages(maxMessages, sequenceNumber));
    }

    public IterableStream<ServiceBusReceivedMessage> receiveMessages(int maxMessages) {
        return receiveMessages(maxMessages, operationTimeout);
    }

    /** LOCK-3. Errors surface when the result is iterated, as with the SDK's windowed receive. */
    public IterableStream<ServiceBusReceivedMessage> receiveMessages(int maxMessages, Duration maxWaitTime) {
        checkMaxMessages(maxMessages);
        if (maxWaitTime == null) {
            throw new NullPointerException("'maxWaitTime' cannot be null.");
        }
        if (maxWaitTime.isNegative() || maxWaitTime.isZero()) {
            throw new IllegalArgumentException("'maxWaitTime' cannot be zero or less. maxWaitTime: " + maxWaitTime);
        }
        if (async.isClosed()) {
            return new IterableStream<>(Flux.error(async.calls().disposed("receiveMessages")));
        }
        RuntimeException ended = terminal.get();
        if (ended != null) {
            return new IterableStream<>(Flux.error(ended));
        }
        try {
            List<BrokeredMessage> taken = leftover != null
                    ? leftover.receive(maxMessages, maxWaitTime)
                    : async.receiveBatch(maxMessages, maxWaitTime);
            List<ServiceBusReceivedMessage> received = new ArrayList<>(taken.size());
            taken.forEach(m -> received.add(WireCodec.toReceivedFromLink(m)));
            return new IterableStream<>(received);
        } catch (CancellationException closedMeanwhile) {
            return new IterableStream<>(Flux.error(new RuntimeException(TERMINATED)));
        } catch (BrokerException e) {
            RuntimeException end = terminate(e);
            return new IterableStream<>(
                    Flux.error(end != null ? end : async.calls().map(e, ServiceBusErrorSource.RECEIVE)));
        } catch (RuntimeException e) {
            return new IterableStream<>(Flux.error(async.calls().map(e, ServiceBusErrorSource.RECEIVE)));
        }
    }

    /**
     * PAR-2: what the SDK's synchronous receiver makes of the link's refusal. Over the wire the service detaches
     * the receive link with its error. A session's link ending ends the session's stream without an error
     * ({@code ServiceBusSessionReactorReceiver.getEndpointStates} resumes any error as completion, and its
     * {@code MessageFlux} has no retry policy), so the {@code WindowedSubscriber} closes every window with
     * "(Reason: upstream-completion)"; the session is gone (the endpoint releases it with the link). A non-session
     * link's {@code MessageFlux} retries transient errors and ends with any other: "(Reason: upstream-error)" around
     * the AMQP layer's exception ({@code AmqpException}, or {@code UnsupportedOperationException} for
     * {@code amqp:not-allowed}). Either way the receiver stays terminated. Returns null for a transient error on a
     * non-session receiver: the in-process clients do not retry (FLT-6), so that one call fails as before.
     */
    private RuntimeException terminate(BrokerException e) {
        RuntimeException ended;
        if (async.binding().sessionId() != null) {
            ended = new RuntimeException(terminated("upstream-completion"));
            async.binding().releaseSession();
        } else {
            Exception amqp = async.calls().amqp(e);
            if (amqp instanceof AmqpException a && a.isTransient()) {
                return null;
            }
            ended = new RuntimeException(terminated("upstream-error"), amqp);
        }
        return terminal.compareAndSet(null, ended) ? ended : terminal.get();
    }

    public ServiceBusReceivedMessage receiveDeferredMessage(long sequenceNumber) {
        return async.receiveDeferredMessage(sequenceNumber).block();
    }

    public IterableStream<ServiceBusReceivedMessage> receiveDeferredMessageBatch(Iterable<Long> sequenceNumbers) {
        return eager(async.receiveDeferredMessages(sequenceNumbers));
    }

    public OffsetDateTime renewMessageLock(ServiceBusReceivedMessage message) {
        return async.renewMessageLock(message).block();
    }

    /** Auto-renews on the virtual clock; errors go to {@code onError} (ignored when null, as the SDK logs them). */
    public void renewMessageLock(
            ServiceBusReceivedMessage message, Duration maxLockRenewalDuration, Consumer<Throwable> onError) {
        Consumer<Throwable> errors = onError != null ? onError : error -> {};
        async.renewMessageLock(message, maxLockRenewalDuration).subscribe(v -> {}, errors);
    }

    /** Auto-renews the session lock on the virtual clock; errors go to {@code onError} (ignored when null). */
    public void renewSessionLock(Duration maxLockRenewalDuration, Consumer<Throwable> onError) {
        Consumer<Throwable> errors = onError != null ? onError : error -> {};
        async.renewSessionLock(maxLockRenewalDuration).subscribe(v -> {}, errors);
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
        return "ServiceBusReceiverClient[emulated, " + async.getEntityPath() + ", " + async.mode() + "]";
    }

    private static void checkMaxMessages(int maxMessages) {
        if (maxMessages <= 0) {
            throw new IllegalArgumentException(
                    "'maxMessages' cannot be less than or equal to 0. maxMessages: " + maxMessages);
        }
    }

    /** Runs the operation now and replays its result to every iteration, as the SDK's sync client does. */
    private static <T> IterableStream<T> eager(Flux<T> flux) {
        Flux<T> cached = flux.cache();
        cached.subscribe(v -> {}, e -> {});
        return new IterableStream<>(cached);
    }
}
