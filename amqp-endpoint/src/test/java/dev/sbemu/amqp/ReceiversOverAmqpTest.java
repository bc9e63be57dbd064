package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Prefetch, async receivers, processors and pending session accepts over the endpoint. */
class ReceiversOverAmqpTest extends EndpointFixture {

    @Test
    @DisplayName("AMQP-3 a prefetching receive-and-delete receiver gets every message once")
    void prefetch() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver = clients.receiver()
                        .queueName("orders")
                        .prefetchCount(50)
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            for (int batch = 0; batch < 4; batch++) {
                List<ServiceBusMessage> messages = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    messages.add(new ServiceBusMessage(Integer.toString(batch * 50 + i)));
                }
                sender.sendMessages(messages);
            }
            Set<String> seen = ConcurrentHashMap.newKeySet();
            while (seen.size() < 200) {
                for (ServiceBusReceivedMessage m : receiver.receiveMessages(100, Duration.ofSeconds(10))) {
                    assertTrue(seen.add(m.getBody().toString()), "delivered twice: " + m.getBody());
                }
            }
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        }
    }

    @Test
    @DisplayName("AMQP-1 the processor client built from the connection string handles and completes messages")
    void processor() throws Exception {
        namespace.createQueue("orders");
        List<String> handled = new CopyOnWriteArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        ServiceBusClientBuilder clients = clients();
        ServiceBusProcessorClient processor = clients.processor()
                .queueName("orders")
                .maxConcurrentCalls(2)
                .processMessage(
                        context -> handled.add(context.getMessage().getBody().toString()))
                .processError(context -> errors.add(context.getException()))
                .buildProcessorClient();
        try (ServiceBusSenderClient sender =
                clients.sender().queueName("orders").buildClient()) {
            processor.start();
            for (int i = 0; i < 20; i++) {
                sender.sendMessage(new ServiceBusMessage("m" + i));
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> handled.size() >= 20
                            && namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount() == 0);
            assertEquals(20, Set.copyOf(handled).size());
            assertEquals(List.of(), errors);
        } finally {
            processor.close();
        }
    }

    @Test
    @DisplayName("AMQP-1 the async receiver streams messages and settles them")
    void asyncReceiver() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverAsyncClient receiver = clients.receiver()
                        .queueName("orders")
                        .disableAutoComplete()
                        .buildAsyncClient()) {
            sender.sendMessages(List.of(new ServiceBusMessage("a"), new ServiceBusMessage("b")));
            // settle before cancelling the stream: cancelling closes the link, and a disposition still
            // waiting for the broker's answer then fails (as against the service)
            List<String> bodies = receiver.receiveMessages()
                    .concatMap(m -> receiver.complete(m).thenReturn(m.getBody().toString()))
                    .take(2)
                    .collectList()
                    .block(Duration.ofSeconds(30));
            assertEquals(List.of("a", "b"), bodies);
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        }
    }

    @Test
    @DisplayName("AMQP-6 accepting the next session waits until a session has messages")
    void pendingAcceptNextSession() throws Exception {
        namespace.createQueue(
                "carts", QueueOptions.builder().requiresSession(true).build());
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("carts").buildClient();
                ServiceBusSessionReceiverClient sessions =
                        clients.sessionReceiver().queueName("carts").buildClient()) {
            CompletableFuture<ServiceBusReceiverClient> accepted =
                    CompletableFuture.supplyAsync(sessions::acceptNextSession);
            // the attach is held: the accept is registered in the broker, holding no thread (AMQP-11)
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> namespace.waitingSessionAccepts(EntityPath.queue("carts")) == 1);
            assertTrue(!aWorkerWaitsForASession(), "no endpoint thread waits for the session");
            assertTrue(!accepted.isDone(), "accepted before any session had a message");
            sender.sendMessage(new ServiceBusMessage("x").setSessionId("late"));
            try (ServiceBusReceiverClient session = accepted.get(30, TimeUnit.SECONDS)) {
                assertEquals("late", session.getSessionId());
                ServiceBusReceivedMessage m = session.receiveMessages(1, Duration.ofSeconds(10))
                        .iterator()
                        .next();
                session.complete(m);
            }
        }
    }

    private static boolean aWorkerWaitsForASession() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("sbemu-amqp-"))
                .anyMatch(e -> Arrays.stream(e.getValue())
                        .anyMatch(frame -> frame.getMethodName().equals("acceptSession")));
    }
}
