package dev.sbemu.sdk.internal;

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
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * {@code ServiceBusReceiverAsyncClient} backed by the core, for a queue, a subscription, one of their
 * sub-queues, or one accepted session ({@link ReceiverBinding}). Operations are lazy like the SDK's,
 * check their arguments and the client state in the SDK's order with the SDK's messages, and emit
 * SDK exceptions with the SDK's error sources. The peek cursor is per client (PEEK-2).
 */
public final class ReceiverAsyncClientImpl {
    private final ReceiverBinding binding;
    private final ServiceBusReceiveMode mode;
    private final ReceiveMode coreMode;
    private final ClientInfo info;
    private final LockRenewals renewals;
    private final TransactionRegistry transactions;
    private final CoreCalls calls;
    private final AtomicLong lastPeekedSequenceNumber = new AtomicLong(-1);
    private final Set<ReceiveLoop> loops = ConcurrentHashMap.newKeySet();
    private final Set<LockRenewals.Renewal> activeRenewals = ConcurrentHashMap.newKeySet();
    /** Lock tokens of the peek-lock messages this client took from its receive link, not yet settled (PAR-3). */
    private final Set<UUID> onLink = ConcurrentHashMap.newKeySet();

    ReceiverAsyncClientImpl(
            ClientContext context, ReceiverBinding binding, ServiceBusReceiveMode mode, ClientInfo info) {
        this.binding = binding;
        this.mode = mode;
        this.coreMode = mode == ServiceBusReceiveMode.RECEIVE_AND_DELETE
                ? ReceiveMode.RECEIVE_AND_DELETE
                : ReceiveMode.PEEK_LOCK;
        this.info = info;
        this.renewals = context.renewals();
        this.transactions = context.transactions();
        this.calls = CoreCalls.receiver(info);
    }

    ReceiverBinding binding() {
        return binding;
    }

    ServiceBusReceiveMode mode() {
        return mode;
    }

    CoreCalls calls() {
        return calls;
    }

    public String getFullyQualifiedNamespace() {
        return info.fullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return info.entityPath();
    }

    public String getSessionId() {
        return binding.sessionId();
    }

    public String getIdentifier() {
        return info.identifier();
    }

    // ---- settlement ---------------------------------------------------------------------------

    public Mono<Void> complete(ServiceBusReceivedMessage message) {
        return settle(message, Disposition.COMPLETED, null, null, null, null);
    }

    public Mono<Void> complete(ServiceBusReceivedMessage message, CompleteOptions options) {
        RuntimeException invalid = checkOptions(
                options, options == null ? null : options.getTransactionContext(), "'options' cannot be null.");
        return invalid != null
                ? Mono.error(invalid)
                : settle(message, Disposition.COMPLETED, options.getTransactionContext(), null, null, null);
    }

    public Mono<Void> abandon(ServiceBusReceivedMessage message) {
        return settle(message, Disposition.ABANDONED, null, Map.of(), null, null);
    }

    public Mono<Void> abandon(ServiceBusReceivedMessage message, AbandonOptions options) {
        RuntimeException invalid = checkOptions(
                options,
                options == null ? null : options.getTransactionContext(),
                "'settlementOptions' cannot be null.");
        return invalid != null
                ? Mono.error(invalid)
                : settle(
                        message,
                        Disposition.ABANDONED,
                        options.getTransactionContext(),
                        properties(options.getPropertiesToModify()),
                        null,
                        null);
    }

    public Mono<Void> defer(ServiceBusReceivedMessage message) {
        return settle(message, Disposition.DEFERRED, null, Map.of(), null, null);
    }

    public Mono<Void> defer(ServiceBusReceivedMessage message, DeferOptions options) {
        RuntimeException invalid = checkOptions(
                options, options == null ? null : options.getTransactionContext(), "'options' cannot be null.");
        return invalid != null
                ? Mono.error(invalid)
                : settle(
                        message,
                        Disposition.DEFERRED,
                        options.getTransactionContext(),
                        properties(options.getPropertiesToModify()),
                        null,
                        null);
    }

    public Mono<Void> deadLetter(ServiceBusReceivedMessage message) {
        return deadLetter(message, new DeadLetterOptions());
    }

    public Mono<Void> deadLetter(ServiceBusReceivedMessage message, DeadLetterOptions options) {
        RuntimeException invalid = checkOptions(
                options, options == null ? null : options.getTransactionContext(), "'options' cannot be null.");
        return invalid != null
                ? Mono.error(invalid)
                : settle(
                        message,
                        Disposition.SUSPENDED,
                        options.getTransactionContext(),
                        properties(options.getPropertiesToModify()),
                        options.getDeadLetterReason(),
                        options.getDeadLetterErrorDescription());
    }

    private static Map<String, Object> properties(Map<String, Object> propertiesToModify) {
        return propertiesToModify == null ? Map.of() : propertiesToModify;
    }

    /** The SDK's eager checks of settlement options, with its messages. */
    private static RuntimeException checkOptions(
            Object options, ServiceBusTransactionContext context, String nullOptions) {
        if (options == null) {
            return new NullPointerException(nullOptions);
        }
        if (context != null && context.getTransactionId() == null) {
            return new NullPointerException("'options.transactionContext.transactionId' cannot be null.");
        }
        return null;
    }

    /**
     * Settles by lock token on the receiver's entity, in the context's transaction when one is given; the
     * dead-letter reason and description are used only by a dead-lettering.
     */
    private Mono<Void> settle(
            ServiceBusReceivedMessage message,
            Disposition disposition,
            ServiceBusTransactionContext contextOrNull,
            Map<String, Object> properties,
            String reason,
            String description) {
        return calls.call(disposition.value, disposition.errorSource, () -> {
            if (message == null) {
                throw new NullPointerException("'message' cannot be null.");
            }
            if (mode != ServiceBusReceiveMode.PEEK_LOCK) {
                throw new UnsupportedOperationException(String.format(
                        "'%s' is not supported on a receiver opened in ReceiveMode.RECEIVE_AND_DELETE.", disposition));
            }
            if (SdkAccess.isSettled(message)) {
                throw new IllegalArgumentException("The message has either been deleted or already settled.");
            }
            if (message.getLockToken() == null) {
                throw new UnsupportedOperationException("This operation is not supported for peeked "
                        + "messages. Only messages received using receiveMessages() in PEEK_LOCK mode can be settled.");
            }
            MessageOperations target = transactions.target(contextOrNull);
            UUID lockToken = UUID.fromString(message.getLockToken());
            EntityPath entity = binding.entity();
            try {
                switch (disposition) {
                    case COMPLETED -> target.complete(entity, lockToken);
                    case ABANDONED -> target.abandon(entity, lockToken, properties);
                    case DEFERRED -> target.defer(entity, lockToken, properties);
                    case SUSPENDED -> target.deadLetter(entity, lockToken, reason, description, properties);
                }
            } catch (BrokerException refused) {
                if (!(disposition == Disposition.SUSPENDED && contextOrNull == null && onLink.contains(lockToken))) {
                    throw refused;
                }
                // PAR-3: the refusal comes back as a Rejected outcome, the outcome a dead-letter asks for
            }
            onLink.remove(lockToken);
            SdkAccess.markSettled(message);
            return null;
        });
    }

    /** The SDK's {@code DispositionStatus}: its name in messages, its value in "disposed" errors. */
    private enum Disposition {
        COMPLETED("completed", ServiceBusErrorSource.COMPLETE),
        DEFERRED("defered", ServiceBusErrorSource.UNKNOWN),
        SUSPENDED("suspended", ServiceBusErrorSource.UNKNOWN),
        ABANDONED("abandoned", ServiceBusErrorSource.ABANDON);

        final String value;
        final ServiceBusErrorSource errorSource;

        Disposition(String value, ServiceBusErrorSource errorSource) {
            this.value = value;
            this.errorSource = errorSource;
        }
    }

    // ---- peek ---------------------------------------------------------------------------------

    public Mono<ServiceBusReceivedMessage> peekMessage() {
        return calls.call("peek", ServiceBusErrorSource.RECEIVE, () -> {
            List<BrokeredMessage> peeked = binding.peek(lastPeekedSequenceNumber.get() + 1, 1);
            advanceCursor(peeked);
            return peeked.isEmpty() ? null : WireCodec.toReceived(peeked.get(0));
        });
    }

    public Mono<ServiceBusReceivedMessage> peekMessage(long sequenceNumber) {
        return calls.call("peekAt", ServiceBusErrorSource.RECEIVE, () -> {
            List<BrokeredMessage> peeked = binding.peek(sequenceNumber, 1);
            return peeked.isEmpty() ? null : WireCodec.toReceived(peeked.get(0));
        });
    }

    public Flux<ServiceBusReceivedMessage> peekMessages(int maxMessages) {
        return calls.callMany("peekBatch", ServiceBusErrorSource.RECEIVE, () -> {
            checkPositive(maxMessages);
            List<BrokeredMessage> peeked = binding.peek(lastPeekedSequenceNumber.get() + 1, maxMessages);
            advanceCursor(peeked);
            return received(peeked);
        });
    }

    public Flux<ServiceBusReceivedMessage> peekMessages(int maxMessages, long sequenceNumber) {
        return calls.callMany("peekBatchAt", ServiceBusErrorSource.RECEIVE, () -> {
            checkPositive(maxMessages);
            return received(binding.peek(sequenceNumber, maxMessages));
        });
    }

    private static void checkPositive(int maxMessages) {
        if (maxMessages <= 0) {
            throw new IllegalArgumentException("'maxMessages' is not positive.");
        }
    }

    private void advanceCursor(List<BrokeredMessage> peeked) {
        for (BrokeredMessage m : peeked) {
            lastPeekedSequenceNumber.accumulateAndGet(m.sequenceNumber(), Math::max);
        }
    }

    // ---- receive ------------------------------------------------------------------------------

    /** The endless stream of messages (see {@link ReceiveLoop}). */
    public Flux<ServiceBusReceivedMessage> receiveMessages() {
        if (calls.isClosed()) {
            return Flux.error(calls.disposed("receiveMessages"));
        }
        return ReceiveLoop.flux(
                wait -> fromLink(binding.receive(coreMode, 1, wait)),
                this::handBack,
                e -> calls.map(e, ServiceBusErrorSource.RECEIVE),
                loops::add,
                loops::remove);
    }

    /** Receives what LOCK-3 gives: what is available now, else the first to arrive within {@code maxWait}. */
    List<BrokeredMessage> receiveBatch(int maxMessages, Duration maxWait) {
        return fromLink(binding.receive(coreMode, maxMessages, maxWait));
    }

    /** As {@link #receiveBatch(int, Duration)}, a wait in the core ended by {@code cancellation} or by closing. */
    List<BrokeredMessage> receiveBatch(int maxMessages, Duration maxWait, Cancellation cancellation) {
        Runnable unregister = binding.closing.onCancel(cancellation::cancel);
        try {
            if (binding.closing.isCancelled()) {
                cancellation.cancel();
            }
            return fromLink(binding.receive(coreMode, maxMessages, maxWait, cancellation));
        } finally {
            unregister.run();
        }
    }

    /**
     * Notes the lock tokens of messages taken as the SDK takes them from its receive link (not through
     * {@code $management}): the SDK settles those on the link (PAR-3).
     */
    private List<BrokeredMessage> fromLink(List<BrokeredMessage> taken) {
        for (BrokeredMessage m : taken) {
            if (m.lockToken() != null) {
                onLink.add(m.lockToken());
            }
        }
        return taken;
    }

    /** A message taken after its receiver stopped goes back to the entity uncounted (the SDK releases it). */
    void handBack(BrokeredMessage message) {
        if (message.lockToken() != null) {
            onLink.remove(message.lockToken());
            try {
                binding.release(message.lockToken());
            } catch (RuntimeException ignored) {
                // the lock is gone already: the message is available again
            }
        }
    }

    public Mono<ServiceBusReceivedMessage> receiveDeferredMessage(long sequenceNumber) {
        return calls.call("receiveDeferredMessage", ServiceBusErrorSource.RECEIVE, () -> {
            List<BrokeredMessage> taken = receiveDeferred(List.of(sequenceNumber));
            if (taken.isEmpty()) {
                // the SDK reads the service's message-not-found as an empty answer, then takes last() of it
                throw new NoSuchElementException("Flux#last() didn't observe any onNext signal");
            }
            return WireCodec.toReceived(taken.get(taken.size() - 1));
        });
    }

    public Flux<ServiceBusReceivedMessage> receiveDeferredMessages(Iterable<Long> sequenceNumbers) {
        return calls.callMany("receiveDeferredMessageBatch", ServiceBusErrorSource.RECEIVE, () -> {
            if (sequenceNumbers == null) {
                throw new NullPointerException("'sequenceNumbers' cannot be null");
            }
            List<Long> numbers = new ArrayList<>();
            sequenceNumbers.forEach(numbers::add);
            return numbers.isEmpty() ? List.of() : received(receiveDeferred(numbers));
        });
    }

    /**
     * DLQ-7: the service fails a receive by sequence number of a message that is no deferred message to take (404
     * {@code com.microsoft:message-not-found}); the SDK's {@code ManagementChannel.sendWithVerify} reads that answer
     * as an empty one, so the caller sees no message.
     */
    private List<BrokeredMessage> receiveDeferred(List<Long> numbers) {
        try {
            return binding.receiveDeferred(coreMode, numbers);
        } catch (BrokerException.MessageNotFound notFound) {
            return List.of();
        }
    }

    // ---- locks --------------------------------------------------------------------------------

    public Mono<OffsetDateTime> renewMessageLock(ServiceBusReceivedMessage message) {
        return calls.call("renewMessageLock", ServiceBusErrorSource.RENEW_LOCK, () -> {
            RuntimeException invalid = checkRenewable(message, "renewMessageLock");
            if (invalid != null) {
                throw invalid;
            }
            return binding.renewLock(UUID.fromString(message.getLockToken())).atOffset(ZoneOffset.UTC);
        });
    }

    /**
     * Renews the message's lock on the virtual clock until {@code maxLockRenewalDuration} has passed
     * (virtual time); completes then, or fails when a renewal fails. Starts at once, as the SDK's does.
     */
    public Mono<Void> renewMessageLock(ServiceBusReceivedMessage message, Duration maxLockRenewalDuration) {
        RuntimeException invalid = checkRenewable(message, "getAutoRenewMessageLock");
        if (invalid == null && maxLockRenewalDuration == null) {
            invalid = new NullPointerException("'maxLockRenewalDuration' cannot be null.");
        } else if (invalid == null && maxLockRenewalDuration.isNegative()) {
            invalid = new IllegalArgumentException("'maxLockRenewalDuration' cannot be negative.");
        }
        if (invalid != null) {
            return Mono.error(invalid);
        }
        UUID token = UUID.fromString(message.getLockToken());
        return autoRenew(maxLockRenewalDuration, () -> binding.renewLock(token));
    }

    /** Renews a lock on the virtual clock, from now, until {@code maxDuration} (virtual) has passed. */
    private Mono<Void> autoRenew(Duration maxDuration, Supplier<Instant> renew) {
        Sinks.Empty<Void> done = Sinks.empty();
        LockRenewals.Renewal[] renewal = new LockRenewals.Renewal[1];
        renewal[0] = renewals.start(
                renewals.now(),
                maxDuration,
                renew,
                e -> {
                    activeRenewals.remove(renewal[0]);
                    done.tryEmitError(calls.map(e, ServiceBusErrorSource.RENEW_LOCK));
                },
                () -> {
                    activeRenewals.remove(renewal[0]);
                    done.tryEmitEmpty();
                });
        activeRenewals.add(renewal[0]);
        return done.asMono();
    }

    private RuntimeException checkRenewable(ServiceBusReceivedMessage message, String operation) {
        if (calls.isClosed()) {
            return calls.disposed(operation);
        }
        if (binding.sessionId() != null) {
            return new IllegalStateException(
                    "Renewing message lock is an invalid operation when working with " + "sessions.");
        }
        if (message == null) {
            return new NullPointerException("'message' cannot be null.");
        }
        if (message.getLockToken() == null) {
            return new NullPointerException("'message.getLockToken()' cannot be null.");
        }
        if (message.getLockToken().isEmpty()) {
            return new IllegalArgumentException("'message.getLockToken()' cannot be empty.");
        }
        return null;
    }

    // ---- sessions -----------------------------------------------------------------------------

    public Mono<OffsetDateTime> renewSessionLock() {
        return calls.call(
                "renewSessionLock",
                ServiceBusErrorSource.RENEW_LOCK,
                () -> binding.renewSessionLock("Cannot renew session lock on a non-session receiver.")
                        .atOffset(ZoneOffset.UTC));
    }

    /**
     * Renews the session lock on the virtual clock until {@code maxLockRenewalDuration} has passed
     * (virtual time), as the SDK's {@code LockRenewalOperation} does on real time; completes then, or
     * fails with SESSION_LOCK_LOST when a renewal fails.
     */
    public Mono<Void> renewSessionLock(Duration maxLockRenewalDuration) {
        RuntimeException invalid = null;
        if (calls.isClosed()) {
            invalid = calls.disposed("renewSessionLock");
        } else if (binding.sessionId() == null) {
            invalid = new IllegalStateException("Cannot renew session lock on a non-session receiver.");
        } else if (maxLockRenewalDuration == null) {
            invalid = new NullPointerException("'maxLockRenewalDuration' cannot be null.");
        } else if (maxLockRenewalDuration.isNegative()) {
            invalid = new IllegalArgumentException("'maxLockRenewalDuration' cannot be negative.");
        }
        if (invalid != null) {
            return Mono.error(invalid);
        }
        return autoRenew(maxLockRenewalDuration, () -> binding.renewSessionLock(null));
    }

    public Mono<byte[]> getSessionState() {
        return calls.call(
                "getSessionState",
                ServiceBusErrorSource.RECEIVE,
                () -> binding.getSessionState("Cannot get session state on a non-session receiver."));
    }

    public Mono<Void> setSessionState(byte[] sessionState) {
        return calls.call("setSessionState", ServiceBusErrorSource.RECEIVE, () -> {
            binding.setSessionState("Cannot set session state on a non-session receiver.", sessionState);
            return null;
        });
    }

    // ---- transactions (TXN-1) -------------------------------------------------------------------

    public Mono<ServiceBusTransactionContext> createTransaction() {
        return transactions.create(calls, ServiceBusErrorSource.RECEIVE);
    }

    public Mono<Void> commitTransaction(ServiceBusTransactionContext transactionContext) {
        return transactions.commit(calls, ServiceBusErrorSource.RECEIVE, transactionContext);
    }

    public Mono<Void> rollbackTransaction(ServiceBusTransactionContext transactionContext) {
        return transactions.rollback(calls, ServiceBusErrorSource.RECEIVE, transactionContext);
    }

    // ---- lifecycle ----------------------------------------------------------------------------

    public void close() {
        if (!calls.close()) {
            return;
        }
        loops.forEach(ReceiveLoop::complete);
        onLink.clear();
        activeRenewals.forEach(LockRenewals.Renewal::cancel);
        activeRenewals.clear();
        binding.close();
    }

    boolean isClosed() {
        return calls.isClosed();
    }

    @Override
    public String toString() {
        return "ServiceBusReceiverAsyncClient[emulated, " + info.entityPath() + ", " + mode + "]";
    }

    private static List<ServiceBusReceivedMessage> received(List<BrokeredMessage> messages) {
        List<ServiceBusReceivedMessage> received = new ArrayList<>(messages.size());
        messages.forEach(m -> received.add(WireCodec.toReceived(m)));
        return received;
    }
}
