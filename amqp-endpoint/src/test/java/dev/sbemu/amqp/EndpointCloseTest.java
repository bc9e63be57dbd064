package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the SDK's clients see when the endpoint closes under them (issue 22, item 13). */
class EndpointCloseTest {
    private static final Logger LOG = Logger.getLogger(EndpointCloseTest.class.getName());
    private final Namespace namespace = Namespace.create();

    @AfterEach
    void close() {
        namespace.close();
    }

    @Test
    @DisplayName("AMQP-14 a receive waiting when the endpoint closes returns or fails within 15 s (default retry "
            + "options), not after its 60 s wait")
    void waitingReceiveEndsSoonAfterClose() {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace);
        try (ServiceBusReceiverClient receiver = new ServiceBusClientBuilder()
                .connectionString(server.getConnectionString())
                .receiver()
                .queueName("orders")
                .buildClient()) {
            // a first receive that gets a message has the link attached: the second one waits on it when the endpoint
            // closes (a connection closed before any link attached is reconnected by the SDK whatever the error,
            // then its retries of the refused connect decide, as for a send after close)
            namespace.send("orders", Message.ofText("first"));
            receiver.complete(receiver.receiveMessages(1, Duration.ofSeconds(30)).stream()
                    .findFirst()
                    .orElseThrow());
            AtomicReference<Object> outcome = new AtomicReference<>();
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
                try {
                    List<ServiceBusReceivedMessage> got = receiver.receiveMessages(10, Duration.ofSeconds(60)).stream()
                            .toList();
                    outcome.set(got);
                } catch (RuntimeException e) {
                    outcome.set(e);
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> server.connectionCount() == 1);
            long closedAt = System.nanoTime();
            server.close();
            await().atMost(Duration.ofSeconds(15)).until(waiting::isDone);
            assertTrue(
                    outcome.get() instanceof RuntimeException e
                            && e.getMessage().contains("terminated"),
                    "the receive fails at once: " + outcome.get());
            LOG.info(() -> "a waiting receive ended " + (System.nanoTime() - closedAt) / 1_000_000
                    + " ms after close with " + outcome.get());
        }
    }

    @Test
    @DisplayName("AMQP-14 a send after the endpoint closed fails once the SDK's retries of the refused connect are "
            + "spent: short with short AmqpRetryOptions")
    void sendAfterCloseFailsWithinTheRetryOptions() {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace);
        try (ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                .connectionString(server.getConnectionString())
                .retryOptions(new AmqpRetryOptions()
                        .setMaxRetries(1)
                        .setDelay(Duration.ofMillis(100))
                        .setTryTimeout(Duration.ofSeconds(3)))
                .sender()
                .queueName("orders")
                .buildClient()) {
            sender.sendMessage(new ServiceBusMessage("before"));
            server.close();
            long start = System.nanoTime();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
                try {
                    sender.sendMessage(new ServiceBusMessage("after"));
                } catch (RuntimeException e) {
                    failure.set(e);
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(send::isDone);
            assertTrue(failure.get() != null, "the send after close failed");
            LOG.info(() -> "a send after close failed after " + (System.nanoTime() - start) / 1_000_000 + " ms: "
                    + failure.get());
        }
    }
}
