package dev.sbemu.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NamespaceSettingsTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    /** Forwarding chains in both directions of name order, a forwarding cycle, subscriptions with every rule kind. */
    static Namespace populated() throws Exception {
        Namespace namespace = Namespace.builder()
                .startingAt(START)
                .tier(Tier.PREMIUM)
                .expiryMode(ExpiryMode.LAZY)
                .journalCapacity(42)
                .build();
        namespace.createTopic("events");
        namespace.createQueue("z-end");
        namespace.createQueue(
                "b-middle", QueueOptions.builder().forwardTo("z-end").build());
        namespace.createQueue(
                "a-start", QueueOptions.builder().forwardTo("b-middle").build());
        namespace.createQueue(
                "c-to-topic", QueueOptions.builder().forwardTo("events").build());
        namespace.createQueue(
                "cycle-one", QueueOptions.builder().maxDeliveryCount(3).build());
        namespace.createQueue(
                "cycle-two",
                QueueOptions.builder()
                        .forwardDeadLetteredMessagesTo("cycle-one")
                        .build());
        namespace.updateQueue(
                "cycle-one",
                QueueOptions.builder()
                        .maxDeliveryCount(3)
                        .forwardDeadLetteredMessagesTo("cycle-two")
                        .build());
        namespace.createSubscription(
                "events",
                "filtered",
                SubscriptionOptions.builder().forwardTo("a-start").build(),
                List.of(
                        new RuleDescription(
                                "sql",
                                SqlFilter.parse("color = @color", Map.of("@color", "red")),
                                SqlRuleAction.parse("SET seen = @seen", Map.of("@seen", true))),
                        new RuleDescription(
                                "correlation",
                                new CorrelationFilter(
                                        "c-1", null, null, null, "label", null, null, null, Map.of("kind", 7L)),
                                null),
                        new RuleDescription("nothing", new FalseFilter(), null)));
        namespace.createSubscription("events", "everything");
        return namespace;
    }

    @Test
    @DisplayName("CFG: a namespace's settings, started again, are a namespace with equal settings and no messages")
    void roundTrip() throws Exception {
        try (Namespace original = populated()) {
            original.send("z-end", Message.builder().messageId("m").build());
            NamespaceSettings settings = NamespaceSettings.of(original);
            assertEquals(ClockMode.FROZEN, settings.clockMode());
            assertEquals(START, settings.startAt());
            assertEquals(Tier.PREMIUM, settings.tier());
            assertEquals(ExpiryMode.LAZY, settings.expiryMode());
            assertEquals(42, settings.journalCapacity());
            assertEquals(6, settings.topology().queues().size());
            try (Namespace copy = settings.start()) {
                assertEquals(settings, NamespaceSettings.of(copy));
                assertEquals(original.listRules("events", "filtered"), copy.listRules("events", "filtered"));
                assertEquals("cycle-two", copy.getQueue("cycle-one").forwardDeadLetteredMessagesTo());
                assertTrue(copy.peek(EntityPath.queue("z-end"), 0, 10).isEmpty());
            }
        }
    }

    @Test
    @DisplayName("CFG: the settings differ when the namespace's topology, clock or limits do")
    void differences() throws Exception {
        try (Namespace namespace = populated()) {
            NamespaceSettings before = NamespaceSettings.of(namespace);
            namespace.clock().advance(Duration.ofMinutes(1));
            assertNotEquals(before, NamespaceSettings.of(namespace));
            assertEquals(before, NamespaceSettings.of(namespace).withStartAt(START));
            namespace.createQueue("added");
            assertNotEquals(before.topology(), NamespaceSettings.of(namespace).topology());
        }
    }

    @Test
    @DisplayName("CFG: the defaults start a Standard, frozen, empty namespace; a bad journal capacity is refused")
    void defaults() {
        NamespaceSettings defaults = NamespaceSettings.defaults();
        try (Namespace namespace = defaults.withStartAt(START).start()) {
            assertEquals(defaults.withStartAt(START), NamespaceSettings.of(namespace));
            assertFalse(namespace.clock().mode() == ClockMode.RUNNING);
        }
        assertThrows(IllegalArgumentException.class, () -> defaults.withJournalCapacity(0));
    }
}
