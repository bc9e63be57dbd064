package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.CompleteOptions;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Transactions: completing the input message and sending the output message happen together or
 * not at all.
 */
@ServiceBusEmulator(queues = {@Queue(name = "raw", lockDuration = "PT30S"), @Queue(name = "enriched")})
class TransactionExampleTest {

    @Test
    @DisplayName("TXN-1 completing the input and sending the output commit together")
    void completeAndSendCommitTogether(
            @Entity("raw") ServiceBusSenderClient rawSender,
            @Entity("raw") ServiceBusReceiverClient raw,
            @Entity("enriched") ServiceBusSenderClient enrichedSender,
            @Entity("enriched") ServiceBusReceiverClient enriched) {
        rawSender.sendMessage(new ServiceBusMessage("temperature=21"));
        ServiceBusReceivedMessage input = raw.receiveMessages(1).iterator().next();

        ServiceBusTransactionContext transaction = enrichedSender.createTransaction();
        enrichedSender.sendMessage(new ServiceBusMessage("temperature=21C"), transaction);
        raw.complete(input, new CompleteOptions().setTransactionContext(transaction));
        assertEquals(0, enriched.peekMessages(10).stream().count(), "nothing is visible before the commit");
        enrichedSender.commitTransaction(transaction);

        assertEquals(
                "temperature=21C",
                enriched.receiveMessages(1).iterator().next().getBody().toString());
        assertEquals(0, raw.peekMessages(10).stream().count());
    }

    @Test
    @DisplayName("TXN-1 a rollback applies nothing: the input comes back once its lock runs out")
    void rollbackAppliesNothing(
            @Entity("raw") ServiceBusSenderClient rawSender,
            @Entity("raw") ServiceBusReceiverClient raw,
            @Entity("enriched") ServiceBusSenderClient enrichedSender,
            @Entity("enriched") ServiceBusReceiverClient enriched,
            VirtualClock clock) {
        rawSender.sendMessage(new ServiceBusMessage("temperature=21"));
        ServiceBusReceivedMessage input = raw.receiveMessages(1).iterator().next();

        ServiceBusTransactionContext transaction = enrichedSender.createTransaction();
        enrichedSender.sendMessage(new ServiceBusMessage("temperature=21C"), transaction);
        raw.complete(input, new CompleteOptions().setTransactionContext(transaction));
        enrichedSender.rollbackTransaction(transaction);

        assertEquals(0, enriched.peekMessages(10).stream().count());
        clock.advance(Duration.ofSeconds(30));
        ServiceBusReceivedMessage retry = raw.receiveMessages(1).iterator().next();
        assertEquals("temperature=21", retry.getBody().toString());
        assertEquals(1, retry.getDeliveryCount(), "the rolled-back delivery counted when its lock ran out");
    }
}
