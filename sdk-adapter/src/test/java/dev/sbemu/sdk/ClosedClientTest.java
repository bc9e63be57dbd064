package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Closing a client ends its pending operations at once, as the SDK's clients do, and nothing is taken
 * on behalf of a closed client (issue 16, defect 1). Each blocked call waits far longer (a minute)
 * than the test awaits its end, so a call that ignores the close fails the test.
 */
class ClosedClientTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration LONG_WAIT = Duration.ofMinutes(1);
    private static final Duration AWAIT = Duration.ofSeconds(20);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder().startingAt(START).build();
        ns.createQueue("q");
        ns.createQueue("sq", QueueOptions.builder().requiresSession(true).build());
        clients = EmulatorClients.of(ns);
        sender = clients.sender("q");
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    /** Runs {@code call} on its own thread and returns once that thread is blocked (waiting in the core). */
    private static <T> Blocked<T> blockedIn(Supplier<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try {
                        result.complete(call.get());
                    } catch (Throwable e) {
                        result.completeExceptionally(e);
                    }
                },
                "blocked-call");
        t.setDaemon(true);
        t.start();
        await().atMost(AWAIT).until(() -> t.getState() == Thread.State.TIMED_WAITING || result.isDone());
        return new Blocked<>(t, result);
    }

    private record Blocked<T>(Thread thread, CompletableFuture<T> result) {
        Throwable awaitFailure() {
            await().atMost(AWAIT).until(result::isDone);
            assertTrue(result.isCompletedExceptionally(), () -> "the call did not fail: " + result.join());
            return result.handle((v, e) -> e).join();
        }
    }

    @Test
    @DisplayName("CLK-5 closing a receiver ends a receiveMessages blocked on it with the SDK's terminated error")
    void closeEndsBlockedReceive() {
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        Blocked<List<ServiceBusReceivedMessage>> blocked =
                blockedIn(() -> receiver.receiveMessages(1, LONG_WAIT).stream().collect(Collectors.toList()));

        receiver.close();

        RuntimeException e = assertInstanceOf(RuntimeException.class, blocked.awaitFailure());
        assertEquals(
                "The receiver client is terminated. Re-create the client to continue receive attempt. "
                        + "(Reason: downstream-cancel)",
                e.getMessage());
    }

    @Test
    @DisplayName(
            "CLK-5 a message sent after the close is not taken by the closed receiver: the next receiver gets it at once")
    void noMessageTakenForClosedReceiver() {
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        Blocked<List<ServiceBusReceivedMessage>> blocked =
                blockedIn(() -> receiver.receiveMessages(1, LONG_WAIT).stream().collect(Collectors.toList()));
        receiver.close();
        sender.sendMessage(new ServiceBusMessage("after close"));
        blocked.awaitFailure();

        ServiceBusReceiverClient next = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        List<ServiceBusReceivedMessage> got =
                next.receiveMessages(1, Duration.ofMillis(50)).stream().collect(Collectors.toList());
        assertEquals(1, got.size(), "the message was locked to the closed receiver");
        assertEquals(0, got.get(0).getDeliveryCount());
        next.complete(got.get(0));
    }

    @Test
    @DisplayName("CLK-5 closing a receiver of an accepted session ends a receive blocked on it")
    void closeEndsBlockedSessionReceive() {
        ServiceBusSenderClient sessionSender = clients.sender("sq");
        sessionSender.sendMessage(new ServiceBusMessage("first").setSessionId("A"));
        ServiceBusSessionReceiverClient sessions =
                clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceiverClient session = sessions.acceptSession("A");
        ServiceBusReceivedMessage first = session.receiveMessages(1).iterator().next();
        session.complete(first);
        Blocked<List<ServiceBusReceivedMessage>> blocked =
                blockedIn(() -> session.receiveMessages(1, LONG_WAIT).stream().collect(Collectors.toList()));

        session.close();

        assertInstanceOf(RuntimeException.class, blocked.awaitFailure());
        sessionSender.sendMessage(new ServiceBusMessage("second").setSessionId("A"));
        ServiceBusReceiverClient again = sessions.acceptSession("A");
        assertEquals(
                "second", again.receiveMessages(1).iterator().next().getBody().toString());
    }

    @Test
    @DisplayName(
            "CLK-5 SES-2 closing a session receiver client ends a pending acceptNextSession at once (disposed receiver)")
    void closeEndsPendingAcceptNextSession() {
        ServiceBusSessionReceiverClient sessions =
                clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
        Blocked<ServiceBusReceiverClient> blocked = blockedIn(sessions::acceptNextSession);

        sessions.close();

        IllegalStateException e = assertInstanceOf(IllegalStateException.class, blocked.awaitFailure());
        assertEquals("Cannot perform operation 'acceptSession' on a disposed receiver.", e.getMessage());
        // no session was locked for the closed client: another one accepts it at once
        clients.sender("sq").sendMessage(new ServiceBusMessage("m").setSessionId("A"));
        ServiceBusReceiverClient next = clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK)
                .acceptNextSession();
        assertEquals("A", next.getSessionId());
    }

    @Test
    @DisplayName("CLK-5 closing the namespace stops a processor built on it and ends a receive blocked on it")
    void namespaceCloseStopsWhatIsBuiltOnIt() {
        ServiceBusProcessorClient processor =
                clients.processor(EntityPath.queue("q"), ProcessorOptions.of(context -> {}, error -> {}));
        processor.start();
        await().atMost(AWAIT).until(() -> !processorThreads().isEmpty());
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        Blocked<List<ServiceBusReceivedMessage>> blocked =
                blockedIn(() -> receiver.receiveMessages(1, LONG_WAIT).stream().collect(Collectors.toList()));

        ns.close();

        assertInstanceOf(RuntimeException.class, blocked.awaitFailure());
        assertTrue(processorThreads().isEmpty(), () -> "processor threads left: " + processorThreads());
        assertFalse(processor.isRunning());
    }

    private static List<String> processorThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("sbemu-processor-"))
                .collect(Collectors.toList());
    }
}
