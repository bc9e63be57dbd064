package dev.sbemu.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.config.Topology.QueueSpec;
import dev.sbemu.core.config.Topology.SubscriptionSpec;
import dev.sbemu.core.config.Topology.TopicSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TopologyTest {

    @Test
    @DisplayName("CFG-4 a Topology built in code applies to a namespace; forward targets are created first")
    void builtInCode() {
        Topology topology = new Topology(
                List.of(
                        new QueueSpec(
                                "orders",
                                QueueOptions.builder().forwardTo("archive").build(),
                                null),
                        new QueueSpec("archive", QueueOptions.defaults(), null)),
                List.of(new TopicSpec(
                        "events",
                        TopicOptions.defaults(),
                        List.of(new SubscriptionSpec("audit", SubscriptionOptions.defaults(), List.of(), null)),
                        null)));
        try (Namespace namespace = Namespace.create()) {
            topology.applyTo(namespace);

            assertEquals("archive", namespace.getQueue("orders").forwardTo());
            assertEquals(List.of("audit"), namespace.subscriptionNames("events"));
        }
    }

    @Test
    @DisplayName("CFG-4 a value the namespace rejects, in an entity built in code, names the property")
    void rejectedWithoutOrigin() {
        Topology topology = new Topology(
                List.of(new QueueSpec(
                        "orders",
                        QueueOptions.builder()
                                .lockDuration(Duration.ofMinutes(10))
                                .build(),
                        null)),
                List.of());
        try (Namespace namespace = Namespace.create()) {
            InvalidTopologyException e =
                    assertThrows(InvalidTopologyException.class, () -> topology.applyTo(namespace));

            assertEquals("lockDuration: Invalid lockDuration 'PT10M': must be between PT5S and PT5M.", e.getMessage());
            assertInstanceOf(InvalidOptionException.class, e.getCause());
        }
    }
}
