package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.implementation.Messages;
import dev.sbemu.core.BrokerException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * How an async client calls the core, the one way for every client: one instance per client holds its
 * closed state. A call is lazy, as the SDK's operations are: it runs when subscribed, on the subscribing
 * thread, once per subscription. It first refuses a closed client with the SDK's "disposed" error naming the
 * operation, then runs the action, and maps what the action throws through {@link ErrorMapper} with the
 * operation's error source. A null result completes the {@code Mono} empty.
 *
 * <p>Where the SDK checks arguments before the client's state, or checks the state when the operation is
 * called rather than subscribed, the client uses {@link #callWithoutClosedCheck} and checks with
 * {@link #checkOpen} / {@link #isClosed} where the SDK does.
 */
final class CoreCalls {
    private final ClientInfo info;
    private final String disposedFormat;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CoreCalls(ClientInfo info, String disposedFormat) {
        this.info = info;
        this.disposedFormat = disposedFormat;
    }

    /** For a sender: "Cannot perform operation 'x' on a disposed sender." */
    static CoreCalls sender(ClientInfo info) {
        return new CoreCalls(info, "Cannot perform operation '%s' on a disposed sender.");
    }

    /** For a receiver or session receiver: "Cannot perform operation 'x' on a disposed receiver." */
    static CoreCalls receiver(ClientInfo info) {
        return new CoreCalls(info, "Cannot perform operation '%s' on a disposed receiver.");
    }

    /** For a rule manager, with the SDK's own message. */
    static CoreCalls ruleManager(ClientInfo info) {
        return new CoreCalls(info, Messages.INVALID_OPERATION_DISPOSED_RULE_MANAGER);
    }

    ClientInfo info() {
        return info;
    }

    /** Marks the client closed; true the first time only. */
    boolean close() {
        return !closed.getAndSet(true);
    }

    boolean isClosed() {
        return closed.get();
    }

    /** The SDK's error for {@code operation} on a closed client. */
    IllegalStateException disposed(String operation) {
        return new IllegalStateException(String.format(Locale.ROOT, disposedFormat, operation));
    }

    /** Throws {@link #disposed} when the client is closed. */
    void checkOpen(String operation) {
        if (closed.get()) {
            throw disposed(operation);
        }
    }

    /** What the SDK's client raises for {@code error} (see {@link ErrorMapper#map}). */
    RuntimeException map(RuntimeException error, ServiceBusErrorSource source) {
        return ErrorMapper.map(error, source, info);
    }

    /** What the SDK's AMQP layer raises for a refusal, unwrapped (see {@link ErrorMapper#amqp}). */
    Exception amqp(BrokerException error) {
        return ErrorMapper.amqp(error, info);
    }

    /** A lazy call: refuses a closed client naming {@code operation}, then runs {@code action}, mapping its errors. */
    <T> Mono<T> call(String operation, ServiceBusErrorSource source, Supplier<T> action) {
        return Mono.fromSupplier(() -> run(operation, source, action));
    }

    /** A lazy call that leaves the closed check to the action or the caller (where the SDK orders it differently). */
    <T> Mono<T> callWithoutClosedCheck(ServiceBusErrorSource source, Supplier<T> action) {
        return Mono.fromSupplier(() -> run(null, source, action));
    }

    /** As {@link #call}, for an action that returns a list: the {@code Flux} emits its elements. */
    <T> Flux<T> callMany(String operation, ServiceBusErrorSource source, Supplier<List<T>> action) {
        return call(operation, source, action).flatMapIterable(Function.identity());
    }

    private <T> T run(String operationOrNull, ServiceBusErrorSource source, Supplier<T> action) {
        try {
            if (operationOrNull != null) {
                checkOpen(operationOrNull);
            }
            return action.get();
        } catch (RuntimeException e) {
            throw map(e, source);
        }
    }
}
