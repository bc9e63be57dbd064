package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Batches: {@code tryAddMessage} says false once the batch would exceed the tier's message size
 * limit (256 KB on Standard), so the sender ships what it has and starts a new batch.
 */
@ServiceBusEmulator(queues = @Queue(name = "uploads"))
class MessageBatchTest {

    @Test
    @DisplayName("LIM-1 a batch fills up to the 256 KB Standard limit")
    void batchFillsUpToTheLimit(
            @Entity("uploads") ServiceBusSenderClient sender, @Entity("uploads") ServiceBusReceiverClient receiver) {
        byte[] chunk = new byte[100 * 1024];
        ServiceBusMessageBatch batch = sender.createMessageBatch();

        assertTrue(batch.tryAddMessage(new ServiceBusMessage(chunk)));
        assertTrue(batch.tryAddMessage(new ServiceBusMessage(chunk)));
        assertFalse(batch.tryAddMessage(new ServiceBusMessage(chunk)), "a third 100 KB chunk does not fit");
        sender.sendMessages(batch);

        assertEquals(2, batch.getCount());
        assertEquals(2, receiver.peekMessages(10).stream().count());
    }
}
