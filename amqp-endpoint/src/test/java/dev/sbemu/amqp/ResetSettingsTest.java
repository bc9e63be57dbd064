package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ResetSettingsTest {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    /** Forwarding chains against name order, a queue forwarding to a topic, a cycle, subscriptions with rules. */
    private static Namespace populated() throws Exception {
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
        namespace.createQueue("cycle-one");
        namespace.createQueue(
                "cycle-two",
                QueueOptions.builder()
                        .forwardDeadLetteredMessagesTo("cycle-one")
                        .build());
        namespace.updateQueue(
                "cycle-one",
                QueueOptions.builder()
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

    private static int post(ServiceBusEmulatorServer server, String path) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        return http.send(
                        HttpRequest.newBuilder(URI.create(server.httpUrl() + path))
                                .header("Authorization", server.controlAuthorization())
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    @Test
    @DisplayName("HTTP-8 what a reset restores is a value: the settings before and after a reset are equal, "
            + "forwarding chains and subscriptions with rules included")
    void resetRestoresTheSettings() throws Exception {
        try (Namespace namespace = populated();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            NamespaceSettings before = NamespaceSettings.of(namespace);
            assertEquals(before, server.resetSettings());

            namespace.send("z-end", Message.builder().messageId("old").build());
            namespace.createQueue("added-later");
            namespace.deleteSubscription("events", "everything");
            namespace.clock().advance(Duration.ofHours(2));
            assertNotEquals(before, NamespaceSettings.of(namespace));

            assertEquals(200, post(server, "/__admin/reset"));

            Namespace fresh = server.namespace();
            assertNotSame(namespace, fresh);
            assertEquals(before, NamespaceSettings.of(fresh));
            assertEquals(server.resetSettings(), NamespaceSettings.of(fresh));
            assertFalse(fresh.queueExists("added-later"));
            assertTrue(fresh.peek(EntityPath.queue("z-end"), 0, 10).isEmpty());

            // the re-created chain forwards: topic, subscription rule, queue, queue, queue
            fresh.send(
                    "c-to-topic",
                    Message.builder()
                            .messageId("new")
                            .applicationProperties(Map.of("color", "red"))
                            .build());
            assertEquals(
                    "new",
                    fresh.peek(EntityPath.queue("z-end"), 0, 10)
                            .get(0)
                            .message()
                            .messageId());

            // a second reset starts from the same value again
            assertEquals(200, post(server, "/__admin/reset"));
            assertEquals(before, NamespaceSettings.of(server.namespace()));
        }
    }

    @Test
    @DisplayName("HTTP-8 after replaceNamespace a reset restores the replacement's settings")
    void replacedNamespace() throws Exception {
        try (Namespace first = Namespace.builder().startingAt(START).build();
                Namespace second = populated();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(first)) {
            NamespaceSettings expected = NamespaceSettings.of(second);
            server.replaceNamespace(second);
            assertEquals(expected, server.resetSettings());
            assertEquals(200, post(server, "/__admin/reset"));
            assertEquals(expected, NamespaceSettings.of(server.namespace()));
        }
    }

    @Test
    @DisplayName("HTTP-8 a server started from the two settings values resets to the namespace value it was given, "
            + "and closes the namespace it started")
    void startedFromSettings() throws Exception {
        NamespaceSettings given;
        try (Namespace template = populated()) {
            given = NamespaceSettings.of(template);
        }
        Namespace served;
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(
                given, EndpointSettings.defaults().withHttpPort(0))) {
            served = server.namespace();
            assertEquals(given, server.resetSettings());
            assertEquals(given, NamespaceSettings.of(served));
            served.createQueue("added-later");
            assertEquals(200, post(server, "/__admin/reset"));
            assertEquals(given, NamespaceSettings.of(server.namespace()));
        }
        boolean[] closed = {false};
        served.onClose(() -> closed[0] = true);
        assertTrue(closed[0], "the namespace the server started is closed with it");
    }
}
