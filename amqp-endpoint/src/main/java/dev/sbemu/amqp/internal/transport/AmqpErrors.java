package dev.sbemu.amqp.internal.transport;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.filter.FilterSyntaxException;
import dev.sbemu.wire.AmqpConditions;
import java.util.concurrent.RejectedExecutionException;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.messaging.Rejected;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * The AMQP error conditions and management status codes the service answers with (docs/amqp.md,
 * "Error conditions"): the SDKs turn them into the same {@code ServiceBusFailureReason} and transience as the
 * in-process clients report.
 */
public final class AmqpErrors {
    public static final Symbol NOT_FOUND = Symbol.valueOf("amqp:not-found");
    public static final Symbol UNAUTHORIZED = Symbol.valueOf("amqp:unauthorized-access");
    public static final Symbol NOT_IMPLEMENTED = Symbol.valueOf("amqp:not-implemented");
    public static final Symbol NOT_ALLOWED = Symbol.valueOf("amqp:not-allowed");
    public static final Symbol INTERNAL_ERROR = Symbol.valueOf("amqp:internal-error");
    public static final Symbol TIMEOUT = Symbol.valueOf("com.microsoft:timeout");
    public static final Symbol ARGUMENT_ERROR = Symbol.valueOf("com.microsoft:argument-error");
    public static final Symbol MESSAGE_NOT_FOUND = Symbol.valueOf("com.microsoft:message-not-found");
    public static final Symbol SESSION_NOT_FOUND = Symbol.valueOf("com.microsoft:session-not-found");
    public static final Symbol TRANSACTION_UNKNOWN = Symbol.valueOf("amqp:transaction:unknown-id");
    public static final Symbol DEAD_LETTER = Symbol.valueOf("com.microsoft:dead-letter");
    public static final Symbol RESOURCE_LIMIT_EXCEEDED = Symbol.valueOf("amqp:resource-limit-exceeded");
    public static final Symbol WINDOW_VIOLATION = Symbol.valueOf("amqp:session:window-violation");
    public static final Symbol CONNECTION_FORCED = Symbol.valueOf("amqp:connection:forced");
    public static final Symbol LINK_DETACH_FORCED = Symbol.valueOf("amqp:link:detach-forced");
    public static final Symbol FRAMING_ERROR = Symbol.valueOf("amqp:connection:framing-error");
    public static final Symbol DECODE_ERROR = Symbol.valueOf("amqp:decode-error");
    public static final Symbol MESSAGE_SIZE_EXCEEDED = Symbol.valueOf("amqp:link:message-size-exceeded");
    public static final Symbol TRANSFER_LIMIT_EXCEEDED = Symbol.valueOf("amqp:link:transfer-limit-exceeded");
    /** What the endpoint says on every link and connection when it closes (AMQP-14). */
    public static final Symbol SHUTDOWN = Symbol.valueOf("com.microsoft:operation-cancelled");

    private AmqpErrors() {}

    /** The condition the service sends for {@code e}'s reason. */
    public static Symbol condition(BrokerException e) {
        return Symbol.valueOf(AmqpConditions.of(e.reason()));
    }

    /** The error for any failure of a core call: broker refusals by reason, bad input as an argument error. */
    public static ErrorCondition of(RuntimeException e) {
        if (e instanceof UnknownTransaction unknown) {
            return unknown.condition();
        }
        if (e instanceof BrokerException broker) {
            return new ErrorCondition(condition(broker), broker.getMessage());
        }
        if (e instanceof UnsupportedOperationException) {
            return new ErrorCondition(NOT_IMPLEMENTED, e.getMessage());
        }
        if (e instanceof Deliveries.MalformedMessage) {
            return new ErrorCondition(DECODE_ERROR, e.getMessage());
        }
        if (e instanceof RejectedExecutionException) {
            return new ErrorCondition(
                    RESOURCE_LIMIT_EXCEEDED, "The endpoint's worker threads are all busy: " + e.getMessage());
        }
        if (e instanceof IllegalArgumentException || e instanceof FilterSyntaxException) {
            return new ErrorCondition(ARGUMENT_ERROR, String.valueOf(e.getMessage()));
        }
        return new ErrorCondition(INTERNAL_ERROR, e.toString());
    }

    /** The error of every link and connection of an endpoint that closes (AMQP-14). */
    public static ErrorCondition shutdown() {
        return new ErrorCondition(
                SHUTDOWN,
                "The sbemu endpoint was closed (ServiceBusEmulatorServer.close()); "
                        + "it no longer serves this namespace.");
    }

    /**
     * The error of every connection of a server that is being stopped (SIGTERM, SRV-7): {@code amqp:connection:forced},
     * which the SDKs take as transient and retry, as against a service node being restarted.
     */
    public static ErrorCondition serverStopping() {
        return new ErrorCondition(
                CONNECTION_FORCED,
                "The sbemu server is shutting down (it was asked to stop, e.g. "
                        + "by SIGTERM); the connection is closed. Reconnect once the server is back.");
    }

    /** The error of every link of a server that is being stopped: the link's counterpart of {@link #serverStopping}. */
    public static ErrorCondition linkOfServerStopping() {
        return new ErrorCondition(LINK_DETACH_FORCED, serverStopping().getDescription());
    }

    /** The Rejected outcome carrying {@code error}. */
    public static Rejected rejected(ErrorCondition error) {
        Rejected rejected = new Rejected();
        rejected.setError(error);
        return rejected;
    }

    /** The management status code that goes with {@code condition}. */
    public static int status(Symbol condition) {
        String c = condition.toString();
        return switch (c) {
            case "amqp:not-found", "com.microsoft:message-not-found", "com.microsoft:session-not-found" -> 404;
            case "amqp:unauthorized-access" -> 401;
            case "com.microsoft:entity-already-exists" -> 409;
            case "com.microsoft:argument-error", "amqp:not-allowed", "amqp:decode-error" -> 400;
            case "amqp:not-implemented" -> 501;
            case "com.microsoft:timeout" -> 408;
            case "com.microsoft:server-busy" -> 503;
            case "com.microsoft:message-lock-lost",
                    "com.microsoft:session-lock-lost",
                    "com.microsoft:session-cannot-be-locked" -> 410;
            case "amqp:resource-limit-exceeded" -> 403;
            default -> 500;
        };
    }

    /** The service's description for an unknown entity; the SDK treats it as not found only with this wording. */
    public static ErrorCondition entityNotFound(String path) {
        return new ErrorCondition(NOT_FOUND, "The messaging entity '" + path + "' could not be found.");
    }
}
