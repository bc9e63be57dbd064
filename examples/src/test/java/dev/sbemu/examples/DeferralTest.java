package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusMessageState;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Deferral: a receiver that cannot handle a message yet defers it. Deferred messages stay in the
 * queue but normal receives skip them; they are fetched by sequence number later.
 */
@ServiceBusEmulator(queues = @Queue(name = "shipments"))
class DeferralTest {

    @Test
    @DisplayName("DLQ-4 a deferred message is skipped by receive and fetched by its sequence number")
    void deferAndFetchLater(
            @Entity("shipments") ServiceBusSenderClient sender,
            @Entity("shipments") ServiceBusReceiverClient receiver) {
        sender.sendMessage(new ServiceBusMessage("ship parcel 7 (payment pending)"));
        sender.sendMessage(new ServiceBusMessage("payment received for parcel 7"));

        ServiceBusReceivedMessage shipment =
                receiver.receiveMessages(1).iterator().next();
        long parkedAs = shipment.getSequenceNumber();
        receiver.defer(shipment);

        ServiceBusReceivedMessage payment =
                receiver.receiveMessages(1).iterator().next();
        assertEquals("payment received for parcel 7", payment.getBody().toString());
        receiver.complete(payment);
        assertEquals(
                0, receiver.receiveMessages(1, Duration.ofMillis(50)).stream().count());

        ServiceBusReceivedMessage parked = receiver.receiveDeferredMessage(parkedAs);
        assertEquals(ServiceBusMessageState.DEFERRED, parked.getState());
        assertEquals("ship parcel 7 (payment pending)", parked.getBody().toString());
        receiver.complete(parked);
    }
}
