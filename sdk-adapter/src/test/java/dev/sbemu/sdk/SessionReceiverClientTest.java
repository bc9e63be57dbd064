package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.models.ServiceBusMessageState;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.sdk.internal.ClientContext;
import dev.sbemu.sdk.internal.LockRenewals;
import dev.sbemu.sdk.internal.SdkInstances;
import dev.sbemu.sdk.internal.SessionReceiverAsyncClientImpl;
import dev.sbemu.sdk.internal.SessionReceiverClientImpl;
import dev.sbemu.sdk.internal.TransactionRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The synchronous session receiver and the receivers it accepts (SES-1..5). */
class SessionReceiverClientTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration SHORT = Duration.ofMillis(50);
    private static final Duration LOCK = Duration.ofSeconds(30);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusSessionReceiverClient sessions;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue(
                "sq",
                QueueOptions.builder()
                        .requiresSession(true)
                        .lockDuration(LOCK)
                        .maxDeliveryCount(5)
                        .build());
        ns.createQueue("plain");
        clients = EmulatorClients.of(ns);
        sender = clients.sender("sq");
        sessions = clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private void send(String session, String body) {
        sender.sendMessage(new ServiceBusMessage(body).setSessionId(session));
    }

    private static List<ServiceBusReceivedMessage> receive(ServiceBusReceiverClient receiver, int n) {
        return receiver.receiveMessages(n, SHORT).stream().collect(Collectors.toList());
    }

    private static List<String> bodies(List<ServiceBusReceivedMessage> messages) {
        return messages.stream().map(m -> m.getBody().toString()).collect(Collectors.toList());
    }

    @Test
    @DisplayName("SES-2 acceptNextSession takes the session whose oldest message came first; in-order delivery")
    void acceptNextSession() {
        send("A", "a1");
        send("B", "b1");
        send("A", "a2");
        ServiceBusReceiverClient a = sessions.acceptNextSession();
        assertEquals("A", a.getSessionId());
        assertEquals("sq", a.getEntityPath());
        assertEquals(EmulatorClients.FULLY_QUALIFIED_NAMESPACE, a.getFullyQualifiedNamespace());
        assertNotNull(a.getIdentifier());
        List<ServiceBusReceivedMessage> got = receive(a, 10);
        assertEquals(List.of("a1", "a2"), bodies(got));
        assertEquals(START.plus(LOCK).atOffset(ZoneOffset.UTC), got.get(0).getLockedUntil());
        assertEquals("A", got.get(0).getSessionId());
        got.forEach(a::complete);
        ServiceBusReceiverClient b = sessions.acceptNextSession();
        assertEquals("B", b.getSessionId());
        assertEquals(List.of("b1"), bodies(receive(b, 10)));
    }

    @Test
    @DisplayName("SES-2 nextSessionReceiver accepts the next available session on first use, not when it is made")
    void nextSessionReceiverAcceptsOnFirstUse() {
        ServiceBusReceiverClient next = clients.nextSessionReceiver(
                EntityPath.queue("sq"),
                ServiceBusReceiveMode.PEEK_LOCK); // nothing sent yet: accepting now would wait for a session
        next.toString(); // accepts nothing
        send("B", "b1");
        send("A", "a1");
        assertEquals("B", next.getSessionId());
        assertEquals(List.of("b1"), bodies(receive(next, 10)));
        ServiceBusReceiverClient other = sessions.acceptNextSession();
        assertEquals("A", other.getSessionId(), "B is held by the first receiver");
        next.close();
        assertEquals(
                "B",
                clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK)
                        .acceptSession("B")
                        .getSessionId(),
                "closing the receiver released its session");
    }

    @Test
    @DisplayName("SES-2 PAR-4 acceptSession of a session held by another builder's receiver fails with "
            + "session-cannot-be-locked")
    void namedSessionHeld() {
        ServiceBusReceiverClient first = sessions.acceptSession("X"); // a named session can be empty
        assertEquals("X", first.getSessionId());
        EmulatorClients otherBuilder = EmulatorClients.of(ns);
        ServiceBusSessionReceiverClient other =
                otherBuilder.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
        AmqpException e = assertThrows(AmqpException.class, () -> other.acceptSession("X"));
        assertEquals(AmqpErrorCondition.SESSION_CANNOT_BE_LOCKED, e.getErrorCondition());
        assertEquals(
                ServiceBusFailureReason.SESSION_CANNOT_BE_LOCKED,
                new ServiceBusException(e, ServiceBusErrorSource.RECEIVE).getReason());
        first.close(); // releases the session
        assertEquals("X", other.acceptSession("X").getSessionId());
        otherBuilder.close();
        assertThrows(NullPointerException.class, () -> sessions.acceptSession(null));
        assertThrows(IllegalArgumentException.class, () -> sessions.acceptSession(""));
    }

    @Test
    @DisplayName("PAR-4 acceptSession of a session a receiver of the same clients holds hands back its link")
    void sameBuilderSharesTheSessionLink() {
        send("X", "x1");
        send("X", "x2");
        ServiceBusReceiverClient first = sessions.acceptSession("X");
        assertEquals("x1", receive(first, 1).get(0).getBody().toString());
        ServiceBusReceiverClient second = clients.sessionReceiver(
                        EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK)
                .acceptSession("X");
        assertEquals("x2", receive(second, 1).get(0).getBody().toString(), "the same link, the same session");
        second.close();
        assertEquals(
                "X", sessions.acceptSession("X").getSessionId(), "closing it ended the link: a new one is attached");
    }

    @Test
    @DisplayName("SES-2 acceptNextSession with no free session times out as the SDK's sync client (SERVICE_TIMEOUT)")
    void acceptNextSessionTimesOut() {
        TransactionRegistry transactions = new TransactionRegistry(ns);
        try (LockRenewals renewals = new LockRenewals(ns.clock())) {
            Duration tryTimeout = Duration.ofMillis(300);
            ClientContext context = new ClientContext(ns, "ns", renewals, transactions);
            SessionReceiverAsyncClientImpl async = new SessionReceiverAsyncClientImpl(
                    context, EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK, tryTimeout);
            ServiceBusSessionReceiverClient quick = SdkInstances.delegatingTo(
                    ServiceBusSessionReceiverClient.class, new SessionReceiverClientImpl(async, tryTimeout));
            IllegalStateException e = assertThrows(IllegalStateException.class, quick::acceptNextSession);
            assertEquals("com.microsoft:timeout", e.getMessage());
            TimeoutException timeout = assertInstanceOf(TimeoutException.class, e.getCause());
            AmqpException amqp = assertInstanceOf(AmqpException.class, timeout.getCause());
            assertEquals(AmqpErrorCondition.TIMEOUT_ERROR, amqp.getErrorCondition());
            assertTrue(amqp.isTransient());
            quick.close();
        }
    }

    @Test
    @DisplayName("SES-3 renewSessionLock extends the lock; once it expires settling fails with SESSION_LOCK_LOST")
    void sessionLockRenewAndLoss() {
        send("A", "a1");
        ServiceBusReceiverClient a = sessions.acceptNextSession();
        ServiceBusReceivedMessage m = receive(a, 1).get(0);
        assertEquals(0, m.getDeliveryCount());
        ns.clock().advance(Duration.ofSeconds(20));
        OffsetDateTime renewed = a.renewSessionLock();
        assertEquals(START.plusSeconds(20).plus(LOCK).atOffset(ZoneOffset.UTC), renewed);
        ns.clock().advance(Duration.ofSeconds(29));
        assertEquals(START.plusSeconds(49).plus(LOCK).atOffset(ZoneOffset.UTC), a.renewSessionLock());
        ns.clock().advance(LOCK.plusSeconds(1));
        ServiceBusException lost = assertThrows(ServiceBusException.class, () -> a.complete(m));
        assertEquals(ServiceBusFailureReason.SESSION_LOCK_LOST, lost.getReason());
        ServiceBusException renew = assertThrows(ServiceBusException.class, a::renewSessionLock);
        assertEquals(ServiceBusFailureReason.SESSION_LOCK_LOST, renew.getReason());
        ServiceBusReceiverClient again = sessions.acceptNextSession(); // the session is free again
        ServiceBusReceivedMessage redelivered = receive(again, 1).get(0);
        assertEquals("a1", redelivered.getBody().toString());
        assertEquals(1, redelivered.getDeliveryCount());
    }

    @Test
    @DisplayName("SES-3 renewSessionLock(maxDuration, onError) keeps the session on the virtual clock, then lets it go")
    void sessionAutoRenew() {
        send("A", "a1");
        ServiceBusReceiverClient a = sessions.acceptNextSession();
        ServiceBusReceivedMessage m = receive(a, 1).get(0);
        AtomicReference<Throwable> error = new AtomicReference<>();
        a.renewSessionLock(Duration.ofMinutes(3), error::set);
        for (int i = 0; i < 10; i++) {
            ns.clock().advance(Duration.ofSeconds(15));
        }
        a.complete(m); // 150 s later, still held
        assertNull(error.get());
        ns.clock().advance(Duration.ofMinutes(2)); // renewal stopped at 3 minutes, lock ran out
        ServiceBusException lost = assertThrows(ServiceBusException.class, a::getSessionState);
        assertEquals(ServiceBusFailureReason.SESSION_LOCK_LOST, lost.getReason());
    }

    @Test
    @DisplayName("SES-4 session state is null until set, cleared by null, kept after the messages are consumed")
    void sessionState() {
        send("A", "a1");
        ServiceBusReceiverClient a = sessions.acceptNextSession();
        assertNull(a.getSessionState());
        a.setSessionState("step-1".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("step-1".getBytes(StandardCharsets.UTF_8), a.getSessionState());
        receive(a, 1).forEach(a::complete);
        a.close();
        ServiceBusReceiverClient again = sessions.acceptSession("A");
        assertArrayEquals("step-1".getBytes(StandardCharsets.UTF_8), again.getSessionState());
        again.setSessionState(null);
        assertNull(again.getSessionState());
    }

    @Test
    @DisplayName("SES-5 a session receiver on a non-session queue, a plain receiver on a session queue, both fail")
    void wrongKindOfReceiver() {
        ServiceBusSessionReceiverClient onPlain =
                clients.sessionReceiver(EntityPath.queue("plain"), ServiceBusReceiveMode.PEEK_LOCK);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, onPlain::acceptNextSession);
        assertTrue(e.getMessage().contains("does not require sessions"), e.getMessage());
        ServiceBusReceiverClient plainOnSession =
                clients.receiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
        RuntimeException refused = assertThrows(
                RuntimeException.class,
                () -> plainOnSession.receiveMessages(1, SHORT).stream().count());
        assertTrue(refused.getMessage().endsWith("(Reason: upstream-error)"), refused.getMessage());
        UnsupportedOperationException notAllowed = assertInstanceOf(
                UnsupportedOperationException.class,
                refused.getCause(),
                "PAR-2: amqp:not-allowed, as the SDK's AMQP layer raises it");
        assertTrue(notAllowed.getMessage().contains("requires sessions"), notAllowed.getMessage());
        AmqpException missing = assertThrows(
                AmqpException.class,
                () -> clients.sessionReceiver(EntityPath.queue("nope"), ServiceBusReceiveMode.PEEK_LOCK)
                        .acceptSession("A"));
        assertEquals(AmqpErrorCondition.NOT_FOUND, missing.getErrorCondition());
    }

    @Test
    @DisplayName("SES-1 a message without session id is refused by a session queue")
    void sendWithoutSessionId() {
        ServiceBusException e =
                assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("no session")));
        assertTrue(e.getMessage().contains("SessionId was not set"), e.getMessage());
    }

    @Test
    @DisplayName("PEEK-2 a session receiver peeks only its session's messages, with its own cursor")
    void peekFilteredToSession() {
        send("A", "a1");
        send("B", "b1");
        send("A", "a2");
        ServiceBusReceiverClient b = sessions.acceptSession("B");
        assertEquals(List.of("b1"), bodies(b.peekMessages(10).stream().collect(Collectors.toList())));
        ServiceBusReceiverClient a = sessions.acceptSession("A");
        assertEquals("a1", a.peekMessage().getBody().toString());
        assertEquals("a2", a.peekMessage().getBody().toString());
        assertNull(a.peekMessage());
        assertEquals(List.of("a1", "a2"), bodies(a.peekMessages(5, 0).stream().collect(Collectors.toList())));
        assertEquals("b1", b.peekMessage(0).getBody().toString());
    }

    @Test
    @DisplayName("DLQ-4 defer in a session, then receive the deferred message through the session")
    void deferredThroughSession() {
        send("A", "a1");
        send("A", "a2");
        ServiceBusReceiverClient a = sessions.acceptSession("A");
        List<ServiceBusReceivedMessage> got = receive(a, 2);
        a.defer(got.get(0));
        a.abandon(got.get(1));
        ServiceBusReceivedMessage deferred = a.receiveDeferredMessage(got.get(0).getSequenceNumber());
        assertEquals(ServiceBusMessageState.DEFERRED, deferred.getState());
        a.complete(deferred);
        ServiceBusReceivedMessage again = receive(a, 1).get(0);
        assertEquals("a2", again.getBody().toString());
        a.deadLetter(again);
        assertTrue(a.receiveDeferredMessageBatch(List.of(got.get(0).getSequenceNumber())).stream()
                .findAny()
                .isEmpty());
        IllegalStateException renew = assertThrows(IllegalStateException.class, () -> a.renewMessageLock(again));
        assertEquals("Renewing message lock is an invalid operation when working with sessions.", renew.getMessage());
    }

    @Test
    @DisplayName("SES-3 closing a session receiver releases the session; its locked messages come back")
    void closeReleases() {
        send("A", "a1");
        ServiceBusReceiverClient a = sessions.acceptNextSession();
        assertEquals(1, receive(a, 1).size());
        a.close();
        ServiceBusReceiverClient again = sessions.acceptNextSession();
        assertEquals("A", again.getSessionId());
        assertEquals("a1", receive(again, 1).get(0).getBody().toString());
    }

    @Test
    @DisplayName("SES-2 PAR-5 receive-and-delete from a session")
    void receiveAndDelete() {
        send("A", "a1");
        ServiceBusSessionReceiverClient deleting =
                clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
        ServiceBusReceiverClient a = deleting.acceptNextSession();
        ServiceBusReceivedMessage m = receive(a, 1).get(0);
        assertEquals(
                "00000000-0000-0000-0000-000000000000",
                m.getLockToken(),
                "PAR-5: the service's empty delivery tag, as the SDK reads it");
        assertThrows(UnsupportedOperationException.class, () -> a.complete(m));
        a.close();
        assertTrue(ns.peek(EntityPath.queue("sq"), 0, 10).isEmpty());
        deleting.close();
    }

    @Test
    @DisplayName("LIM-2 a session id of 129 characters: sending it and accepting it are refused alike")
    void overlongSessionIdRefused() {
        String id = "s".repeat(129);
        // the SDK itself refuses the send ("sessionId cannot be longer than 128 characters.")
        assertThrows(
                IllegalArgumentException.class, () -> sender.sendMessage(new ServiceBusMessage("m").setSessionId(id)));
        IllegalArgumentException accept =
                assertThrows(IllegalArgumentException.class, () -> sessions.acceptSession(id));
        assertTrue(accept.getMessage().contains("at most 128 characters"), accept.getMessage());
        assertEquals(128, sessions.acceptSession("s".repeat(128)).getSessionId().length());
    }
}
