package dev.sbemu.sdk;

import com.azure.messaging.servicebus.ServiceBusErrorContext;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a processor runs: the handlers and the settings of {@code ServiceBusProcessorClientBuilder}.
 *
 * @param processMessage called for each message
 * @param processError called for each error
 * @param maxConcurrentCalls messages handled at once (default 1)
 * @param maxConcurrentSessions sessions handled at once, for a session processor (default 1)
 * @param sessionEnabled whether this is a session processor
 * @param autoComplete whether a message is completed after the handler returns (abandoned if it throws)
 * @param maxAutoLockRenewDuration how long locks are renewed automatically, in virtual time (default 5 min)
 * @param receiveMode the receive mode (default PEEK_LOCK)
 * @param sessionIdleTimeout how long, in virtual time, a session processor waits for the next message of its
 *                           session before it lets the session go ({@code sessionIdleTimeout} of the SDK's
 *                           session processor builder); null for the SDK's default, its one-minute try-timeout
 */
public record ProcessorOptions(
        Consumer<ServiceBusReceivedMessageContext> processMessage,
        Consumer<ServiceBusErrorContext> processError,
        int maxConcurrentCalls,
        int maxConcurrentSessions,
        boolean sessionEnabled,
        boolean autoComplete,
        Duration maxAutoLockRenewDuration,
        ServiceBusReceiveMode receiveMode,
        Duration sessionIdleTimeout) {

    public ProcessorOptions {
        Objects.requireNonNull(processMessage, "processMessage");
        Objects.requireNonNull(processError, "processError");
        Objects.requireNonNull(maxAutoLockRenewDuration, "maxAutoLockRenewDuration");
        Objects.requireNonNull(receiveMode, "receiveMode");
        if (maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("maxConcurrentCalls must be at least 1, was " + maxConcurrentCalls);
        }
        if (sessionIdleTimeout != null && sessionIdleTimeout.isNegative()) {
            throw new IllegalArgumentException("'sessionIdleTimeout' cannot be negative.");
        }
        if (maxConcurrentSessions < 1) {
            throw new IllegalArgumentException(
                    "maxConcurrentSessions must be at least 1, was " + maxConcurrentSessions);
        }
    }

    /** Options with the SDK's defaults and the given handlers. */
    public static ProcessorOptions of(
            Consumer<ServiceBusReceivedMessageContext> processMessage, Consumer<ServiceBusErrorContext> processError) {
        return new ProcessorOptions(
                processMessage,
                processError,
                1,
                1,
                false,
                true,
                Duration.ofMinutes(5),
                ServiceBusReceiveMode.PEEK_LOCK,
                null);
    }

    public ProcessorOptions withMaxConcurrentCalls(int n) {
        return new ProcessorOptions(
                processMessage,
                processError,
                n,
                maxConcurrentSessions,
                sessionEnabled,
                autoComplete,
                maxAutoLockRenewDuration,
                receiveMode,
                sessionIdleTimeout);
    }

    public ProcessorOptions withMaxConcurrentSessions(int n) {
        return new ProcessorOptions(
                processMessage,
                processError,
                maxConcurrentCalls,
                n,
                true,
                autoComplete,
                maxAutoLockRenewDuration,
                receiveMode,
                sessionIdleTimeout);
    }

    public ProcessorOptions withSessions() {
        return new ProcessorOptions(
                processMessage,
                processError,
                maxConcurrentCalls,
                maxConcurrentSessions,
                true,
                autoComplete,
                maxAutoLockRenewDuration,
                receiveMode,
                sessionIdleTimeout);
    }

    public ProcessorOptions withAutoComplete(boolean autoComplete) {
        return new ProcessorOptions(
                processMessage,
                processError,
                maxConcurrentCalls,
                maxConcurrentSessions,
                sessionEnabled,
                autoComplete,
                maxAutoLockRenewDuration,
                receiveMode,
                sessionIdleTimeout);
    }

    public ProcessorOptions withMaxAutoLockRenewDuration(Duration d) {
        return new ProcessorOptions(
                processMessage,
                processError,
                maxConcurrentCalls,
                maxConcurrentSessions,
                sessionEnabled,
                autoComplete,
                d,
                receiveMode,
                sessionIdleTimeout);
    }

    public ProcessorOptions withReceiveMode(ServiceBusReceiveMode mode) {
        return new ProcessorOptions(
                processMessage,
                processError,
                maxConcurrentCalls,
                maxConcurrentSessions,
                sessionEnabled,
                autoComplete,
                maxAutoLockRenewDuration,
                mode,
                sessionIdleTimeout);
    }

    /** A session processor lets a session go after {@code d} of virtual time without a message (SES-6). */
    public ProcessorOptions withSessionIdleTimeout(Duration d) {
        return new ProcessorOptions(
                processMessage,
                processError,
                maxConcurrentCalls,
                maxConcurrentSessions,
                sessionEnabled,
                autoComplete,
                maxAutoLockRenewDuration,
                receiveMode,
                d);
    }
}
