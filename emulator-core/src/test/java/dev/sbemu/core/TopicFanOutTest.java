package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TopicFanOutTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();

    private List<BrokeredMessage> drain(String topic, String subscription) {
        return ns.receive(EntityPath.subscription(topic, subscription), ReceiveMode.RECEIVE_AND_DELETE, 100);
    }

    @Test
    @DisplayName("RUL-1 RUL-5 a message lands in exactly the matching subscriptions, with the topic's sequence number")
    void fanOutToMatchingSubscriptions() {
        ns.createTopic("orders");
        ns.createSubscription("orders", "all");
        ns.createSubscription(
                "orders",
                "red",
                SubscriptionOptions.defaults(),
                List.of(new RuleDescription("red", SqlFilter.parse("color = 'red'"), null)));
        ns.createSubscription(
                "orders",
                "vip",
                SubscriptionOptions.defaults(),
                List.of(new RuleDescription(
                        "vip",
                        new CorrelationFilter(null, null, null, null, "vip", null, null, null, Map.of()),
                        null)));

        ns.send(
                "orders",
                Message.builder()
                        .messageId("a")
                        .applicationProperty("color", "blue")
                        .build());
        ns.send(
                "orders",
                Message.builder()
                        .messageId("b")
                        .applicationProperty("color", "red")
                        .build());
        ns.send("orders", Message.builder().messageId("c").subject("vip").build());

        assertEquals(
                List.of("a", "b", "c"),
                drain("orders", "all").stream()
                        .map(m -> m.message().messageId())
                        .toList());
        List<BrokeredMessage> red = drain("orders", "red");
        assertEquals(1, red.size());
        assertEquals("b", red.get(0).message().messageId());
        assertEquals(2, red.get(0).sequenceNumber());
        List<BrokeredMessage> vip = drain("orders", "vip");
        assertEquals(1, vip.size());
        assertEquals(3, vip.get(0).sequenceNumber());
    }

    @Test
    @DisplayName("RUL-1 RUL-7 each matching rule with an action makes its own copy carrying RuleName")
    void actionRulesMakeOwnCopies() {
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.defaults(),
                List.of(
                        new RuleDescription("plain1", SqlFilter.parse("1=1"), null),
                        new RuleDescription("plain2", SqlFilter.parse("n > 0"), null),
                        new RuleDescription("act", SqlFilter.parse("n > 0"), SqlRuleAction.parse("SET n = n * 10"))));

        ns.send("t", Message.builder().applicationProperty("n", 2).build());

        List<BrokeredMessage> copies = drain("t", "s");
        assertEquals(2, copies.size());
        assertEquals(2, copies.get(0).message().applicationProperties().get("n"));
        assertEquals(20, copies.get(1).message().applicationProperties().get("n"));
        assertEquals("act", copies.get(1).message().applicationProperties().get("RuleName"));
    }

    @Test
    @DisplayName("TTL-8 a subscription's effective default TTL is the smaller of the topic's and its own")
    void subscriptionTtlIsTheSmaller() {
        ns.createTopic(
                "t",
                TopicOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(5))
                        .build());
        ns.createSubscription(
                "t",
                "long",
                SubscriptionOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(30))
                        .build());
        ns.createSubscription(
                "t",
                "short",
                SubscriptionOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(2))
                        .build());

        ns.send("t", Message.ofText("x"));

        assertEquals(
                T0.plus(Duration.ofMinutes(5)),
                ns.peek(EntityPath.subscription("t", "long"), 1, 1).get(0).expiresAt());
        assertEquals(
                T0.plus(Duration.ofMinutes(2)),
                ns.peek(EntityPath.subscription("t", "short"), 1, 1).get(0).expiresAt());
    }

    @Test
    @DisplayName("RUL-1 a new subscription has the $Default rule; rules can be listed, added and deleted")
    void ruleManagement() {
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        assertEquals(
                List.of("$Default"),
                ns.listRules("t", "s").stream().map(RuleDescription::name).toList());
        ns.createRule("t", "s", "r1", SqlFilter.parse("a = 1"), null);
        assertThrows(
                BrokerException.EntityAlreadyExists.class,
                () -> ns.createRule("t", "s", "r1", SqlFilter.parse("a = 1"), null));
        ns.deleteRule("t", "s", "$Default");
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.deleteRule("t", "s", "$Default"));

        ns.send("t", Message.builder().applicationProperty("a", 2).build());
        ns.send("t", Message.builder().applicationProperty("a", 1).build());

        List<BrokeredMessage> got = drain("t", "s");
        assertEquals(1, got.size());
        assertTrue(got.get(0).sequenceNumber() == 2);
    }
}
