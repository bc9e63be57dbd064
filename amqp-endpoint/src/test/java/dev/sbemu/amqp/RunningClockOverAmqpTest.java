package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The SDK's automatic lock renewal (on the wall clock) against a namespace whose clock runs (AMQP-17, CLK-6). */
class RunningClockOverAmqpTest {

    private static List<JournalEvent> renewals(Namespace namespace) {
        return namespace.journal().events().stream()
                .filter(e -> e.type() == JournalEvent.Type.LOCK_RENEWED)
                .toList();
    }

    @Test
    @DisplayName("AMQP-17 a processor with automatic lock renewal renews at the SDK's pace on a running clock")
    void renewalAtTheSdksPace() throws Exception {
        try (Namespace namespace =
                        Namespace.builder().clockMode(ClockMode.RUNNING).build();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            namespace.createQueue(
                    "orders",
                    QueueOptions.builder().lockDuration(Duration.ofSeconds(5)).build());
            CountDownLatch release = new CountDownLatch(1);
            List<Throwable> errors = new CopyOnWriteArrayList<>();
            ServiceBusProcessorClient processor = EndpointFixture.clients(server.getConnectionString())
                    .processor()
                    .queueName("orders")
                    .maxAutoLockRenewDuration(Duration.ofMinutes(1))
                    .processMessage(context -> {
                        try {
                            release.await(120, TimeUnit.SECONDS); // holds the message until the test has seen
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    })
                    .processError(context -> errors.add(context.getException()))
                    .buildProcessorClient();
            try (ServiceBusSenderClient sender = EndpointFixture.clients(server.getConnectionString())
                    .sender()
                    .queueName("orders")
                    .buildClient()) {
                processor.start();
                sender.sendMessage(new ServiceBusMessage("slow"));
                // a 5 s lock: the SDK renews when half of it is left (2.5 s after the receive), then every 2.5 s;
                // a clock that stood still would make it renew back to back within the first seconds (66 times for
                // a 3 s handler when it was tried so)
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> renewals(namespace).size() >= 2);
                List<JournalEvent> seen = renewals(namespace);
                assertTrue(seen.size() <= 3, "a handful of renewals, not a storm: " + seen.size());
                Duration between =
                        Duration.between(seen.get(0).at(), seen.get(1).at());
                assertTrue(
                        between.compareTo(Duration.ofSeconds(1)) >= 0,
                        "renewals at the SDK's pace (2.5 s apart), were " + between + " apart");
                release.countDown();
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> namespace
                                        .runtimeInfo(EntityPath.queue("orders"))
                                        .totalMessageCount()
                                == 0);
                assertEquals(List.of(), errors);
            } finally {
                release.countDown();
                processor.close();
            }
        }
    }
}
