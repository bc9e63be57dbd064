package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusErrorContext;
import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults.Failure;
import dev.sbemu.core.Faults.Operation;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Injected faults as the SDK's client types report them (FLT-2..6). */
class FaultInjectionTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration SHORT = Duration.ofMillis(50);
    private static final EntityPath ORDERS = EntityPath.queue("orders");
    private static final EntityPath CARTS = EntityPath.queue("carts");

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusReceiverClient receiver;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue("orders");
        ns.createQueue("carts", QueueOptions.builder().requiresSession(true).build());
        clients = EmulatorClients.of(ns);
        sender = clients.sender("orders");
        receiver = clients.receiver(ORDERS, ServiceBusReceiveMode.PEEK_LOCK);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private List<ServiceBusReceivedMessage> receive(int n) {
        return receiver.receiveMessages(n, SHORT).stream().collect(Collectors.toList());
    }

    private static ServiceBusException assertServiceBusException(
            ServiceBusFailureReason reason, boolean transient_, Runnable call) {
        ServiceBusException e = assertThrows(ServiceBusException.class, call::run);
        assertEquals(reason, e.getReason(), e.toString());
        assertEquals(transient_, e.isTransient(), "isTransient of " + reason);
        return e;
    }

    @ParameterizedTest(name = "FLT-2 a send failing with {0} throws ServiceBusException {1}, isTransient {2}")
    @CsvSource({
        "SERVICE_BUSY, SERVICE_BUSY, true",
        "QUOTA_EXCEEDED, QUOTA_EXCEEDED, false",
        "SERVICE_TIMEOUT, SERVICE_TIMEOUT, true",
        "MESSAGE_LOCK_LOST, MESSAGE_LOCK_LOST, false",
        "SESSION_LOCK_LOST, SESSION_LOCK_LOST, false",
        "ENTITY_DISABLED, MESSAGING_ENTITY_DISABLED, false",
        "ENTITY_DELETED, MESSAGING_ENTITY_NOT_FOUND, false"
    })
    void everyFailureAsTheSdkReportsIt(Failure failure, String reasonName, boolean transient_) throws Exception {
        ServiceBusFailureReason reason = (ServiceBusFailureReason)
                ServiceBusFailureReason.class.getField(reasonName).get(null);
        ns.faults().on("orders").failNext(1, Operation.SEND, failure);

        assertServiceBusException(reason, transient_, () -> sender.sendMessage(new ServiceBusMessage("lost")));

        if (failure != Failure.ENTITY_DELETED) {
            sender.sendMessage(new ServiceBusMessage("kept"));
            List<ServiceBusReceivedMessage> got = receive(5);
            assertEquals(
                    List.of("kept"),
                    got.stream().map(m -> m.getBody().toString()).toList(),
                    "the failed send left nothing behind; the next one went through");
        } else {
            assertFalse(ns.queueExists("orders"));
        }
    }

    @Test
    @DisplayName("FLT-2 a receive failing with SERVICE_TIMEOUT throws from the sync receiver; the message stays")
    void receiveFails() {
        sender.sendMessage(new ServiceBusMessage("a"));
        ns.faults().on(ORDERS).failNext(1, Operation.RECEIVE, Failure.SERVICE_TIMEOUT);

        assertServiceBusException(ServiceBusFailureReason.SERVICE_TIMEOUT, true, () -> receive(1));

        ServiceBusReceivedMessage m = receive(1).get(0);
        assertEquals(0, m.getDeliveryCount(), "the failed receive delivered nothing");
    }

    @Test
    @DisplayName("FLT-2 FLT-3 a complete failing with MESSAGE_LOCK_LOST loses the lock: the message comes back")
    void completeLosesLock() {
        sender.sendMessage(new ServiceBusMessage("a"));
        ServiceBusReceivedMessage first = receive(1).get(0);
        ns.faults().on(ORDERS).failNext(1, Operation.SETTLE, Failure.MESSAGE_LOCK_LOST);

        assertServiceBusException(ServiceBusFailureReason.MESSAGE_LOCK_LOST, false, () -> receiver.complete(first));

        ServiceBusReceivedMessage again = receive(1).get(0);
        assertEquals(1, again.getDeliveryCount());
        receiver.complete(again);
        assertEquals(0, ns.runtimeInfo(ORDERS).activeMessageCount());
    }

    @Test
    @DisplayName("FLT-2 renewMessageLock and abandon failing with SERVICE_BUSY keep the lock")
    void renewAndAbandonFail() {
        sender.sendMessage(new ServiceBusMessage("a"));
        ServiceBusReceivedMessage m = receive(1).get(0);
        ns.faults().on(ORDERS).failNext(1, Operation.RENEW_LOCK, Failure.SERVICE_BUSY);
        ns.faults().on(ORDERS).failNext(1, Operation.SETTLE, Failure.SERVICE_BUSY);

        assertServiceBusException(ServiceBusFailureReason.SERVICE_BUSY, true, () -> receiver.renewMessageLock(m));
        assertServiceBusException(ServiceBusFailureReason.SERVICE_BUSY, true, () -> receiver.abandon(m));

        receiver.complete(m);
    }

    @Test
    @DisplayName("FLT-1 FLT-2 a peek (a management request) failing with SERVICE_BUSY")
    void peekFails() {
        ns.faults().on(ORDERS).failNext(1, Operation.MANAGEMENT, Failure.SERVICE_BUSY);

        ServiceBusException e = assertThrows(ServiceBusException.class, () -> receiver.peekMessage());

        assertEquals(ServiceBusFailureReason.SERVICE_BUSY, e.getReason());
        assertTrue(e.isTransient());
    }

    @Test
    @DisplayName("FLT-2 accepting a session failing with SERVICE_BUSY raises the SDK's transient AmqpException")
    void acceptSessionFails() {
        ServiceBusSessionReceiverClient sessions = clients.sessionReceiver(CARTS, ServiceBusReceiveMode.PEEK_LOCK);
        ns.faults().on(CARTS).failNext(1, Operation.ACCEPT_SESSION, Failure.SERVICE_BUSY);

        AmqpException e = assertThrows(AmqpException.class, () -> sessions.acceptSession("cart-1"));

        assertEquals(AmqpErrorCondition.SERVER_BUSY_ERROR, e.getErrorCondition());
        assertTrue(e.isTransient());
        assertNotNull(sessions.acceptSession("cart-1"));
    }

    @Test
    @DisplayName("FLT-3 PAR-2 a session receive failing with SESSION_LOCK_LOST ends the session's lock and its stream")
    void sessionLockLost() {
        clients.sender("carts").sendMessage(new ServiceBusMessage("x").setSessionId("cart-1"));
        ServiceBusSessionReceiverClient sessions = clients.sessionReceiver(CARTS, ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceiverClient session = sessions.acceptSession("cart-1");
        ns.faults().on(CARTS).failNext(1, Operation.RECEIVE, Failure.SESSION_LOCK_LOST);

        RuntimeException e = assertThrows(
                RuntimeException.class,
                () -> session.receiveMessages(1, SHORT).stream().count());

        assertEquals(
                "The receiver client is terminated. Re-create the client to continue receive attempt. "
                        + "(Reason: upstream-completion)",
                e.getMessage(),
                "the SDK ends a session's stream without an error");
        assertEquals(
                ServiceBusFailureReason.SESSION_LOCK_LOST,
                assertThrows(ServiceBusException.class, session::renewSessionLock)
                        .getReason(),
                "the session's lock is really gone");
    }

    @Test
    @DisplayName("FLT-3 loseLock: the held message's complete fails with MESSAGE_LOCK_LOST")
    void loseLockNow() {
        sender.sendMessage(new ServiceBusMessage("a"));
        ServiceBusReceivedMessage m = receive(1).get(0);

        ns.faults().loseLock(ORDERS, UUID.fromString(m.getLockToken()));

        assertServiceBusException(ServiceBusFailureReason.MESSAGE_LOCK_LOST, false, () -> receiver.complete(m));
    }

    @Test
    @DisplayName("FLT-1 a send delayed by virtual time completes only once the clock has moved past it")
    void sendDelayedByVirtualTime() throws Exception {
        ns.faults().on("orders").delayNext(1, Operation.SEND, Duration.ofSeconds(10));

        CompletableFuture<Void> sent =
                CompletableFuture.runAsync(() -> sender.sendMessage(new ServiceBusMessage("slow")));
        await().atMost(10, TimeUnit.SECONDS).until(() -> faultEvents().size() == 1);
        assertFalse(sent.isDone());
        ns.clock().advance(Duration.ofSeconds(10));
        sent.get(10, TimeUnit.SECONDS);

        assertEquals(START.plusSeconds(10), receive(1).get(0).getEnqueuedTime().toInstant());
    }

    @Test
    @DisplayName("FLT-6 a processor reports a failed receive to processError and, after its back-off, goes on")
    void processorReportsReceiveFault() {
        ns.faults().on(ORDERS).failNext(1, Operation.RECEIVE, Failure.SERVICE_BUSY);
        List<ServiceBusErrorContext> errors = new CopyOnWriteArrayList<>();
        List<String> processed = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor = clients.processor(
                ORDERS,
                ProcessorOptions.of(c -> processed.add(c.getMessage().getBody().toString()), errors::add));
        sender.sendMessage(new ServiceBusMessage("a"));

        processor.start();
        await().atMost(10, TimeUnit.SECONDS).until(() -> !errors.isEmpty());
        ServiceBusException e =
                assertInstanceOf(ServiceBusException.class, errors.get(0).getException());
        assertEquals(ServiceBusFailureReason.SERVICE_BUSY, e.getReason());
        assertEquals(ServiceBusErrorSource.RECEIVE, errors.get(0).getErrorSource());
        await().atMost(20, TimeUnit.SECONDS).until(() -> processed.equals(List.of("a")));
        processor.close();
    }

    private List<JournalEvent> faultEvents() {
        return ns.journal().events().stream()
                .filter(e -> e.type() == JournalEvent.Type.FAULT_INJECTED)
                .toList();
    }
}
