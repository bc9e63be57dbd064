package dev.sbemu.sdk.internal;

import com.azure.core.amqp.exception.AmqpErrorContext;
import com.azure.core.amqp.exception.LinkErrorContext;
import com.azure.core.amqp.implementation.ExceptionUtil;
import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import dev.sbemu.core.BrokerException;
import dev.sbemu.wire.AmqpConditions;

/**
 * Turns a broker refusal into what the SDK raises for the same refusal on the wire: the service's
 * AMQP error condition goes through the SDK's own {@code ExceptionUtil.toException} (which decides
 * the {@code AmqpException}'s condition and transience, or an {@code UnsupportedOperationException}
 * for {@code amqp:not-allowed}), and the client wraps the result in a {@link ServiceBusException}
 * with the operation's {@link ServiceBusErrorSource}, as the SDK's clients do.
 */
public final class ErrorMapper {
    private ErrorMapper() {}

    /**
     * The exception the SDK's AMQP layer makes of the service's refusal, before any client wraps it:
     * an {@code AmqpException} with the condition (or an {@code UnsupportedOperationException} for
     * {@code amqp:not-allowed}). Session acquisition surfaces these unwrapped.
     */
    public static Exception amqp(BrokerException error, ClientInfo client) {
        return ExceptionUtil.toException(AmqpConditions.of(error.reason()), error.getMessage(), context(client));
    }

    /**
     * What the SDK raises when the service answers a management request with
     * {@code com.microsoft:argument-error} (a malformed rule filter or action, an invalid name):
     * a {@link ServiceBusException} with reason {@code GENERAL_ERROR} around the non-transient
     * {@code AmqpException}.
     */
    public static ServiceBusException argumentError(
            String description, ServiceBusErrorSource source, ClientInfo client) {
        return new ServiceBusException(
                ExceptionUtil.toException("com.microsoft:argument-error", description, context(client)), source);
    }

    private static AmqpErrorContext context(ClientInfo client) {
        return new LinkErrorContext(client.fullyQualifiedNamespace(), client.entityPath(), null, null);
    }

    /**
     * What a client raises for {@code error}: broker refusals become {@link ServiceBusException}s;
     * argument errors ({@link IllegalArgumentException}, {@link NullPointerException}) and errors the
     * SDK raises itself pass unchanged; anything else is wrapped as the SDK's {@code mapError} does.
     */
    public static RuntimeException map(RuntimeException error, ServiceBusErrorSource source, ClientInfo client) {
        if (error instanceof BrokerException broker) {
            return new ServiceBusException(amqp(broker, client), source);
        }
        if (error instanceof ServiceBusException
                || error instanceof IllegalArgumentException
                || error instanceof NullPointerException
                || error instanceof IllegalStateException
                || error instanceof UnsupportedOperationException) {
            return error;
        }
        return new ServiceBusException(error, source);
    }
}
