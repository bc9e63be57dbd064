package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.EmulatorConfig;
import dev.sbemu.junit.ConnectionString;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a consumer's versions of the Azure SDK, Mockito, JUnit and Jackson could break: Config.json loading
 * (Microsoft's own sample, with its Logging key), the administration client (the SDK's XML and Jackson-based
 * serialization), sessions, the user guide's "Without JUnit" code (docs/guide/junit.md), and production code that
 * builds its own administration client from the connection string (spec ADM-1: azure-core's
 * HttpClient.createDefault, woven).
 */
@ServiceBusEmulator(config = "classpath:Config.json")
class CompatibilityTest {

    @Test
    void configJsonAndAdministration(ServiceBusAdministrationClient admin) {
        assertEquals(3, admin.getQueue("queue.1").getMaxDeliveryCount());
        assertEquals(List.of(), EmulatorConfig.load("classpath:Config.json").warnings());
        assertEquals(3, ConfigWithoutJUnit.run());
    }

    @Test
    void sendAndReceive(@Entity("queue.1") ServiceBusSenderClient sender,
                        @Entity("queue.1") ServiceBusReceiverClient receiver) {
        sender.sendMessage(new ServiceBusMessage("hello"));
        assertEquals("hello", receiver.receiveMessages(1, Duration.ofSeconds(5)).iterator().next()
                .getBody().toString());
    }

    @Test
    void ownAdministrationClient(@ConnectionString String connectionString, Namespace namespace,
                                 @Entity("queue.1") ServiceBusSenderClient sender) {
        OrderBacklog backlog;
        try {
            backlog = new OrderBacklog(connectionString);
        } catch (IllegalArgumentException tooOld) {
            // azure-core-amqp before 2.9.16 (the SDK 7.17.0 row) refuses UseDevelopmentEmulator in any connection
            // string: code that builds its own clients needs a newer SDK (docs/guide/junit.md, "Code that builds its
            // own clients")
            assumeTrue(!tooOld.getMessage().contains("UseDevelopmentEmulator"), tooOld.getMessage());
            throw tooOld;
        }
        sender.sendMessage(new ServiceBusMessage("hello"));

        assertTrue(namespace.queueExists("backlog"));
        assertEquals(1, backlog.pending("queue.1"));
    }

    @Test
    void withoutJUnit() {
        assertTrue(WithoutJUnit.run().contains("SENT"));
    }
}
