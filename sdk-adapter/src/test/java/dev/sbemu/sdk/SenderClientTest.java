package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.CreateMessageBatchOptions;
import com.azure.messaging.servicebus.models.ServiceBusMessageState;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every public method of the sender clients, sync and async. */
class SenderClientTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration BLOCK = Duration.ofSeconds(10);
    private static final int STANDARD_LIMIT = 256 * 1024;

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusSenderAsyncClient async;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue("q");
        clients = EmulatorClients.of(ns);
        sender = clients.sender("q");
        async = clients.senderAsync("q");
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private List<String> drain() {
        // closed after: a receive-and-delete receiver keeps its credit out and would take later messages (PAR-5)
        try (ServiceBusReceiverClient deleting =
                clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.RECEIVE_AND_DELETE)) {
            return deleting.receiveMessages(500, Duration.ofMillis(50)).stream()
                    .map(m -> m.getBody().toString())
                    .collect(Collectors.toList());
        }
    }

    private static OffsetDateTime at(int seconds) {
        return START.plusSeconds(seconds).atOffset(ZoneOffset.UTC);
    }

    @Test
    @DisplayName("identity getters")
    void identity() {
        assertEquals("q", sender.getEntityPath());
        assertEquals(EmulatorClients.FULLY_QUALIFIED_NAMESPACE, sender.getFullyQualifiedNamespace());
        assertNotNull(sender.getIdentifier());
        assertEquals("q", async.getEntityPath());
        assertEquals(EmulatorClients.FULLY_QUALIFIED_NAMESPACE, async.getFullyQualifiedNamespace());
        assertFalse(async.getIdentifier().equals(sender.getIdentifier()));
    }

    @Test
    @DisplayName("SEQ-3 sendMessage, sendMessages(iterable), sendMessages(batch) keep order")
    void sends() {
        sender.sendMessage(new ServiceBusMessage("1"));
        sender.sendMessages(List.of(new ServiceBusMessage("2"), new ServiceBusMessage("3")));
        ServiceBusMessageBatch batch = sender.createMessageBatch();
        assertTrue(batch.tryAddMessage(new ServiceBusMessage("4")));
        assertEquals(STANDARD_LIMIT, batch.getMaxSizeInBytes());
        sender.sendMessages(batch);
        ServiceBusMessageBatch small =
                sender.createMessageBatch(new CreateMessageBatchOptions().setMaximumSizeInBytes(1024));
        assertEquals(1024, small.getMaxSizeInBytes());
        sender.sendMessages(small); // empty: nothing sent
        sender.sendMessages(List.of());
        assertEquals(List.of("1", "2", "3", "4"), drain());
    }

    @Test
    @DisplayName("SCH-1 SCH-2 schedule and cancel, one and many")
    void scheduleAndCancel() {
        Long one = sender.scheduleMessage(new ServiceBusMessage("one"), at(60));
        List<Long> many = new ArrayList<>();
        sender.scheduleMessages(List.of(new ServiceBusMessage("two"), new ServiceBusMessage("three")), at(60))
                .forEach(many::add);
        assertEquals(2, many.size());
        ServiceBusReceivedMessage peeked = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK)
                .peekMessage(one);
        assertEquals(ServiceBusMessageState.SCHEDULED, peeked.getState());
        sender.cancelScheduledMessage(one);
        sender.cancelScheduledMessages(many.subList(0, 1));
        sender.cancelScheduledMessage(999); // unknown: the SDK reads not-found as success
        ns.clock().advance(Duration.ofSeconds(60));
        assertEquals(List.of("three"), drain());
        assertThrows(IllegalArgumentException.class, () -> sender.cancelScheduledMessage(-1));
    }

    @Test
    @DisplayName("the async sender: every operation is lazy and emits SDK results")
    void asyncSender() {
        async.sendMessage(new ServiceBusMessage("1")).block(BLOCK);
        async.sendMessages(List.of(new ServiceBusMessage("2"))).block(BLOCK);
        ServiceBusMessageBatch batch = async.createMessageBatch().block(BLOCK);
        batch.tryAddMessage(new ServiceBusMessage("3"));
        async.sendMessages(batch).block(BLOCK);
        ServiceBusMessageBatch sized = async.createMessageBatch(
                        new CreateMessageBatchOptions().setMaximumSizeInBytes(2048))
                .block(BLOCK);
        assertEquals(2048, sized.getMaxSizeInBytes());
        var lazy = async.sendMessage(new ServiceBusMessage("never subscribed"));
        Long seq = async.scheduleMessage(new ServiceBusMessage("s"), at(5)).block(BLOCK);
        List<Long> seqs = async.scheduleMessages(List.of(new ServiceBusMessage("t"), new ServiceBusMessage("u")), at(5))
                .collectList()
                .block(BLOCK);
        async.cancelScheduledMessage(seq).block(BLOCK);
        async.cancelScheduledMessages(seqs.subList(1, 2)).block(BLOCK);
        assertEquals(List.of("1", "2", "3"), drain());
        ns.clock().advance(Duration.ofSeconds(5));
        assertEquals(List.of("t"), drain());
        assertNotNull(lazy);
        IllegalArgumentException tooBig = assertThrows(
                IllegalArgumentException.class,
                () -> async.createMessageBatch(
                                new CreateMessageBatchOptions().setMaximumSizeInBytes(STANDARD_LIMIT + 1))
                        .block(BLOCK));
        assertTrue(tooBig.getMessage().contains("larger than the link size"), tooBig.getMessage());
    }

    @Test
    @DisplayName("LIM-1 tryAddMessage returns false at the 256 KB Standard limit; the batch sends what it holds")
    void batchLimit() {
        ServiceBusMessageBatch batch = sender.createMessageBatch();
        byte[] kb = new byte[1024];
        int added = 0;
        while (batch.tryAddMessage(new ServiceBusMessage(kb))) {
            added++;
        }
        assertTrue(added > 200 && added < 256, "added " + added);
        assertTrue(batch.getSizeInBytes() <= STANDARD_LIMIT);
        assertEquals(added, batch.getCount());
        sender.sendMessages(batch); // a batch the SDK filled to the link size is accepted whole
        assertEquals(added, ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount());
    }

    @Test
    @DisplayName("LIM-1 one message larger than 256 KB fails with MESSAGE_SIZE_EXCEEDED (sync and async)")
    void oversizeMessage() {
        ServiceBusMessage huge = new ServiceBusMessage(new byte[STANDARD_LIMIT + 1]);
        ServiceBusException e = assertThrows(ServiceBusException.class, () -> sender.sendMessage(huge));
        assertEquals(ServiceBusFailureReason.MESSAGE_SIZE_EXCEEDED, e.getReason());
        assertEquals(
                AmqpErrorCondition.LINK_PAYLOAD_SIZE_EXCEEDED,
                assertInstanceOf(AmqpException.class, e.getCause()).getErrorCondition());
        ServiceBusException a = assertThrows(
                ServiceBusException.class, () -> async.sendMessage(huge).block(BLOCK));
        assertEquals(ServiceBusFailureReason.MESSAGE_SIZE_EXCEEDED, a.getReason());
        ServiceBusException inList = assertThrows(ServiceBusException.class, () -> sender.sendMessages(List.of(huge)));
        assertEquals(ServiceBusFailureReason.MESSAGE_SIZE_EXCEEDED, inList.getReason());
        assertTrue(drain().isEmpty());
    }

    @Test
    @DisplayName("LIM-1 SDK quirk: a message that fits the link but not a batch is dropped by sendMessage silently")
    void nearLimitMessageDropped() {
        // the SDK's batch reserves 4 KB of a 256 KB link, and its sendMessage collector drops such a message
        ServiceBusMessage near = new ServiceBusMessage(new byte[STANDARD_LIMIT - 2048]);
        sender.sendMessage(near);
        assertTrue(drain().isEmpty());
        IllegalArgumentException inList =
                assertThrows(IllegalArgumentException.class, () -> sender.sendMessages(List.of(near)));
        assertTrue(inList.getMessage().contains("is too big to send even in a batch"), inList.getMessage());
    }

    @Test
    @DisplayName("sendMessages(iterable) splits into as many batches as the link size needs")
    void manyBatches() {
        List<ServiceBusMessage> messages = IntStream.range(0, 600)
                .mapToObj(i -> new ServiceBusMessage(new byte[1024]).setMessageId("m" + i))
                .collect(Collectors.toList());
        sender.sendMessages(messages);
        assertEquals(600, ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount());
    }

    @Test
    @DisplayName("LIM-3 unknown entity, closed sender, argument checks")
    void errors() {
        ServiceBusException missing = assertThrows(
                ServiceBusException.class, () -> clients.sender("nope").sendMessage(new ServiceBusMessage("x")));
        assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_NOT_FOUND, missing.getReason());
        assertThrows(NullPointerException.class, () -> sender.sendMessage(null));
        assertThrows(NullPointerException.class, () -> sender.scheduleMessage(new ServiceBusMessage("x"), null));
        sender.close();
        IllegalStateException closed =
                assertThrows(IllegalStateException.class, () -> sender.sendMessage(new ServiceBusMessage("x")));
        assertEquals("Cannot perform operation 'sendMessage' on a disposed sender.", closed.getMessage());
        async.close();
        assertThrows(
                IllegalStateException.class, () -> async.createTransaction().block(BLOCK));
    }

    @Test
    @DisplayName(
            "TTL-17 a TTL under a millisecond (zero, 1 ns) is not sent: the entity default applies, never by default")
    void subMillisecondTtlIsNotSent() {
        ns.createQueue(
                "tenMinutes",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .build());
        ServiceBusSenderClient toDefault = clients.sender("tenMinutes");
        for (Duration ttl : List.of(Duration.ZERO, Duration.ofNanos(1))) {
            sender.sendMessage(new ServiceBusMessage("q " + ttl).setTimeToLive(ttl));
            toDefault.sendMessage(new ServiceBusMessage("ten " + ttl).setTimeToLive(ttl));
        }
        ServiceBusReceivedMessage peeked = clients.receiver(
                        EntityPath.queue("tenMinutes"), ServiceBusReceiveMode.PEEK_LOCK)
                .peekMessage();
        assertEquals(Duration.ofMinutes(10), peeked.getTimeToLive());

        ns.clock().advance(Duration.ofMinutes(11));
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("tenMinutes")).totalMessageCount());
        ns.clock().advance(Duration.ofDays(1_000));
        assertEquals(List.of("q PT0S", "q PT0.000000001S"), drain());
    }
}
