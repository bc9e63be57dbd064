package dev.sbemu.sdk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Processors while another thread moves the clock past the lock duration again and again: every
 * message is handled and completed, and no message is ever in two handlers at once (issue 16, defect 2:
 * a lock that expired between the receive and the start of its renewal let a second worker take the
 * message while the first still ran its handler).
 */
@Tag("scale") // many connections, threads or messages: run by the scale-tests execution (pom.xml)
class ProcessorStressTest {
    private static final int MESSAGES = 2_000;
    private static final int BATCH = 25;
    private static final Duration LOCK = Duration.ofSeconds(5);
    /** Each step expires every lock that is not being renewed. */
    private static final Duration STEP = LOCK.plusSeconds(1);

    private static final Duration AWAIT = Duration.ofMinutes(2);

    private Namespace ns;
    private EmulatorClients clients;
    private final Set<String> inHandler = ConcurrentHashMap.newKeySet();
    private final Set<String> completed = ConcurrentHashMap.newKeySet();
    private final List<String> overlaps = new CopyOnWriteArrayList<>();
    private final List<Object> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        ns = Namespace.builder()
                .startingAt(Instant.parse("2030-01-01T00:00:00Z"))
                .build();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .lockDuration(LOCK)
                        .maxDeliveryCount(2_000)
                        .build());
        clients = EmulatorClients.of(ns);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private void handle(ServiceBusReceivedMessageContext context) {
        ServiceBusReceivedMessage m = context.getMessage();
        String id = m.getMessageId();
        if (!inHandler.add(id)) {
            overlaps.add(id + " (delivery count " + m.getDeliveryCount() + ")");
            return;
        }
        try {
            context.complete();
            completed.add(id);
        } catch (RuntimeException lockLost) {
            // a stale lock: the message comes back and is handled again later
        } finally {
            inHandler.remove(id);
        }
    }

    @Test
    @DisplayName("LOCK-2 processors and a clock moving past the lock duration: no message in two handlers at once")
    void noMessageHandledTwiceAtOnce() throws InterruptedException {
        Consumer<ServiceBusReceivedMessageContext> handler = this::handle;
        List<ServiceBusProcessorClient> processors = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ServiceBusProcessorClient p = clients.processor(
                    EntityPath.queue("q"),
                    ProcessorOptions.of(handler, errors::add)
                            .withMaxConcurrentCalls(4)
                            .withAutoComplete(false)
                            .withMaxAutoLockRenewDuration(Duration.ofDays(365)));
            processors.add(p);
            p.start();
        }
        AtomicBoolean done = new AtomicBoolean();
        Thread clockMover = new Thread(
                () -> {
                    while (!done.get()) {
                        ns.clock().advance(STEP);
                    }
                },
                "clock-mover");
        clockMover.start();
        try {
            ServiceBusSenderClient sender = clients.sender("q");
            byte[] body = new byte[8 * 1024]; // a larger body widens the gap between receive and handler
            for (int i = 0; i < MESSAGES; i += BATCH) {
                List<ServiceBusMessage> batch = new ArrayList<>(BATCH);
                for (int j = i; j < i + BATCH; j++) {
                    batch.add(new ServiceBusMessage(body).setMessageId("m" + j));
                }
                sender.sendMessages(batch);
            }
            await().atMost(AWAIT).until(() -> completed.size() == MESSAGES || !overlaps.isEmpty());
        } finally {
            done.set(true);
            clockMover.join();
            processors.forEach(ServiceBusProcessorClient::close);
        }
        assertTrue(overlaps.isEmpty(), () -> "handled by two handlers at once: " + overlaps);
        assertEquals(MESSAGES, completed.size());
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("q")).totalMessageCount());
        assertTrue(errors.isEmpty(), errors::toString);
    }
}
