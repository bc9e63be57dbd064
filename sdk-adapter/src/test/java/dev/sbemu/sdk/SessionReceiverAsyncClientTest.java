package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverAsyncClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

/** The asynchronous session receiver and the receivers it accepts (SES-2..5). */
class SessionReceiverAsyncClientTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration LOCK = Duration.ofSeconds(30);
    private static final Duration BLOCK = Duration.ofSeconds(10);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusSessionReceiverAsyncClient sessions;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue(
                "sq",
                QueueOptions.builder().requiresSession(true).lockDuration(LOCK).build());
        ns.createQueue("plain");
        clients = EmulatorClients.of(ns);
        sender = clients.sender("sq");
        sessions = clients.sessionReceiverAsync(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private void send(String session, String body) {
        sender.sendMessage(new ServiceBusMessage(body).setSessionId(session));
    }

    @Test
    @DisplayName("SES-2 acceptNextSession waits until a session has a message, however long")
    void acceptNextSessionWaits() {
        AtomicReference<ServiceBusReceiverAsyncClient> accepted = new AtomicReference<>();
        Disposable pending = sessions.acceptNextSession().subscribe(accepted::set);
        assertNull(accepted.get());
        send("A", "a1");
        await().atMost(BLOCK).until(() -> accepted.get() != null);
        ServiceBusReceiverAsyncClient a = accepted.get();
        assertEquals("A", a.getSessionId());
        assertEquals("sq", a.getEntityPath());
        ServiceBusReceivedMessage m = a.receiveMessages().blockFirst(BLOCK);
        assertEquals("a1", m.getBody().toString());
        a.complete(m).block(BLOCK);
        pending.dispose();
    }

    @Test
    @DisplayName("SES-2 a cancelled acceptNextSession locks nothing")
    void cancelledAcceptLocksNothing() {
        Disposable pending = sessions.acceptNextSession().subscribe();
        pending.dispose();
        send("A", "a1");
        ServiceBusReceiverAsyncClient a = sessions.acceptSession("A").block(BLOCK);
        assertEquals("A", a.getSessionId());
    }

    @Test
    @DisplayName("SES-2 PAR-4 acceptSession of a session another builder holds fails with session-cannot-be-locked; "
            + "from the same builder it shares the holder's link")
    void namedSessionHeld() {
        ServiceBusReceiverAsyncClient x = sessions.acceptSession("X").block(BLOCK);
        assertEquals("X", x.getSessionId());
        try (EmulatorClients otherBuilder = EmulatorClients.of(ns)) {
            ServiceBusSessionReceiverAsyncClient other =
                    otherBuilder.sessionReceiverAsync(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
            AmqpException e = assertThrows(
                    AmqpException.class, () -> other.acceptSession("X").block(BLOCK));
            assertEquals(AmqpErrorCondition.SESSION_CANNOT_BE_LOCKED, e.getErrorCondition());
            assertFalse(e.isTransient());
        }
        assertEquals("X", sessions.acceptSession("X").block(BLOCK).getSessionId());
        assertThrows(
                NullPointerException.class, () -> sessions.acceptSession(null).block(BLOCK));
        assertThrows(
                IllegalArgumentException.class, () -> sessions.acceptSession("").block(BLOCK));
    }

    @Test
    @DisplayName("SES-5 a session receiver on a non-session queue fails as not supported")
    void nonSessionEntity() {
        ServiceBusSessionReceiverAsyncClient onPlain =
                clients.sessionReceiverAsync(EntityPath.queue("plain"), ServiceBusReceiveMode.PEEK_LOCK);
        assertThrows(
                UnsupportedOperationException.class,
                () -> onPlain.acceptNextSession().block(BLOCK));
    }

    @Test
    @DisplayName("SES-3 SES-4 the accepted async receiver renews, keeps state, and loses the session on expiry")
    void sessionOperations() {
        send("A", "a1");
        ServiceBusReceiverAsyncClient a = sessions.acceptSession("A").block(BLOCK);
        assertNull(a.getSessionState().block(BLOCK));
        a.setSessionState(new byte[] {1, 2}).block(BLOCK);
        assertArrayEquals(new byte[] {1, 2}, a.getSessionState().block(BLOCK));
        ns.clock().advance(Duration.ofSeconds(10));
        assertEquals(
                START.plusSeconds(10).plus(LOCK).atOffset(ZoneOffset.UTC),
                a.renewSessionLock().block(BLOCK));
        assertEquals("a1", a.peekMessage().block(BLOCK).getBody().toString());
        ServiceBusReceivedMessage m = a.receiveMessages().blockFirst(BLOCK);
        ns.clock().advance(LOCK.plusSeconds(1));
        ServiceBusException lost =
                assertThrows(ServiceBusException.class, () -> a.complete(m).block(BLOCK));
        assertEquals(ServiceBusFailureReason.SESSION_LOCK_LOST, lost.getReason());
        IllegalStateException onPlain = assertThrows(
                IllegalStateException.class,
                () -> clients.receiverAsync(EntityPath.queue("plain"), ServiceBusReceiveMode.PEEK_LOCK)
                        .renewSessionLock(Duration.ofMinutes(1))
                        .block(BLOCK));
        assertEquals("Cannot renew session lock on a non-session receiver.", onPlain.getMessage());
    }

    @Test
    @DisplayName("SES-3 renewSessionLock(maxDuration) renews on the virtual clock and completes at the end")
    void autoRenew() {
        ServiceBusReceiverAsyncClient a = sessions.acceptSession("A").block(BLOCK);
        List<Object> signals = new CopyOnWriteArrayList<>();
        a.renewSessionLock(Duration.ofMinutes(2)).subscribe(v -> {}, signals::add, () -> signals.add("done"));
        for (int i = 0; i < 8; i++) {
            ns.clock().advance(Duration.ofSeconds(15));
        }
        assertTrue(signals.contains("done"), signals.toString());
        a.setSessionState(new byte[] {7}).block(BLOCK); // still held at 120 s: last renewed at 100 s
        ns.clock().advance(Duration.ofSeconds(11));
        ServiceBusException lost = assertThrows(
                ServiceBusException.class, () -> a.getSessionState().block(BLOCK));
        assertEquals(ServiceBusFailureReason.SESSION_LOCK_LOST, lost.getReason());
    }

    @Test
    @DisplayName("SES-3 closing the session client releases the sessions it accepted")
    void closeReleasesAccepted() {
        send("A", "a1");
        ServiceBusReceiverAsyncClient a = sessions.acceptNextSession().block(BLOCK);
        assertEquals("a1", a.receiveMessages().blockFirst(BLOCK).getBody().toString());
        sessions.close();
        ServiceBusSessionReceiverAsyncClient other =
                clients.sessionReceiverAsync(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceiverAsyncClient again = other.acceptSession("A").block(BLOCK);
        ServiceBusReceivedMessage redelivered = again.receiveMessages().blockFirst(BLOCK);
        assertEquals(1, redelivered.getDeliveryCount());
        IllegalStateException closed = assertThrows(
                IllegalStateException.class, () -> a.getSessionState().block(BLOCK));
        assertInstanceOf(IllegalStateException.class, closed);
    }
}
