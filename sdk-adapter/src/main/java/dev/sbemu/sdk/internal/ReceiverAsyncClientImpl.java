package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.CompleteOptions;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.DeferOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.Transaction;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * {@code ServiceBusReceiverAsyncClient} backed by the core, for a queue, a subscription, one of their
 * sub-queues, or one accepted session ({@link ReceiverSource}). Operations are lazy like the SDK's,
 * check their arguments and the client state in the SDK's order with the SDK's messages, and emit
 * SDK exceptions with the SDK's error sources. The peek cursor is per client (PEEK-2).
 */
public final class ReceiverAsyncClientImpl {
    private final ReceiverSource source;
    private final ServiceBusReceiveMode mode;
    private final ReceiveMode coreMode;
    private final ClientInfo info;
    private final LockRenewals renewals;
    private final TransactionRegistry transactions;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong lastPeekedSequenceNumber = new AtomicLong(-1);
    private final Set<ReceiveLoop> loops = ConcurrentHashMap.newKeySet();
    private final Set<LockRenewals.Renewal> activeRenewals = ConcurrentHashMap.newKeySet();

    public ReceiverAsyncClientImpl(ReceiverSource source, ServiceBusReceiveMode mode, ClientInfo info,
                                   LockRenewals renewals, TransactionRegistry transactions) {
        this.source = source;
        this.mode = mode;
        this.coreMode = mode == ServiceBusReceiveMode.RECEIVE_AND_DELETE ? ReceiveMode.RECEIVE_AND_DELETE
                : ReceiveMode.PEEK_LOCK;
        this.info = info;
        this.renewals = renewals;
        this.transactions = transactions;
    }

    ReceiverSource source() {
        return source;
    }

    ServiceBusReceiveMode mode() {
        return mode;
    }

    ClientInfo info() {
        return info;
    }

    public String getFullyQualifiedNamespace() {
        return info.fullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return info.entityPath();
    }

    public String getSessionId() {
        return source.sessionId();
    }

    public String getIdentifier() {
        return info.identifier();
    }

    // ---- settlement ---------------------------------------------------------------------------

    public Mono<Void> complete(ServiceBusReceivedMessage message) {
        return settle(message, Disposition.COMPLETED, null, (tx, token) -> {
            if (tx == null) {
                source.complete(token);
            } else {
                tx.complete(source.path(), token);
            }
        });
    }

    public Mono<Void> complete(ServiceBusReceivedMessage message, CompleteOptions options) {
        RuntimeException invalid = checkOptions(options, options == null ? null : options.getTransactionContext(),
                "'options' cannot be null.");
        return invalid != null ? Mono.error(invalid) : settle(message, Disposition.COMPLETED,
                options.getTransactionContext(), (tx, token) -> {
                    if (tx == null) {
                        source.complete(token);
                    } else {
                        tx.complete(source.path(), token);
                    }
                });
    }

    public Mono<Void> abandon(ServiceBusReceivedMessage message) {
        return abandon(message, null, Map.of());
    }

    public Mono<Void> abandon(ServiceBusReceivedMessage message, AbandonOptions options) {
        RuntimeException invalid = checkOptions(options, options == null ? null : options.getTransactionContext(),
                "'settlementOptions' cannot be null.");
        return invalid != null ? Mono.error(invalid)
                : abandon(message, options.getTransactionContext(), options.getPropertiesToModify());
    }

    private Mono<Void> abandon(ServiceBusReceivedMessage message, ServiceBusTransactionContext context,
                               Map<String, Object> properties) {
        return settle(message, Disposition.ABANDONED, context, (tx, token) -> {
            if (tx == null) {
                source.abandon(token, properties(properties));
            } else {
                tx.abandon(source.path(), token, properties(properties));
            }
        });
    }

    public Mono<Void> defer(ServiceBusReceivedMessage message) {
        return defer(message, null, Map.of());
    }

    public Mono<Void> defer(ServiceBusReceivedMessage message, DeferOptions options) {
        RuntimeException invalid = checkOptions(options, options == null ? null : options.getTransactionContext(),
                "'options' cannot be null.");
        return invalid != null ? Mono.error(invalid)
                : defer(message, options.getTransactionContext(), options.getPropertiesToModify());
    }

    private Mono<Void> defer(ServiceBusReceivedMessage message, ServiceBusTransactionContext context,
                             Map<String, Object> properties) {
        return settle(message, Disposition.DEFERRED, context, (tx, token) -> {
            if (tx == null) {
                source.defer(token, properties(properties));
            } else {
                tx.defer(source.path(), token, properties(properties));
            }
        });
    }

    public Mono<Void> deadLetter(ServiceBusReceivedMessage message) {
        return deadLetter(message, new DeadLetterOptions());
    }

    public Mono<Void> deadLetter(ServiceBusReceivedMessage message, DeadLetterOptions options) {
        RuntimeException invalid = checkOptions(options, options == null ? null : options.getTransactionContext(),
                "'options' cannot be null.");
        if (invalid != null) {
            return Mono.error(invalid);
        }
        String reason = options.getDeadLetterReason();
        String description = options.getDeadLetterErrorDescription();
        Map<String, Object> properties = properties(options.getPropertiesToModify());
        return settle(message, Disposition.SUSPENDED, options.getTransactionContext(), (tx, token) -> {
            if (tx == null) {
                source.deadLetter(token, reason, description, properties);
            } else {
                tx.deadLetter(source.path(), token, reason, description, properties);
            }
        });
    }

    private static Map<String, Object> properties(Map<String, Object> propertiesToModify) {
        return propertiesToModify == null ? Map.of() : propertiesToModify;
    }

    /** The SDK's eager checks of settlement options, with its messages. */
    private static RuntimeException checkOptions(Object options, ServiceBusTransactionContext context,
                                                 String nullOptions) {
        if (options == null) {
            return new NullPointerException(nullOptions);
        }
        if (context != null && context.getTransactionId() == null) {
            return new NullPointerException("'options.transactionContext.transactionId' cannot be null.");
        }
        return null;
    }

    private Mono<Void> settle(ServiceBusReceivedMessage message, Disposition disposition,
                              ServiceBusTransactionContext context, Settlement action) {
        return Mono.defer(() -> {
            if (closed.get()) {
                return Mono.error(disposed(disposition.value));
            }
            if (message == null) {
                return Mono.error(new NullPointerException("'message' cannot be null."));
            }
            if (mode != ServiceBusReceiveMode.PEEK_LOCK) {
                return Mono.error(new UnsupportedOperationException(String.format(
                        "'%s' is not supported on a receiver opened in ReceiveMode.RECEIVE_AND_DELETE.", disposition)));
            }
            if (SdkAccess.isSettled(message)) {
                return Mono.error(new IllegalArgumentException(
                        "The message has either been deleted or already settled."));
            }
            if (message.getLockToken() == null) {
                return Mono.error(new UnsupportedOperationException("This operation is not supported for peeked "
                        + "messages. Only messages received using receiveMessages() in PEEK_LOCK mode can be settled."));
            }
            try {
                action.apply(context == null ? null : transactions.get(context), UUID.fromString(message.getLockToken()));
            } catch (RuntimeException e) {
                return Mono.error(ErrorMapper.map(e, disposition.errorSource, info));
            }
            SdkAccess.markSettled(message);
            return Mono.empty();
        });
    }

    /** A settlement by lock token, in a transaction when one is given. */
    @FunctionalInterface
    private interface Settlement {
        void apply(Transaction transactionOrNull, UUID lockToken);
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
        return call("peek", ServiceBusErrorSource.RECEIVE, () -> {
            List<BrokeredMessage> peeked = source.peek(lastPeekedSequenceNumber.get() + 1, 1);
            advanceCursor(peeked);
            return peeked.isEmpty() ? null : WireCodec.toReceived(peeked.get(0));
        });
    }

    public Mono<ServiceBusReceivedMessage> peekMessage(long sequenceNumber) {
        return call("peekAt", ServiceBusErrorSource.RECEIVE, () -> {
            List<BrokeredMessage> peeked = source.peek(sequenceNumber, 1);
            return peeked.isEmpty() ? null : WireCodec.toReceived(peeked.get(0));
        });
    }

    public Flux<ServiceBusReceivedMessage> peekMessages(int maxMessages) {
        return callMany("peekBatch", () -> {
            checkPositive(maxMessages);
            List<BrokeredMessage> peeked = source.peek(lastPeekedSequenceNumber.get() + 1, maxMessages);
            advanceCursor(peeked);
            return peeked;
        });
    }

    public Flux<ServiceBusReceivedMessage> peekMessages(int maxMessages, long sequenceNumber) {
        return callMany("peekBatchAt", () -> {
            checkPositive(maxMessages);
            return source.peek(sequenceNumber, maxMessages);
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
        if (closed.get()) {
            return Flux.error(disposed("receiveMessages"));
        }
        return ReceiveLoop.flux(wait -> source.receive(coreMode, 1, wait), this::handBack,
                e -> ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, info), loops::add, loops::remove);
    }

    /** Receives what LOCK-3 gives: what is available now, else the first to arrive within {@code maxWait}. */
    List<BrokeredMessage> receiveBatch(int maxMessages, Duration maxWait) {
        return source.receive(coreMode, maxMessages, maxWait);
    }

    /** A message taken after its receiver stopped goes back to the entity uncounted (the SDK releases it). */
    void handBack(BrokeredMessage message) {
        if (message.lockToken() != null) {
            try {
                source.release(message.lockToken());
            } catch (RuntimeException ignored) {
                // the lock is gone already: the message is available again
            }
        }
    }

    public Mono<ServiceBusReceivedMessage> receiveDeferredMessage(long sequenceNumber) {
        return call("receiveDeferredMessage", ServiceBusErrorSource.RECEIVE, () -> {
            List<BrokeredMessage> taken = source.receiveDeferred(coreMode, List.of(sequenceNumber));
            if (taken.isEmpty()) {
                // the SDK reads the service's message-not-found as an empty answer, then takes last() of it
                throw new NoSuchElementException("Flux#last() didn't observe any onNext signal");
            }
            return WireCodec.toReceived(taken.get(taken.size() - 1));
        });
    }

    public Flux<ServiceBusReceivedMessage> receiveDeferredMessages(Iterable<Long> sequenceNumbers) {
        return callMany("receiveDeferredMessageBatch", () -> {
            if (sequenceNumbers == null) {
                throw new NullPointerException("'sequenceNumbers' cannot be null");
            }
            List<Long> numbers = new ArrayList<>();
            sequenceNumbers.forEach(numbers::add);
            return numbers.isEmpty() ? List.of() : source.receiveDeferred(coreMode, numbers);
        });
    }

    // ---- locks --------------------------------------------------------------------------------

    public Mono<OffsetDateTime> renewMessageLock(ServiceBusReceivedMessage message) {
        return Mono.defer(() -> {
            RuntimeException invalid = checkRenewable(message, "renewMessageLock");
            if (invalid != null) {
                return Mono.error(invalid);
            }
            try {
                return Mono.just(source.renewLock(UUID.fromString(message.getLockToken())).atOffset(ZoneOffset.UTC));
            } catch (RuntimeException e) {
                return Mono.error(ErrorMapper.map(e, ServiceBusErrorSource.RENEW_LOCK, info));
            }
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
        return autoRenew(maxLockRenewalDuration, () -> source.renewLock(token));
    }

    /** Renews a lock on the virtual clock, from now, until {@code maxDuration} (virtual) has passed. */
    private Mono<Void> autoRenew(Duration maxDuration, Supplier<Instant> renew) {
        Sinks.Empty<Void> done = Sinks.empty();
        LockRenewals.Renewal[] renewal = new LockRenewals.Renewal[1];
        renewal[0] = renewals.start(renewals.now(), maxDuration, renew,
                e -> {
                    activeRenewals.remove(renewal[0]);
                    done.tryEmitError(ErrorMapper.map(e, ServiceBusErrorSource.RENEW_LOCK, info));
                },
                () -> {
                    activeRenewals.remove(renewal[0]);
                    done.tryEmitEmpty();
                });
        activeRenewals.add(renewal[0]);
        return done.asMono();
    }

    private RuntimeException checkRenewable(ServiceBusReceivedMessage message, String operation) {
        if (closed.get()) {
            return disposed(operation);
        }
        if (source.sessionId() != null) {
            return new IllegalStateException("Renewing message lock is an invalid operation when working with "
                    + "sessions.");
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
        return call("renewSessionLock", ServiceBusErrorSource.RENEW_LOCK,
                () -> source.renewSessionLock("Cannot renew session lock on a non-session receiver.")
                        .atOffset(ZoneOffset.UTC));
    }

    /**
     * Renews the session lock on the virtual clock until {@code maxLockRenewalDuration} has passed
     * (virtual time), as the SDK's {@code LockRenewalOperation} does on real time; completes then, or
     * fails with SESSION_LOCK_LOST when a renewal fails.
     */
    public Mono<Void> renewSessionLock(Duration maxLockRenewalDuration) {
        RuntimeException invalid = null;
        if (closed.get()) {
            invalid = disposed("renewSessionLock");
        } else if (source.sessionId() == null) {
            invalid = new IllegalStateException("Cannot renew session lock on a non-session receiver.");
        } else if (maxLockRenewalDuration == null) {
            invalid = new NullPointerException("'maxLockRenewalDuration' cannot be null.");
        } else if (maxLockRenewalDuration.isNegative()) {
            invalid = new IllegalArgumentException("'maxLockRenewalDuration' cannot be negative.");
        }
        if (invalid != null) {
            return Mono.error(invalid);
        }
        return autoRenew(maxLockRenewalDuration, () -> source.renewSessionLock(null));
    }

    public Mono<byte[]> getSessionState() {
        return call("getSessionState", ServiceBusErrorSource.RECEIVE,
                () -> source.getSessionState("Cannot get session state on a non-session receiver."));
    }

    public Mono<Void> setSessionState(byte[] sessionState) {
        return call("setSessionState", ServiceBusErrorSource.RECEIVE, () -> {
            source.setSessionState("Cannot set session state on a non-session receiver.", sessionState);
            return null;
        });
    }

    // ---- transactions (TXN-1) -------------------------------------------------------------------

    public Mono<ServiceBusTransactionContext> createTransaction() {
        if (closed.get()) {
            return Mono.error(disposed("createTransaction"));
        }
        return Mono.fromSupplier(transactions::declare);
    }

    public Mono<Void> commitTransaction(ServiceBusTransactionContext transactionContext) {
        return endTransaction("commitTransaction", transactionContext, transactions::commit);
    }

    public Mono<Void> rollbackTransaction(ServiceBusTransactionContext transactionContext) {
        return endTransaction("rollbackTransaction", transactionContext, transactions::rollback);
    }

    private Mono<Void> endTransaction(String operation, ServiceBusTransactionContext context,
                                      java.util.function.Consumer<ServiceBusTransactionContext> end) {
        if (closed.get()) {
            return Mono.error(disposed(operation));
        }
        if (context == null) {
            return Mono.error(new NullPointerException("'transactionContext' cannot be null."));
        }
        if (context.getTransactionId() == null) {
            return Mono.error(new NullPointerException("'transactionContext.transactionId' cannot be null."));
        }
        return Mono.defer(() -> {
            try {
                end.accept(context);
                return Mono.<Void>empty();
            } catch (RuntimeException e) {
                return Mono.error(ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, info));
            }
        });
    }

    // ---- lifecycle ----------------------------------------------------------------------------

    public void close() {
        if (closed.getAndSet(true)) {
            return;
        }
        loops.forEach(ReceiveLoop::complete);
        activeRenewals.forEach(LockRenewals.Renewal::cancel);
        activeRenewals.clear();
        source.close();
    }

    boolean isClosed() {
        return closed.get();
    }

    @Override
    public String toString() {
        return "ServiceBusReceiverAsyncClient[emulated, " + info.entityPath() + ", " + mode + "]";
    }

    static IllegalStateException disposed(String operation) {
        return new IllegalStateException(String.format("Cannot perform operation '%s' on a disposed receiver.",
                operation));
    }

    private <T> Mono<T> call(String operation, ServiceBusErrorSource errorSource, Supplier<T> action) {
        return Mono.defer(() -> {
            if (closed.get()) {
                return Mono.error(disposed(operation));
            }
            try {
                return Mono.justOrEmpty(action.get());
            } catch (RuntimeException e) {
                return Mono.error(ErrorMapper.map(e, errorSource, info));
            }
        });
    }

    private Flux<ServiceBusReceivedMessage> callMany(String operation, Supplier<List<BrokeredMessage>> action) {
        return Flux.defer(() -> {
            if (closed.get()) {
                return Flux.error(disposed(operation));
            }
            try {
                List<BrokeredMessage> messages = action.get();
                List<ServiceBusReceivedMessage> received = new ArrayList<>(messages.size());
                messages.forEach(m -> received.add(WireCodec.toReceived(m)));
                return Flux.fromIterable(received);
            } catch (RuntimeException e) {
                return Flux.error(ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, info));
            }
        });
    }
}
