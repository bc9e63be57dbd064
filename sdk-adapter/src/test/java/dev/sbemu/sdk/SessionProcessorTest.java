package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.CompleteOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The session processor: sessions at once, calls per session, in-order delivery per session. */
class SessionProcessorTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Bound for a handler that waits for another to run at once: far above what a correct run needs. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    private Namespace ns;
    private EmulatorClients clients;

    @BeforeEach
    void setUp() {
        ns = Namespace.create();
        ns.createQueue("sq", QueueOptions.builder().requiresSession(true).build());
        clients = EmulatorClients.of(ns);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private void send(String session, int count) {
        for (int i = 0; i < count; i++) {
            clients.sender("sq").sendMessage(new ServiceBusMessage(session + i).setSessionId(session));
        }
    }

    private ServiceBusProcessorClient processor(
            Consumer<ServiceBusReceivedMessageContext> handler, int sessions, int calls) {
        return clients.processor(
                EntityPath.queue("sq"),
                ProcessorOptions.of(handler, e -> {})
                        .withMaxConcurrentSessions(sessions)
                        .withMaxConcurrentCalls(calls));
    }

    /** The virtual instants at which sessions were let go. */
    private List<Instant> releases() {
        return ns.journal().events().stream()
                .filter(e -> e.type() == JournalEvent.Type.SESSION_RELEASED)
                .map(JournalEvent::at)
                .toList();
    }

    private long sessionsReleased() {
        return ns.journal().events().stream()
                .filter(e -> e.type() == JournalEvent.Type.SESSION_RELEASED)
                .count();
    }

    @Test
    @DisplayName("TXN-1 TXN-2 a session processor's handler completes its message and sends the result in one "
            + "transaction")
    void transactionInSessionProcessor() {
        ns.createQueue("results");
        send("cart", 2);
        ServiceBusSenderClient results = clients.sender("results");
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor = clients.processor(
                EntityPath.queue("sq"),
                ProcessorOptions.of(
                                c -> {
                                    ServiceBusTransactionContext tx = results.createTransaction();
                                    results.sendMessage(
                                            new ServiceBusMessage(
                                                    "done " + c.getMessage().getBody()),
                                            tx);
                                    c.complete(new CompleteOptions().setTransactionContext(tx));
                                    results.commitTransaction(tx);
                                },
                                e -> errors.add(e.getException()))
                        .withSessions()
                        .withAutoComplete(false));

        processor.start();
        await().atMost(WAIT)
                .until(() -> ns.runtimeInfo(EntityPath.queue("results")).activeMessageCount() == 2);
        processor.close();

        assertEquals(List.of(), errors);
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("sq")).totalMessageCount());
    }

    @Test
    @DisplayName("SES-6 the processor lets its idle session go after the builder's sessionIdleTimeout, in virtual time")
    void sessionIdleTimeoutFromOptions() {
        send("cart", 1);
        List<String> seen = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor = clients.processor(
                EntityPath.queue("sq"),
                ProcessorOptions.of(c -> seen.add(c.getMessage().getBody().toString()), e -> {})
                        .withSessions()
                        .withSessionIdleTimeout(Duration.ofSeconds(10)));
        processor.start();
        await().atMost(WAIT).until(() -> seen.size() == 1);

        Instant handled = ns.clock().instant();
        ns.clock().advance(Duration.ofSeconds(9));
        // gives the processor's poll (every 100 ms) time to let the session go too early; whether or not it got to
        // run on a loaded machine, the instant of the release below is what decides
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> sessionsReleased() == 0);
        ns.clock().advance(Duration.ofSeconds(1));
        await().atMost(WAIT).until(() -> sessionsReleased() == 1);
        assertEquals(List.of(handled.plusSeconds(10)), releases(), "let go when its idle time ran out, not before");
        processor.close();
    }

    @Test
    @DisplayName("SES-6 without the option the session idle timeout is the SDK's try-timeout, one minute")
    void sessionIdleTimeoutDefault() {
        send("cart", 1);
        List<String> seen = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor =
                processor(c -> seen.add(c.getMessage().getBody().toString()), 1, 1);
        processor.start();
        await().atMost(WAIT).until(() -> seen.size() == 1);

        Instant handled = ns.clock().instant();
        ns.clock().advance(Duration.ofSeconds(30));
        // gives the processor's poll (every 100 ms) time to let the session go too early; whether or not it got to
        // run on a loaded machine, the instant of the release below is what decides
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> sessionsReleased() == 0);
        ns.clock().advance(Duration.ofSeconds(30));
        await().atMost(WAIT).until(() -> sessionsReleased() == 1);
        assertEquals(List.of(handled.plusSeconds(60)), releases(), "let go when its idle time ran out, not before");
        processor.close();
    }

    @Test
    @DisplayName("SES-6 a negative sessionIdleTimeout is refused as the SDK's builder refuses it")
    void negativeSessionIdleTimeout() {
        ProcessorOptions options = ProcessorOptions.of(c -> {}, e -> {});
        assertEquals(
                "'sessionIdleTimeout' cannot be negative.",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> options.withSessionIdleTimeout(Duration.ofSeconds(-1)))
                        .getMessage());
    }

    @Test
    @DisplayName("SES-2 SEQ-5 one session at a time: every session is processed, each in order, then completed")
    void everySessionInOrder() {
        send("A", 3);
        send("B", 3);
        send("C", 3);
        Map<String, List<String>> seen = new ConcurrentHashMap<>();
        ServiceBusProcessorClient processor = processor(
                c -> seen.computeIfAbsent(c.getMessage().getSessionId(), k -> new CopyOnWriteArrayList<>())
                        .add(c.getMessage().getBody().toString()),
                1,
                1);
        processor.start();
        await().atMost(WAIT)
                .until(() -> seen.values().stream().mapToInt(List::size).sum() == 9);
        assertEquals(List.of("A0", "A1", "A2"), seen.get("A"));
        assertEquals(List.of("B0", "B1", "B2"), seen.get("B"));
        assertEquals(List.of("C0", "C1", "C2"), seen.get("C"));
        await().atMost(WAIT).until(() -> ns.peek(EntityPath.queue("sq"), 0, 50).isEmpty());
        processor.close();
    }

    @Test
    @DisplayName("SES-2 maxConcurrentSessions sessions are handled at once")
    void concurrentSessions() throws InterruptedException {
        send("A", 1);
        send("B", 1);
        CountDownLatch both = new CountDownLatch(2);
        ServiceBusProcessorClient processor = processor(
                c -> {
                    both.countDown();
                    try {
                        both.await(
                                BOUND.toSeconds(),
                                TimeUnit.SECONDS); // returns at once only if the other session runs too
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                2,
                1);
        processor.start();
        assertTrue(both.await(BOUND.toSeconds(), TimeUnit.SECONDS));
        processor.stop();
    }

    @Test
    @DisplayName("SES-2 maxConcurrentCalls messages of one session are handled at once")
    void concurrentCallsPerSession() throws InterruptedException {
        send("A", 2);
        CountDownLatch both = new CountDownLatch(2);
        List<String> threads = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor = processor(
                c -> {
                    threads.add(Thread.currentThread().getName());
                    both.countDown();
                    try {
                        both.await(BOUND.toSeconds(), TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                1,
                2);
        processor.start();
        assertTrue(both.await(BOUND.toSeconds(), TimeUnit.SECONDS), threads.toString());
        processor.close();
    }

    @Test
    @DisplayName("SES-4 a handler can keep session state through its context's receiver; stop releases the session")
    void stopReleases() {
        send("A", 1);
        AtomicInteger handled = new AtomicInteger();
        ServiceBusProcessorClient processor = processor(c -> handled.incrementAndGet(), 1, 1);
        processor.start();
        assertTrue(processor.isRunning());
        await().atMost(WAIT).until(() -> handled.get() == 1);
        processor.stop();
        assertTrue(!processor.isRunning());
        send("A", 1);
        List<String> bodies = new ArrayList<>();
        clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK)
                .acceptSession("A")
                .receiveMessages(5, Duration.ofMillis(100))
                .forEach(m -> bodies.add(m.getBody().toString()));
        assertEquals(List.of("A0"), bodies);
    }
}
