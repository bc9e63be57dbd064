package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import dev.sbemu.core.BrokerException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * {@code ServiceBusSessionReceiverClient} (SES-2). {@link #acceptNextSession()} waits, in real time,
 * up to the SDK's try timeout (one minute) for a free session and then fails as the SDK's synchronous
 * client does when the service times the request out: an {@code IllegalStateException} whose cause is a
 * {@code TimeoutException("com.microsoft:timeout")} around the transient {@code AmqpException} with
 * condition {@code com.microsoft:timeout} (the reason {@code SERVICE_TIMEOUT} in a
 * {@code ServiceBusException}). Other refusals surface as in {@link SessionReceiverAsyncClientImpl}.
 */
public final class SessionReceiverClientImpl {
    private final SessionReceiverAsyncClientImpl async;
    private final Duration tryTimeout;

    public SessionReceiverClientImpl(SessionReceiverAsyncClientImpl async, Duration tryTimeout) {
        this.async = async;
        this.tryTimeout = tryTimeout;
    }

    public ServiceBusReceiverClient acceptNextSession() {
        return accept(null);
    }

    public ServiceBusReceiverClient acceptSession(String sessionId) {
        if (sessionId == null) {
            throw new NullPointerException("'sessionId' cannot be null");
        }
        if (sessionId.isEmpty()) {
            throw new IllegalArgumentException("'sessionId' cannot be empty");
        }
        return accept(sessionId);
    }

    private ServiceBusReceiverClient accept(String sessionId) {
        ReceiverAsyncClientImpl receiver;
        try {
            receiver = async.acceptBlocking(sessionId, tryTimeout);
        } catch (BrokerException.ServiceTimeout e) {
            TimeoutException timeout = new TimeoutException("com.microsoft:timeout");
            timeout.initCause(async.calls().amqp(e));
            throw new IllegalStateException(timeout.getMessage(), timeout);
        } catch (BrokerException e) {
            throw (RuntimeException) async.calls().amqp(e);
        }
        return SdkInstances.delegatingTo(ServiceBusReceiverClient.class, new ReceiverClientImpl(receiver, tryTimeout));
    }

    public void close() {
        async.close();
    }

    @Override
    public String toString() {
        return "ServiceBusSessionReceiverClient[emulated, "
                + async.calls().info().entityPath() + "]";
    }
}
