package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.ResourceExistsException;
import com.azure.core.exception.ResourceNotFoundException;
import com.azure.messaging.servicebus.administration.models.CreateSubscriptionOptions;
import com.azure.messaging.servicebus.administration.models.EntityStatus;
import com.azure.messaging.servicebus.administration.models.SubscriptionProperties;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.filter.TrueFilter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SubscriptionAdministrationTest extends AdminFixture {

    @BeforeEach
    void topic() {
        admin.createTopic("events");
    }

    @Test
    @DisplayName("RUL-1 a default subscription reports the service's defaults and has the $Default rule")
    void defaults() {
        SubscriptionProperties s = admin.createSubscription("events", "audit");
        assertEquals("audit", s.getSubscriptionName());
        assertEquals("events", s.getTopicName());
        assertEquals(Duration.ofMinutes(1), s.getLockDuration());
        assertEquals(10, s.getMaxDeliveryCount());
        assertEquals(MAX, s.getDefaultMessageTimeToLive());
        assertEquals(MAX, s.getAutoDeleteOnIdle());
        assertEquals(EntityStatus.ACTIVE, s.getStatus());
        assertFalse(s.isSessionRequired());
        assertFalse(s.isDeadLetteringOnMessageExpiration());
        assertTrue(s.isDeadLetteringOnFilterEvaluationExceptions());
        assertTrue(s.isBatchedOperationsEnabled());
        assertNull(s.getForwardTo());
        assertEquals(SubscriptionOptions.defaults(), namespace.getSubscription("events", "audit"));
        assertEquals(List.of(RuleDescription.defaultRule()), namespace.listRules("events", "audit"));
    }

    @Test
    @DisplayName("every CreateSubscriptionOptions property reaches the core and comes back")
    void everyPropertyRoundTrips() {
        admin.createQueue("target");
        admin.createQueue("dead-target");
        CreateSubscriptionOptions options = new CreateSubscriptionOptions()
                .setLockDuration(Duration.ofSeconds(30))
                .setMaxDeliveryCount(7)
                .setDefaultMessageTimeToLive(Duration.ofHours(6))
                .setDeadLetteringOnMessageExpiration(true)
                .setEnableDeadLetteringOnFilterEvaluationExceptions(false)
                .setAutoDeleteOnIdle(Duration.ofMinutes(15))
                .setForwardTo("target")
                .setForwardDeadLetteredMessagesTo("dead-target")
                .setStatus(EntityStatus.RECEIVE_DISABLED)
                .setBatchedOperationsEnabled(false)
                .setUserMetadata("audit trail");
        SubscriptionProperties created = admin.createSubscription("events", "audit", options);
        for (SubscriptionProperties s :
                new SubscriptionProperties[] {created, admin.getSubscription("events", "audit")}) {
            assertEquals(Duration.ofSeconds(30), s.getLockDuration());
            assertEquals(7, s.getMaxDeliveryCount());
            assertEquals(Duration.ofHours(6), s.getDefaultMessageTimeToLive());
            assertTrue(s.isDeadLetteringOnMessageExpiration());
            assertFalse(s.isDeadLetteringOnFilterEvaluationExceptions());
            assertEquals(Duration.ofMinutes(15), s.getAutoDeleteOnIdle());
            assertEquals("https://sbemu.servicebus.windows.net/target", s.getForwardTo());
            assertEquals("https://sbemu.servicebus.windows.net/dead-target", s.getForwardDeadLetteredMessagesTo());
            assertEquals(EntityStatus.RECEIVE_DISABLED, s.getStatus());
            assertFalse(s.isBatchedOperationsEnabled());
            assertEquals("audit trail", s.getUserMetadata());
        }
        SubscriptionOptions core = namespace.getSubscription("events", "audit");
        assertEquals("target", core.forwardTo());
        assertEquals(Duration.ofHours(6), core.defaultMessageTimeToLive());
        assertFalse(core.deadLetteringOnFilterEvaluationExceptions());
    }

    @Test
    @DisplayName("a session subscription round-trips requiresSession")
    void sessions() {
        assertTrue(admin.createSubscription("events", "s", new CreateSubscriptionOptions().setSessionRequired(true))
                .isSessionRequired());
        assertTrue(namespace.getSubscription("events", "s").requiresSession());
    }

    @Test
    @DisplayName("updates through SubscriptionProperties setters; SDK 7.17 drops the TTL, the service resets it")
    void update() {
        SubscriptionProperties s = admin.createSubscription(
                "events", "audit", new CreateSubscriptionOptions().setDefaultMessageTimeToLive(Duration.ofHours(1)));
        s.setLockDuration(Duration.ofSeconds(10))
                .setMaxDeliveryCount(2)
                .setDeadLetteringOnMessageExpiration(true)
                .setAutoDeleteOnIdle(Duration.ofHours(3))
                .setStatus(EntityStatus.DISABLED)
                .setUserMetadata("v2");
        SubscriptionProperties updated = admin.updateSubscription(s);
        assertEquals(Duration.ofSeconds(10), updated.getLockDuration());
        assertEquals(2, updated.getMaxDeliveryCount());
        assertTrue(updated.isDeadLetteringOnMessageExpiration());
        assertEquals(Duration.ofHours(3), updated.getAutoDeleteOnIdle());
        assertEquals(EntityStatus.DISABLED, updated.getStatus());
        assertEquals("v2", updated.getUserMetadata());
        // The SDK leaves DefaultMessageTimeToLive out of update bodies (azure-sdk-for-java#48495) and the
        // service replaces the whole description, so the TTL falls back to its default.
        assertEquals(MAX, updated.getDefaultMessageTimeToLive());
        assertEquals(
                Duration.ofSeconds(10),
                namespace.getSubscription("events", "audit").lockDuration());
    }

    @Test
    @DisplayName("LIM-3 subscriptions: 404 for unknown topic or subscription, 409 for an existing one")
    void errors() {
        admin.createSubscription("events", "audit");
        ResourceExistsException exists =
                assertThrows(ResourceExistsException.class, () -> admin.createSubscription("events", "audit"));
        assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());
        ResourceNotFoundException noTopic =
                assertThrows(ResourceNotFoundException.class, () -> admin.createSubscription("nope", "audit"));
        assertTrue(noTopic.getMessage().contains("'nope'"), noTopic.getMessage());
        assertThrows(ResourceNotFoundException.class, () -> admin.getSubscription("events", "nope"));
        assertThrows(ResourceNotFoundException.class, () -> admin.deleteSubscription("events", "nope"));
    }

    @Test
    @DisplayName("exists and delete")
    void existsDelete() {
        admin.createSubscription("events", "audit");
        assertTrue(admin.getSubscriptionExists("events", "audit"));
        assertFalse(admin.getSubscriptionExists("events", "other"));
        admin.deleteSubscription("events", "audit");
        assertFalse(admin.getSubscriptionExists("events", "audit"));
        assertFalse(namespace.subscriptionExists("events", "audit"));
    }

    @Test
    @DisplayName("LIM-2 subscription names: at most 50 characters, no '/'")
    void names() {
        admin.createSubscription("events", "s".repeat(50));
        assertBadRequest(() -> admin.createSubscription("events", "s".repeat(51)), "subscription name", "50");
        assertBadRequest(() -> admin.createSubscription("events", "bad name"), "subscription name");
    }

    @Test
    @DisplayName("LOCK-1, ADI-2, DLQ-2 and FWD-1 apply to subscriptions")
    void validation() {
        assertBadRequest(
                () -> admin.createSubscription(
                        "events", "a", new CreateSubscriptionOptions().setLockDuration(Duration.ofMinutes(10))),
                "lockDuration",
                "PT5S and PT5M");
        assertBadRequest(
                () -> admin.createSubscription(
                        "events", "b", new CreateSubscriptionOptions().setAutoDeleteOnIdle(Duration.ofMinutes(2))),
                "autoDeleteOnIdle",
                "PT5M");
        assertBadRequest(
                () -> admin.createSubscription("events", "c", new CreateSubscriptionOptions().setMaxDeliveryCount(0)),
                "maxDeliveryCount");
        assertBadRequest(
                () -> admin.createSubscription("events", "d", new CreateSubscriptionOptions().setForwardTo("missing")),
                "forwardTo",
                "missing");
        assertFalse(namespace.subscriptionExists("events", "a"));
    }

    @Test
    @DisplayName("topics with '/' in their names address their subscriptions")
    void slashTopic() {
        admin.createTopic("orders/eu");
        admin.createSubscription("orders/eu", "audit");
        assertEquals("orders/eu", admin.getSubscription("orders/eu", "audit").getTopicName());
        assertTrue(namespace.subscriptionExists("orders/eu", "audit"));
        assertEquals(
                TrueFilter.class,
                namespace.listRules("orders/eu", "audit").get(0).filter().getClass());
    }
}
