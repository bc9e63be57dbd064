package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusErrorContext;
import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProcessorClientTest {
    private static final Duration AWAIT = Duration.ofSeconds(10);
    /** Shorter than the SDK's 5-second receive back-off that a prompt stop cuts short. */
    private static final Duration PROMPT = Duration.ofSeconds(4);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private final List<ServiceBusErrorContext> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        ns = Namespace.builder()
                .startingAt(Instant.parse("2030-01-01T00:00:00Z"))
                .build();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        clients = EmulatorClients.of(ns);
        sender = clients.sender("q");
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private ServiceBusProcessorClient processor(Consumer<ServiceBusReceivedMessageContext> handler, int concurrency) {
        return clients.processor(
                EntityPath.queue("q"), ProcessorOptions.of(handler, errors::add).withMaxConcurrentCalls(concurrency));
    }

    /** The live worker threads of processors (named sbemu-processor-...). */
    private static List<String> workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("sbemu-processor-"))
                .collect(Collectors.toList());
    }

    private long activeCount() {
        EntityRuntimeInfo info = ns.runtimeInfo(EntityPath.queue("q"));
        return info.totalMessageCount();
    }

    @Test
    @DisplayName("processes every message with real contexts and auto-completes them")
    void processesAndCompletes() {
        Set<String> bodies = ConcurrentHashMap.newKeySet();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ServiceBusProcessorClient processor = processor(
                ctx -> {
                    assertEquals("q", ctx.getEntityPath());
                    bodies.add(ctx.getMessage().getBody().toString());
                    threads.add(Thread.currentThread().getName());
                },
                3);
        for (int i = 0; i < 20; i++) {
            sender.sendMessage(new ServiceBusMessage("m" + i));
        }
        assertFalse(processor.isRunning());
        processor.start();
        assertTrue(processor.isRunning());
        await().atMost(AWAIT).until(() -> bodies.size() == 20 && activeCount() == 0);
        assertTrue(threads.stream().allMatch(t -> t.startsWith("sbemu-processor-q-")), threads.toString());
        processor.stop();
        assertFalse(processor.isRunning());
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals("q", processor.getQueueName());
        assertNull(processor.getTopicName());
        assertNull(processor.getSubscriptionName());
        assertNotNull(processor.getIdentifier());
    }

    @Test
    @DisplayName("DLQ-2 a throwing handler: USER_CALLBACK error, message abandoned, then dead-lettered")
    void handlerThrows() {
        ServiceBusProcessorClient processor = processor(
                ctx -> {
                    throw new IllegalStateException("boom");
                },
                1);
        sender.sendMessage(new ServiceBusMessage("x"));
        processor.start();
        await().atMost(AWAIT).until(() -> ns.runtimeInfo(EntityPath.queue("q")).deadLetterMessageCount() == 1);
        processor.close();
        assertEquals(10, errors.size());
        ServiceBusErrorContext first = errors.get(0);
        assertEquals(ServiceBusErrorSource.USER_CALLBACK, first.getErrorSource());
        assertInstanceOf(ServiceBusException.class, first.getException());
        assertEquals("boom", first.getException().getCause().getMessage());
        assertEquals("q", first.getEntityPath());
    }

    @Test
    @DisplayName("a handler can settle the message itself; auto-complete then does nothing")
    void handlerSettles() {
        ServiceBusProcessorClient processor = processor(ServiceBusReceivedMessageContext::deadLetter, 1);
        sender.sendMessage(new ServiceBusMessage("x"));
        processor.start();
        await().atMost(AWAIT).until(() -> ns.runtimeInfo(EntityPath.queue("q")).deadLetterMessageCount() == 1);
        processor.close();
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    @DisplayName("LOCK-1 the lock is renewed on the virtual clock while the handler runs")
    void autoLockRenewal() throws Exception {
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ServiceBusProcessorClient processor = processor(
                ctx -> {
                    inHandler.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                1);
        sender.sendMessage(new ServiceBusMessage("x"));
        processor.start();
        assertTrue(inHandler.await(10, TimeUnit.SECONDS));
        ns.clock().advance(Duration.ofMinutes(4)); // 8 lock durations; the default renews for 5 minutes
        release.countDown();
        await().atMost(AWAIT).until(() -> activeCount() == 0);
        processor.close();
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    @DisplayName("LIM-3 a missing entity: the error handler gets MESSAGING_ENTITY_NOT_FOUND; stop is prompt")
    void missingEntity() {
        ServiceBusProcessorClient processor =
                clients.processor(EntityPath.queue("missing"), ProcessorOptions.of(ctx -> {}, errors::add));
        processor.start();
        await().atMost(AWAIT).until(() -> !errors.isEmpty());
        // the worker is in the SDK's 5-second back-off now: a prompt close ends well before it would
        CompletableFuture<Void> closing = CompletableFuture.runAsync(processor::close);
        await().atMost(PROMPT).until(closing::isDone);
        assertTrue(workerThreads().isEmpty(), () -> "workers left: " + workerThreads());
        ServiceBusException e = (ServiceBusException) errors.get(0).getException();
        assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_NOT_FOUND, e.getReason());
        assertEquals(ServiceBusErrorSource.RECEIVE, errors.get(0).getErrorSource());
    }

    @Test
    @DisplayName("stop wakes idle workers promptly; start again resumes")
    void stopAndRestart() {
        Set<String> bodies = ConcurrentHashMap.newKeySet();
        ServiceBusProcessorClient processor =
                processor(ctx -> bodies.add(ctx.getMessage().getBody().toString()), 2);
        processor.start();
        await().atMost(AWAIT).until(() -> workerThreads().size() == 2);
        processor.stop();
        // idle workers block in a 30-second receive; stop waits 10 s at most for them: none may be left
        assertTrue(workerThreads().isEmpty(), () -> "workers left: " + workerThreads());
        sender.sendMessage(new ServiceBusMessage("later"));
        processor.start();
        await().atMost(AWAIT).until(() -> bodies.contains("later"));
        processor.close();
    }
}
