package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.CompleteOptions;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.DeferOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageState;
import dev.sbemu.core.Namespace;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** TXN-1 through the SDK's types: senders and receivers, sync and async. */
class TransactionTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration SHORT = Duration.ofMillis(50);
    private static final Duration BLOCK = Duration.ofSeconds(10);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusReceiverClient receiver;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue("in");
        ns.createQueue("out");
        clients = EmulatorClients.of(ns);
        sender = clients.sender("out");
        receiver = clients.receiver(EntityPath.queue("in"), ServiceBusReceiveMode.PEEK_LOCK);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private List<ServiceBusReceivedMessage> receive(String queue, int n) {
        // closed after: a receive-and-delete receiver keeps its credit out and would take later messages (PAR-5)
        try (ServiceBusReceiverClient deleting =
                clients.receiver(EntityPath.queue(queue), ServiceBusReceiveMode.RECEIVE_AND_DELETE)) {
            return deleting.receiveMessages(n, SHORT).stream().collect(Collectors.toList());
        }
    }

    private ServiceBusReceivedMessage receiveOne() {
        clients.sender("in").sendMessage(new ServiceBusMessage("work"));
        return receiver.receiveMessages(1, SHORT).iterator().next();
    }

    @Test
    @DisplayName("TXN-1 complete an input and send an output in one transaction: commit applies both")
    void commitAppliesAll() {
        ServiceBusReceivedMessage in = receiveOne();
        ServiceBusTransactionContext tx = receiver.createTransaction();
        assertNotNull(tx.getTransactionId());
        assertEquals(16, tx.getTransactionId().remaining());
        receiver.complete(in, new CompleteOptions().setTransactionContext(tx));
        sender.sendMessage(new ServiceBusMessage("a"), tx);
        sender.sendMessages(List.of(new ServiceBusMessage("b"), new ServiceBusMessage("c")), tx);
        var batch = sender.createMessageBatch();
        batch.tryAddMessage(new ServiceBusMessage("d"));
        sender.sendMessages(batch, tx);
        Long scheduled = sender.scheduleMessage(
                new ServiceBusMessage("e"), START.plusSeconds(60).atOffset(ZoneOffset.UTC), tx);
        assertNotNull(scheduled);
        sender.scheduleMessages(
                        List.of(new ServiceBusMessage("f")),
                        START.plusSeconds(60).atOffset(ZoneOffset.UTC),
                        tx)
                .forEach(n -> assertTrue(n > 0));
        assertTrue(receive("out", 10).isEmpty(), "nothing visible before commit");
        assertEquals(1, ns.peek(EntityPath.queue("in"), 0, 10).size(), "the input is still there, locked");
        sender.commitTransaction(tx);
        assertEquals(
                List.of("a", "b", "c", "d"),
                receive("out", 10).stream().map(m -> m.getBody().toString()).collect(Collectors.toList()));
        assertTrue(ns.peek(EntityPath.queue("in"), 0, 10).isEmpty());
        ns.clock().advance(Duration.ofSeconds(60));
        assertEquals(2, receive("out", 10).size());
    }

    @Test
    @DisplayName("TXN-1 rollback applies nothing; the message stays locked and the SDK considers it settled")
    void rollbackAppliesNothing() {
        ServiceBusReceivedMessage in = receiveOne();
        ServiceBusTransactionContext tx = sender.createTransaction();
        receiver.complete(in, new CompleteOptions().setTransactionContext(tx));
        sender.sendMessage(new ServiceBusMessage("a"), tx);
        receiver.rollbackTransaction(tx);
        assertTrue(receive("out", 10).isEmpty());
        assertEquals(1, ns.peek(EntityPath.queue("in"), 0, 10).size());
        IllegalArgumentException settled = assertThrows(IllegalArgumentException.class, () -> receiver.complete(in));
        assertEquals("The message has either been deleted or already settled.", settled.getMessage());
        ServiceBusException ended = assertThrows(ServiceBusException.class, () -> sender.commitTransaction(tx));
        assertEquals(ServiceBusFailureReason.GENERAL_ERROR, ended.getReason());
    }

    @Test
    @DisplayName("TXN-1 abandon, defer and dead-letter in a transaction take effect on commit")
    void otherSettlements() {
        ServiceBusReceivedMessage abandoned = receiveOne();
        ServiceBusReceivedMessage deferred = receiveOne();
        ServiceBusReceivedMessage dead = receiveOne();
        ServiceBusTransactionContext tx = receiver.createTransaction();
        receiver.abandon(abandoned, new AbandonOptions().setTransactionContext(tx));
        receiver.defer(deferred, new DeferOptions().setTransactionContext(tx));
        receiver.deadLetter(
                dead, new DeadLetterOptions().setDeadLetterReason("bad").setTransactionContext(tx));
        receiver.commitTransaction(tx);
        var states = ns.peek(EntityPath.queue("in"), 0, 10).stream()
                .collect(Collectors.toMap(m -> m.sequenceNumber(), m -> m.state()));
        assertEquals(MessageState.ACTIVE, states.get(abandoned.getSequenceNumber()));
        assertEquals(MessageState.DEFERRED, states.get(deferred.getSequenceNumber()));
        ServiceBusReceivedMessage dlq = clients.receiver(
                        EntityPath.queue("in").withSubQueue(EntityPath.Part.DEAD_LETTER_QUEUE),
                        ServiceBusReceiveMode.PEEK_LOCK)
                .receiveMessages(1, SHORT)
                .iterator()
                .next();
        assertEquals("bad", dlq.getDeadLetterReason());
    }

    @Test
    @DisplayName("TXN-1 a transaction times out 2 minutes (virtual) after its first operation")
    void timeout() {
        ServiceBusTransactionContext tx = sender.createTransaction();
        sender.sendMessage(new ServiceBusMessage("a"), tx);
        ns.clock().advance(Duration.ofMinutes(2).plusSeconds(1));
        ServiceBusException e = assertThrows(ServiceBusException.class, () -> sender.commitTransaction(tx));
        assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("b"), tx));
        assertTrue(receive("out", 10).isEmpty());
    }

    @Test
    @DisplayName("TXN-1 argument checks as in the SDK")
    void argumentChecks() {
        NullPointerException npe =
                assertThrows(NullPointerException.class, () -> sender.sendMessage(new ServiceBusMessage("a"), null));
        assertEquals("'transactionContext' cannot be null.", npe.getMessage());
        assertThrows(NullPointerException.class, () -> receiver.commitTransaction(null));
        assertThrows(NullPointerException.class, () -> sender.rollbackTransaction(null));
    }

    @Test
    @DisplayName("TXN-1 async sender and receiver take part in a transaction")
    void async() {
        ServiceBusSenderAsyncClient asyncSender = clients.senderAsync("out");
        ServiceBusReceiverAsyncClient asyncReceiver =
                clients.receiverAsync(EntityPath.queue("in"), ServiceBusReceiveMode.PEEK_LOCK);
        clients.sender("in").sendMessage(new ServiceBusMessage("work"));
        ServiceBusReceivedMessage in = asyncReceiver.receiveMessages().blockFirst(BLOCK);
        ServiceBusTransactionContext tx = asyncReceiver.createTransaction().block(BLOCK);
        asyncReceiver
                .complete(in, new CompleteOptions().setTransactionContext(tx))
                .block(BLOCK);
        asyncSender.sendMessage(new ServiceBusMessage("a"), tx).block(BLOCK);
        asyncSender
                .scheduleMessage(
                        new ServiceBusMessage("s"), START.plusSeconds(5).atOffset(ZoneOffset.UTC), tx)
                .block(BLOCK);
        assertTrue(receive("out", 10).isEmpty());
        asyncSender.commitTransaction(tx).block(BLOCK);
        assertEquals(1, receive("out", 10).size());
        assertTrue(ns.peek(EntityPath.queue("in"), 0, 10).isEmpty());
        ServiceBusTransactionContext second = asyncSender.createTransaction().block(BLOCK);
        asyncSender.sendMessage(new ServiceBusMessage("b"), second).block(BLOCK);
        asyncReceiver.rollbackTransaction(second).block(BLOCK);
        ns.clock().advance(Duration.ofSeconds(5));
        assertEquals(1, receive("out", 10).size(), "only the committed scheduled message");
    }
}
