package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.administration.models.AccessRights;
import com.azure.messaging.servicebus.administration.models.AuthorizationRule;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.CreateTopicOptions;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import com.azure.messaging.servicebus.administration.models.SharedAccessAuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Shared access authorization rules of queues and topics: stored and returned, not enforced (LIM-4). */
class AuthorizationRuleAdministrationTest extends AdminFixture {

    private static SharedAccessAuthorizationRule rule(String name, AccessRights... rights) {
        return new SharedAccessAuthorizationRule(name, "primary-" + name, "secondary-" + name, List.of(rights));
    }

    @Test
    @DisplayName("LIM-4 a queue's authorization rules are stored and returned with their keys and rights")
    void queueRules() {
        CreateQueueOptions options = new CreateQueueOptions();
        options.getAuthorizationRules().add(rule("listener", AccessRights.LISTEN));
        options.getAuthorizationRules().add(rule("owner", AccessRights.MANAGE, AccessRights.SEND, AccessRights.LISTEN));
        admin.createQueue("orders", options);

        List<AuthorizationRule> back = admin.getQueue("orders").getAuthorizationRules();
        assertEquals(
                List.of("listener", "owner"),
                back.stream().map(AuthorizationRule::getKeyName).toList());
        assertEquals("primary-listener", back.get(0).getPrimaryKey());
        assertEquals("secondary-listener", back.get(0).getSecondaryKey());
        assertEquals(List.of(AccessRights.LISTEN), back.get(0).getAccessRights());
        assertEquals(
                Set.of(AccessRights.MANAGE, AccessRights.SEND, AccessRights.LISTEN),
                Set.copyOf(back.get(1).getAccessRights()));
        assertEquals("SharedAccessKey", back.get(0).getClaimType());
        assertEquals(
                Set.of(AccessRight.LISTEN),
                namespace.getQueue("orders").authorizationRules().get(0).rights());
    }

    @Test
    @DisplayName("LIM-4 an update keeps, replaces or removes the rules it is given")
    void updateRules() {
        CreateQueueOptions options = new CreateQueueOptions();
        options.getAuthorizationRules().add(rule("listener", AccessRights.LISTEN));
        QueueProperties queue = admin.createQueue("orders", options);

        queue.setMaxDeliveryCount(3);
        queue = admin.updateQueue(queue);
        assertEquals(1, queue.getAuthorizationRules().size(), "echoed back, kept");
        queue.getAuthorizationRules().add(rule("sender", AccessRights.SEND));
        queue = admin.updateQueue(queue);
        assertEquals(
                List.of("listener", "sender"),
                queue.getAuthorizationRules().stream()
                        .map(AuthorizationRule::getKeyName)
                        .toList());
        queue.getAuthorizationRules().clear();
        assertEquals(List.of(), admin.updateQueue(queue).getAuthorizationRules());
    }

    @Test
    @DisplayName("LIM-4 a topic's authorization rules are stored and returned")
    void topicRules() {
        CreateTopicOptions options = new CreateTopicOptions();
        options.getAuthorizationRules().add(rule("publisher", AccessRights.SEND));
        admin.createTopic("events", options);

        assertEquals(
                List.of("publisher"),
                admin.getTopic("events").getAuthorizationRules().stream()
                        .map(AuthorizationRule::getKeyName)
                        .toList());
    }

    @Test
    @DisplayName("LIM-4 at most 12 rules, each key name once: 400 saying so")
    void limits() {
        CreateQueueOptions many = new CreateQueueOptions();
        for (int i = 0; i < 13; i++) {
            many.getAuthorizationRules().add(rule("r" + i, AccessRights.LISTEN));
        }
        assertBadRequest(() -> admin.createQueue("many", many), "at most 12");
        CreateQueueOptions twice = new CreateQueueOptions();
        twice.getAuthorizationRules().add(rule("same", AccessRights.LISTEN));
        twice.getAuthorizationRules().add(rule("SAME", AccessRights.SEND));
        assertBadRequest(() -> admin.createQueue("twice", twice), "own key name");
    }
}
