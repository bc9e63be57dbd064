package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.Journal;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Queue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/** Spring Cloud Azure's auto-configured clients reach the emulated namespace with no connection property in the test. */
@SpringBootTest(
        classes = TestApplication.class,
        properties = {
            "spring.cloud.azure.servicebus.entity-name=orders",
            "spring.cloud.azure.servicebus.entity-type=queue",
            "spring.cloud.azure.servicebus.consumer.receive-mode=peek_lock"
        })
@SpringServiceBusEmulator(
        queues = @Queue(name = "orders", defaultMessageTimeToLive = "PT10M", deadLetteringOnMessageExpiration = true),
        startAt = "2026-01-01T00:00:00Z")
@DisplayName(
        "SPRING-1 Spring Cloud Azure's auto-configured clients reach the emulated namespace with no property in the test")
class ConnectionTest {
    @Autowired
    ServiceBusSenderClient sender;

    @Autowired
    ServiceBusReceiverClient receiver;

    @Autowired
    EmulatedServiceBus emulator;

    @Test
    void autoConfiguredClientsSendAndReceiveThroughTheEndpoint() {
        sender.sendMessage(new ServiceBusMessage("order-42"));

        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(1, Duration.ofSeconds(30)).stream().toList();
        assertEquals("order-42", got.get(0).getBody().toString());
        receiver.complete(got.get(0));
        assertTrue(
                emulator.journal().format().contains("COMPLETED"),
                emulator.journal().format());
    }

    @Test
    void theVirtualClockExpiresWhatTheApplicationSent(
            @Autowired VirtualClock clock,
            @Autowired Namespace namespace,
            @Autowired ServiceBusAdministrationClient admin) {
        sender.sendMessage(new ServiceBusMessage("order-43"));
        clock.advance(Duration.ofMinutes(11));

        assertEquals(Instant.parse("2026-01-01T00:11:00Z"), namespace.clock().instant());
        assertEquals(0, admin.getQueueRuntimeProperties("orders").getActiveMessageCount());
        assertEquals(1, admin.getQueueRuntimeProperties("orders").getDeadLetterMessageCount());
    }

    @Test
    void theInjectedBeansAreThoseOfTheCurrentNamespace(
            @Autowired Namespace namespace, @Autowired VirtualClock clock, @Autowired Journal journal) {
        assertSame(emulator.namespace(), namespace);
        assertSame(namespace.clock(), clock);
        assertSame(namespace.journal(), journal);
    }

    @Test
    void theConnectionStringIsSpringCloudAzures(
            @Value("${spring.cloud.azure.servicebus.connection-string}") String property) {
        assertTrue(property.startsWith("Endpoint=sb://127.0.0.1:"), property);
        assertTrue(property.endsWith(";UseDevelopmentEmulator=true;"), property);
        assertEquals(emulator.connectionString(), property);
    }
}
