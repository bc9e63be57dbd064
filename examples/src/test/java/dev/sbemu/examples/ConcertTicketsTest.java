package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Sequence numbers are the true arrival order, even when enqueued times tie. A ticket shop that
 * serves requests in sequence-number order is first come, first served.
 */
@ServiceBusEmulator(queues = @Queue(name = "ticket-requests"))
class ConcertTicketsTest {

    @Test
    @DisplayName("SEQ-3 requests are served in sequence-number order, even when they arrive in the same instant")
    void firstComeFirstServed(
            @Entity("ticket-requests") ServiceBusSenderClient fans,
            @Entity("ticket-requests") ServiceBusReceiverClient boxOffice) {
        fans.sendMessage(new ServiceBusMessage("alice"));
        fans.sendMessage(new ServiceBusMessage("bob"));
        fans.sendMessage(new ServiceBusMessage("carol"));

        List<ServiceBusReceivedMessage> requests =
                boxOffice.receiveMessages(3).stream().toList();

        assertEquals(
                List.of("alice", "bob", "carol"),
                requests.stream().map(m -> m.getBody().toString()).toList());
        assertEquals(
                List.of(1L, 2L, 3L),
                requests.stream()
                        .map(ServiceBusReceivedMessage::getSequenceNumber)
                        .toList());
        assertEquals(requests.get(0).getEnqueuedTime(), requests.get(2).getEnqueuedTime(), "the clock did not move");
    }
}
