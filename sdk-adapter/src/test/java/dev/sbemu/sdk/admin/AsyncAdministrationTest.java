package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.exception.ResourceExistsException;
import com.azure.core.exception.ResourceNotFoundException;
import com.azure.core.util.Context;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationAsyncClient;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.CreateSubscriptionOptions;
import com.azure.messaging.servicebus.administration.models.CreateTopicOptions;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import com.azure.messaging.servicebus.administration.models.SubscriptionProperties;
import com.azure.messaging.servicebus.administration.models.TopicProperties;
import dev.sbemu.core.Message;
import dev.sbemu.sdk.AdministrationClients;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The asynchronous client runs over the same endpoint; every call is awaited with a plain block(). */
class AsyncAdministrationTest extends AdminFixture {
    private final ServiceBusAdministrationAsyncClient async = AdministrationClients.async(namespace);

    @Test
    @DisplayName("queues: create, get, exists, update, runtime properties, list, delete")
    void queues() {
        QueueProperties created = async.createQueue(
                        "orders", new CreateQueueOptions().setLockDuration(Duration.ofSeconds(30)))
                .block();
        assertEquals(Duration.ofSeconds(30), created.getLockDuration());
        assertEquals(
                201,
                async.createQueueWithResponse("other", new CreateQueueOptions())
                        .block()
                        .getStatusCode());
        assertEquals(Duration.ofSeconds(30), async.getQueue("orders").block().getLockDuration());
        assertTrue(async.getQueueExists("orders").block());
        assertFalse(async.getQueueExists("nope").block());
        assertEquals(
                5, async.updateQueue(created.setMaxDeliveryCount(5)).block().getMaxDeliveryCount());
        namespace.send("orders", Message.ofText("x"));
        assertEquals(1, async.getQueueRuntimeProperties("orders").block().getActiveMessageCount());
        assertEquals(
                List.of("orders", "other"),
                async.listQueues().map(QueueProperties::getName).collectList().block());
        async.deleteQueue("orders").block();
        assertEquals(200, async.deleteQueueWithResponse("other").block().getStatusCode());
        assertFalse(namespace.queueExists("orders"));
    }

    @Test
    @DisplayName("LIM-3 errors arrive as the same exceptions through the Mono")
    void errors() {
        async.createQueue("orders").block();
        assertThrows(
                ResourceExistsException.class, () -> async.createQueue("orders").block());
        assertThrows(
                ResourceNotFoundException.class, () -> async.getQueue("nope").block());
        HttpResponseException bad = assertThrows(
                HttpResponseException.class,
                () -> async.createQueue("x", new CreateQueueOptions().setAutoDeleteOnIdle(Duration.ofMinutes(1)))
                        .block());
        assertEquals(400, bad.getResponse().getStatusCode());
        assertTrue(bad.getMessage().contains("autoDeleteOnIdle"), bad.getMessage());
    }

    @Test
    @DisplayName("topics, subscriptions and rules")
    void topicsSubscriptionsRules() {
        TopicProperties topic =
                async.createTopic("events", new CreateTopicOptions()).block();
        assertTrue(async.getTopicExists("events").block());
        assertEquals(
                "v2", async.updateTopic(topic.setUserMetadata("v2")).block().getUserMetadata());
        SubscriptionProperties sub = async.createSubscription("events", "audit").block();
        assertEquals("audit", async.getSubscription("events", "audit").block().getSubscriptionName());
        assertTrue(async.getSubscriptionExists("events", "audit").block());
        assertEquals(
                3, async.updateSubscription(sub.setMaxDeliveryCount(3)).block().getMaxDeliveryCount());
        async.createSubscription(
                        "events",
                        "eu",
                        "european",
                        new CreateSubscriptionOptions(),
                        new CreateRuleOptions(new SqlRuleFilter("region = 'eu'")))
                .block();

        RuleProperties rule = async.createRule(
                        "events", "audit", "r", new CreateRuleOptions(new SqlRuleFilter("a = 1")))
                .block();
        assertEquals("r", rule.getName());
        assertEquals(
                "a = 1",
                ((SqlRuleFilter) async.getRule("events", "audit", "r").block().getFilter()).getSqlExpression());
        rule.setFilter(new SqlRuleFilter("a = 2"));
        assertEquals(
                "a = 2",
                ((SqlRuleFilter) async.updateRule("events", "audit", rule)
                                .block()
                                .getFilter())
                        .getSqlExpression());
        assertEquals(
                List.of("$Default", "r"),
                async.listRules("events", "audit")
                        .map(RuleProperties::getName)
                        .collectList()
                        .block());
        async.deleteRule("events", "audit", "r").block();
        assertEquals(
                List.of("european"),
                async.listRules("events", "eu")
                        .map(RuleProperties::getName)
                        .collectList()
                        .block());

        assertEquals(2, async.getTopicRuntimeProperties("events").block().getSubscriptionCount());
        assertEquals(
                0,
                async.getSubscriptionRuntimeProperties("events", "audit")
                        .block()
                        .getTotalMessageCount());
        assertEquals(
                List.of("audit", "eu"),
                async.listSubscriptions("events")
                        .map(SubscriptionProperties::getSubscriptionName)
                        .collectList()
                        .block());
        assertEquals(
                List.of("events"),
                async.listTopics().map(TopicProperties::getName).collectList().block());
        async.deleteSubscription("events", "audit").block();
        async.deleteTopic("events").block();
        assertFalse(namespace.topicExists("events"));
    }

    @Test
    @DisplayName("namespace properties: name, Standard SKU, messaging namespace")
    void namespaceProperties() {
        var properties = async.getNamespaceProperties().block();
        assertEquals("sbemu", properties.getName());
        assertEquals("Standard", properties.getMessagingSku().toString());
        assertEquals("Messaging", properties.getNamespaceType().toString());
        assertNull(properties.getMessagingUnits());
        assertInstanceOf(OffsetDateTime.class, properties.getCreatedTime());
        assertEquals(200, admin.getNamespacePropertiesWithResponse(Context.NONE).getStatusCode());
    }
}
