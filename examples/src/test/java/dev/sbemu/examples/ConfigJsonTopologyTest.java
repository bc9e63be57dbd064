package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Reuse the Config.json you already mount into Microsoft's Service Bus emulator: the same queues,
 * topics, subscriptions and rules, without Docker.
 */
@ServiceBusEmulator(config = "classpath:Config.json")
class ConfigJsonTopologyTest {

    @Test
    @DisplayName("CFG-1 queues and their properties come from Config.json")
    void queuesFromConfig(ServiceBusAdministrationClient admin) {
        QueueProperties queue = admin.getQueue("queue.1");

        assertEquals(3, queue.getMaxDeliveryCount());
        assertEquals(Duration.ofHours(1), queue.getDefaultMessageTimeToLive());
        assertEquals(true, queue.isDeadLetteringOnMessageExpiration());
    }

    @Test
    @DisplayName("CFG-1 subscription rules from Config.json filter and act on topic messages")
    void rulesFromConfig(
            @Entity("topic.1") ServiceBusSenderClient sender,
            @Entity(value = "topic.1", subscription = "subscription.1") ServiceBusReceiverClient first,
            @Entity(value = "topic.1", subscription = "subscription.2") ServiceBusReceiverClient second) {
        ServiceBusMessage text = new ServiceBusMessage("hello").setContentType("application/text");
        text.getApplicationProperties().put("prop3", "value3");
        ServiceBusMessage order = new ServiceBusMessage("order").setMessageId("123456");
        order.getApplicationProperties().put("userProp1", "value1");

        sender.sendMessage(text);
        sender.sendMessage(order);

        assertEquals(
                "hello", first.receiveMessages(1).iterator().next().getBody().toString());
        ServiceBusReceivedMessage acted = second.receiveMessages(1).iterator().next();
        assertEquals("order", acted.getBody().toString());
        assertEquals("Entity", acted.getTo(), "the rule's action set sys.To");
    }
}
