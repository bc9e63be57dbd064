package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.sdk.EmulatorClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.function.Executable;

/** The same refusals reach the caller the same way, whichever way in: in-process clients or the endpoint. */
class ParityTest extends EndpointFixture {
    enum Way { IN_PROCESS, AMQP }

    private final List<AutoCloseable> opened = new ArrayList<>();
    private EmulatorClients inProcess;

    @AfterEach
    void closeClients() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        if (inProcess != null) {
            inProcess.close();
        }
    }

    private <T extends AutoCloseable> T open(T client) {
        opened.add(client);
        return client;
    }

    private ServiceBusSenderClient sender(Way way, String queue) {
        return open(way == Way.AMQP ? clients().sender().queueName(queue).buildClient()
                : inProcess().sender(queue));
    }

    private ServiceBusReceiverClient receiver(Way way, String queue) {
        return open(way == Way.AMQP ? clients().receiver().queueName(queue).buildClient()
                : inProcess().receiver(EntityPath.queue(queue), ServiceBusReceiveMode.PEEK_LOCK));
    }

    private ServiceBusSessionReceiverClient sessionReceiver(Way way, String queue) {
        return open(way == Way.AMQP ? clients().sessionReceiver().queueName(queue).buildClient()
                : inProcess().sessionReceiver(EntityPath.queue(queue), ServiceBusReceiveMode.PEEK_LOCK));
    }

    private EmulatorClients inProcess() {
        if (inProcess == null) {
            inProcess = EmulatorClients.of(namespace);
        }
        return inProcess;
    }

    private static ServiceBusReceivedMessage one(ServiceBusReceiverClient receiver) {
        return receiver.receiveMessages(1, Duration.ofSeconds(10)).iterator().next();
    }

    private static void refused(ServiceBusFailureReason reason, boolean isTransient, Executable call) {
        ServiceBusException e = assertThrows(ServiceBusException.class, call);
        assertEquals(reason, e.getReason(), e.getMessage());
        assertEquals(isTransient, e.isTransient(), "isTransient of " + e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Way.class)
    @DisplayName("AMQP-2 settling or renewing after the lock expired: MESSAGE_LOCK_LOST on both ways in")
    void lockLost(Way way) {
        namespace.createQueue("orders");
        sender(way, "orders").sendMessage(new ServiceBusMessage("m"));
        ServiceBusReceiverClient receiver = receiver(way, "orders");
        ServiceBusReceivedMessage m = one(receiver);
        namespace.clock().advance(Duration.ofMinutes(2));
        refused(ServiceBusFailureReason.MESSAGE_LOCK_LOST, false, () -> receiver.renewMessageLock(m));
        refused(ServiceBusFailureReason.MESSAGE_LOCK_LOST, false, () -> receiver.complete(m));
    }

    @ParameterizedTest
    @EnumSource(Way.class)
    @DisplayName("AMQP-10 sending to a disabled queue: MESSAGING_ENTITY_DISABLED on both ways in")
    void disabled(Way way) {
        namespace.createQueue("orders", QueueOptions.builder().status(EntityStatus.SEND_DISABLED).build());
        ServiceBusSenderClient sender = sender(way, "orders");
        refused(ServiceBusFailureReason.MESSAGING_ENTITY_DISABLED, false,
                () -> sender.sendMessage(new ServiceBusMessage("m")));
    }

    @ParameterizedTest
    @EnumSource(Way.class)
    @DisplayName("AMQP-3 a message over the size limit: MESSAGE_SIZE_EXCEEDED on both ways in")
    void tooLarge(Way way) {
        namespace.createQueue("orders");
        ServiceBusSenderClient sender = sender(way, "orders");
        refused(ServiceBusFailureReason.MESSAGE_SIZE_EXCEEDED, false,
                () -> sender.sendMessage(new ServiceBusMessage(new byte[300 * 1024])));
    }

    @ParameterizedTest
    @EnumSource(Way.class)
    @DisplayName("AMQP-6 a session another receiver holds: the SDK's unwrapped session-cannot-be-locked on both ways in")
    void sessionHeld(Way way) {
        namespace.createQueue("carts", QueueOptions.builder().requiresSession(true).build());
        sender(way, "carts").sendMessage(new ServiceBusMessage("m").setSessionId("a"));
        ServiceBusReceiverClient holder = open(sessionReceiver(way, "carts").acceptSession("a"));
        ServiceBusSessionReceiverClient other = sessionReceiver(way, "carts");
        // Session acquisition surfaces the AMQP error unwrapped, as the SDK does against the service.
        AmqpException e = assertThrows(AmqpException.class, () -> other.acceptSession("a"));
        assertEquals(AmqpErrorCondition.SESSION_CANNOT_BE_LOCKED, e.getErrorCondition());
        assertFalse(e.isTransient());
        holder.complete(one(holder));
    }
}
