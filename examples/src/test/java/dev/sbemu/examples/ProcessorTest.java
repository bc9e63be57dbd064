package dev.sbemu.examples;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.sdk.EmulatorClients;
import dev.sbemu.sdk.ProcessorOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A {@code ServiceBusProcessorClient} runs on its own threads, so the test waits for its effect
 * with Awaitility: a bounded wait on a condition, never a sleep.
 */
@ServiceBusEmulator(queues = {@Queue(name = "emails"), @Queue(name = "carts", requiresSession = true)})
class ProcessorTest {

    @Test
    @DisplayName("LOCK-2 a processor with 4 concurrent calls handles every message once and completes it")
    void processorConsumesEveryMessage(
            @Entity("emails") ServiceBusSenderClient sender,
            @Entity("emails") ServiceBusReceiverClient receiver,
            EmulatorClients clients) {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor = clients.processor(
                EntityPath.queue("emails"),
                ProcessorOptions.of(
                                context -> handled.add(
                                        context.getMessage().getBody().toString()),
                                error -> errors.add(error.getException()))
                        .withMaxConcurrentCalls(4));
        processor.start();

        for (int i = 1; i <= 20; i++) {
            sender.sendMessage(new ServiceBusMessage("mail " + i));
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == 20);
        processor.close();

        assertEquals(List.of(), errors);
        assertEquals(0, receiver.peekMessages(20).stream().count(), "auto-complete removed every message");
    }

    @Test
    @DisplayName("SES-2 a session processor handles two sessions at once, each in order")
    void sessionProcessorKeepsEachSessionInOrder(
            @Entity("carts") ServiceBusSenderClient sender, EmulatorClients clients) {
        Map<String, List<String>> bySession = new ConcurrentHashMap<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        ServiceBusProcessorClient processor = clients.processor(
                EntityPath.queue("carts"),
                ProcessorOptions.of(
                                context -> bySession
                                        .computeIfAbsent(
                                                context.getMessage().getSessionId(), id -> new CopyOnWriteArrayList<>())
                                        .add(context.getMessage().getBody().toString()),
                                error -> errors.add(error.getException()))
                        .withMaxConcurrentSessions(2));

        for (int item = 1; item <= 3; item++) {
            sender.sendMessage(new ServiceBusMessage("apple " + item).setSessionId("cart-1"));
            sender.sendMessage(new ServiceBusMessage("pear " + item).setSessionId("cart-2"));
        }
        processor.start();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> bySession.values().stream().mapToInt(List::size).sum() == 6);
        processor.close();

        assertEquals(List.of(), errors);
        assertEquals(List.of("apple 1", "apple 2", "apple 3"), bySession.get("cart-1"));
        assertEquals(List.of("pear 1", "pear 2", "pear 3"), bySession.get("cart-2"));
    }
}
