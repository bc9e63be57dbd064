package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.CompleteOptions;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Transactions: completing the input message and sending the output message happen together or
 * not at all.
 */
@Disabled("session and transaction clients land with the next sdk-adapter merge")
@ServiceBusEmulator(queues = {@Queue(name = "raw"), @Queue(name = "enriched")})
class TransactionExampleTest {

    @Test
    @DisplayName("TXN-1 complete and send commit together; a rollback leaves the input for a retry")
    void completeAndSendAtomically(@Entity("raw") ServiceBusSenderClient rawSender,
                                   @Entity("raw") ServiceBusReceiverClient raw,
                                   @Entity("enriched") ServiceBusSenderClient enrichedSender,
                                   @Entity("enriched") ServiceBusReceiverClient enriched) {
        rawSender.sendMessage(new ServiceBusMessage("temperature=21"));
        ServiceBusReceivedMessage input = raw.receiveMessages(1).iterator().next();

        ServiceBusTransactionContext rolledBack = enrichedSender.createTransaction();
        enrichedSender.sendMessage(new ServiceBusMessage("temperature=21C"), rolledBack);
        raw.complete(input, new CompleteOptions().setTransactionContext(rolledBack));
        enrichedSender.rollbackTransaction(rolledBack);
        assertEquals(0, enriched.peekMessages(10).stream().count());

        ServiceBusTransactionContext committed = enrichedSender.createTransaction();
        enrichedSender.sendMessage(new ServiceBusMessage("temperature=21C"), committed);
        raw.complete(input, new CompleteOptions().setTransactionContext(committed));
        enrichedSender.commitTransaction(committed);

        assertEquals("temperature=21C", enriched.receiveMessages(1).iterator().next().getBody().toString());
        assertEquals(0, raw.peekMessages(10).stream().count());
    }
}
