package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Sequence numbers fix the order of a queue, not the order of processing: two consumers can finish
 * out of order. For in-order processing, put related messages in one session: a session receiver
 * locks a whole session and gets its messages in order.
 */
@ServiceBusEmulator(queues = @Queue(name = "order-steps", requiresSession = true))
class SessionOrderingTest {

    @Test
    @DisplayName("SES-2 SEQ-5 each session is delivered in order to one session receiver at a time")
    void sessionsKeepTheirOrder(
            @Entity("order-steps") ServiceBusSenderClient sender,
            @Entity("order-steps") ServiceBusSessionReceiverClient sessions) {
        for (int step = 1; step <= 8; step++) {
            String session = List.of(1, 4, 8).contains(step)
                    ? "order-A"
                    : List.of(2, 3, 6).contains(step) ? "order-B" : "order-C";
            sender.sendMessage(new ServiceBusMessage("step " + step).setSessionId(session));
        }

        ServiceBusReceiverClient orderA = sessions.acceptSession("order-A");
        ServiceBusReceiverClient orderB = sessions.acceptSession("order-B");

        List<ServiceBusReceivedMessage> fromA =
                orderA.receiveMessages(10).stream().toList();
        List<ServiceBusReceivedMessage> fromB =
                orderB.receiveMessages(10).stream().toList();

        assertEquals(
                List.of("step 1", "step 4", "step 8"),
                fromA.stream().map(m -> m.getBody().toString()).toList());
        assertEquals(
                List.of("step 2", "step 3", "step 6"),
                fromB.stream().map(m -> m.getBody().toString()).toList());
        fromA.forEach(orderA::complete);
        fromB.forEach(orderB::complete);
        orderA.close();
        orderB.close();
    }

    @Test
    @DisplayName("SES-2 acceptNextSession locks the session whose first message came first")
    void nextAvailableSession(
            @Entity("order-steps") ServiceBusSenderClient sender,
            @Entity("order-steps") ServiceBusSessionReceiverClient sessions) {
        sender.sendMessage(new ServiceBusMessage("first").setSessionId("order-B"));
        sender.sendMessage(new ServiceBusMessage("second").setSessionId("order-A"));

        ServiceBusReceiverClient next = sessions.acceptNextSession();

        assertEquals("order-B", next.getSessionId());
        ServiceBusReceivedMessage received = next.receiveMessages(10).iterator().next();
        assertEquals("first", received.getBody().toString());
        next.complete(received);
        next.close();
    }
}
