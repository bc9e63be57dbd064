package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverAsyncClient;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.sdk.EmulatorClients;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code EmulatorClients.connectingTo}: the SDK's own clients, built from the endpoint's connection string. */
class EmulatorClientsOverAmqpTest extends EndpointFixture {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    @DisplayName(
            "the async clients, built with ServiceBusClientBuilder, send, receive, accept sessions and manage rules")
    void asyncClients() throws Exception {
        try (EmulatorClients clients = EmulatorClients.connectingTo(namespace, server.getConnectionString())) {
            namespace.createQueue("orders");
            namespace.createQueue(
                    "carts", QueueOptions.builder().requiresSession(true).build());
            namespace.createTopic("prices");
            namespace.createSubscription("prices", "all");

            ServiceBusSenderAsyncClient orders = clients.senderAsync("orders");
            assertTrue(hasState(orders), "the SDK's own client, made by its constructor");
            orders.sendMessage(new ServiceBusMessage("one")).block(WAIT);
            ServiceBusReceiverAsyncClient receiver =
                    clients.receiverAsync(EntityPath.queue("orders"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
            assertEquals(
                    "one", receiver.receiveMessages().blockFirst(WAIT).getBody().toString());

            clients.senderAsync("carts")
                    .sendMessage(new ServiceBusMessage("apple").setSessionId("cart-1"))
                    .block(WAIT);
            ServiceBusSessionReceiverAsyncClient sessions =
                    clients.sessionReceiverAsync(EntityPath.queue("carts"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
            ServiceBusReceiverAsyncClient cart = sessions.acceptNextSession().block(WAIT);
            assertEquals("cart-1", cart.getSessionId());
            assertEquals(
                    "apple", cart.receiveMessages().blockFirst(WAIT).getBody().toString());

            ServiceBusRuleManagerAsyncClient rules = clients.ruleManagerAsync("prices", "all");
            assertEquals(
                    List.of("$Default"),
                    rules.listRules().map(RuleProperties::getName).collectList().block(WAIT));
        }
    }

    @Test
    @DisplayName("a session receiver on a sub-queue is refused with the reason")
    void sessionReceiverOnSubQueue() {
        try (EmulatorClients clients = EmulatorClients.connectingTo(namespace, server.getConnectionString())) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> clients.sessionReceiver(
                            EntityPath.queue("carts").deadLetter(), ServiceBusReceiveMode.PEEK_LOCK));
            assertEquals(
                    "A session receiver cannot read a sub-queue (carts/$deadletterqueue): sub-queues have no "
                            + "sessions",
                    e.getMessage());
        }
    }

    /** Whether a constructor set any of {@code client}'s fields: the in-process clients are allocated without one. */
    private static boolean hasState(Object client) throws IllegalAccessException {
        for (Field field : client.getClass().getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers())) {
                field.setAccessible(true);
                if (field.get(client) != null) {
                    return true;
                }
            }
        }
        return false;
    }
}
