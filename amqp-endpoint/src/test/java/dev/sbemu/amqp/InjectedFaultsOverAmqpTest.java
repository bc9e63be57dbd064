package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults.Failure;
import dev.sbemu.core.Faults.Operation;
import dev.sbemu.core.JournalEvent;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Injected faults through the endpoint: the SDK's own retry policy acts on the transient ones (FLT-6). */
class InjectedFaultsOverAmqpTest extends EndpointFixture {

    private ServiceBusSenderClient sender(int maxRetries) {
        // the SDK waits 4 s more before retrying a server-busy error (ClientConstants.SERVER_BUSY_WAIT_TIME)
        return clients()
                .retryOptions(new AmqpRetryOptions()
                        .setMaxRetries(maxRetries)
                        .setDelay(Duration.ofMillis(50))
                        .setMaxDelay(Duration.ofSeconds(10))
                        .setTryTimeout(Duration.ofSeconds(15)))
                .sender()
                .queueName("orders")
                .buildClient();
    }

    private long faultEvents() {
        return namespace.journal().events().stream()
                .filter(e -> e.type() == JournalEvent.Type.FAULT_INJECTED)
                .count();
    }

    @Test
    @DisplayName("FLT-6 over AMQP the SDK retries a transient SERVICE_BUSY: the failure is only seen in the journal")
    void transientFailuresAreRetriedBySdk() {
        namespace.createQueue("orders");
        namespace.faults().on("orders").failNext(1, Operation.SEND, Failure.SERVICE_BUSY);
        try (ServiceBusSenderClient sender = sender(3)) {
            sender.sendMessage(new ServiceBusMessage("order-42"));
        }
        assertEquals(1, faultEvents());
        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }

    @Test
    @DisplayName("FLT-2 FLT-6 over AMQP a QUOTA_EXCEEDED is not retried: one failure, not transient")
    void nonTransientIsNotRetried() {
        namespace.createQueue("orders");
        namespace.faults().on("orders").failNext(1, Operation.SEND, Failure.QUOTA_EXCEEDED);
        try (ServiceBusSenderClient sender = sender(3)) {
            ServiceBusException e = assertThrows(
                    ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("order-44")));
            assertEquals(ServiceBusFailureReason.QUOTA_EXCEEDED, e.getReason(), e.toString());
            assertFalse(e.isTransient());
        }
        assertEquals(1, faultEvents());
    }

    @Test
    @DisplayName("FLT-6 over AMQP a scripted receive fault reaches the receiver, with its condition")
    void receiveFaultReachesReceiver() {
        namespace.createQueue("orders");
        try (ServiceBusSenderClient sender = sender(0)) {
            sender.sendMessage(new ServiceBusMessage("order-45"));
        }
        namespace.faults().on("orders").failNext(1, Operation.RECEIVE, Failure.QUOTA_EXCEEDED);
        try (ServiceBusReceiverClient receiver =
                clients().receiver().queueName("orders").buildClient()) {
            RuntimeException e = assertThrows(
                    RuntimeException.class,
                    () -> receiver.receiveMessages(1, Duration.ofSeconds(10)).stream()
                            .count());
            Throwable cause = e;
            while (cause != null && !(cause instanceof AmqpException)) {
                cause = cause.getCause();
            }
            assertNotNull(cause, "an AmqpException in the causes of " + e);
            assertEquals(AmqpErrorCondition.RESOURCE_LIMIT_EXCEEDED, ((AmqpException) cause).getErrorCondition());
        }
        assertEquals(1, faultEvents());
        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }
}
