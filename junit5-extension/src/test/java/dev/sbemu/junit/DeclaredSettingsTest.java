package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.core.config.NamespaceSettings;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DeclaredSettingsTest {

    @ServiceBusEmulator(
            startAt = "2030-01-01T00:00:00Z",
            tier = Tier.PREMIUM,
            expiryMode = ExpiryMode.LAZY,
            journalCapacity = 7,
            tlsPort = 0,
            queues = {@Queue(name = "b-end"), @Queue(name = "a-start", forwardTo = "b-end")},
            topics =
                    @Topic(
                            name = "events",
                            subscriptions =
                                    @Subscription(
                                            name = "red",
                                            forwardTo = "a-start",
                                            rules = @Rule(name = "red", sql = "color = 'red'"))))
    static class Declared {}

    @Test
    @DisplayName("the annotation fills the namespace's NamespaceSettings and its endpoint's EndpointSettings")
    void annotationFillsTheTwoValues() {
        DeclaredNamespace declared = DeclaredNamespace.merge(
                List.of(Declared.class.getAnnotation(ServiceBusEmulator.class)),
                List.of(Declared.class),
                "@ServiceBusEmulator");
        NamespaceSettings settings = declared.namespaceSettings();
        assertEquals(ClockMode.FROZEN, settings.clockMode());
        assertEquals(Instant.parse("2030-01-01T00:00:00Z"), settings.startAt());
        assertEquals(Tier.PREMIUM, settings.tier());
        assertEquals(ExpiryMode.LAZY, settings.expiryMode());
        assertEquals(7, settings.journalCapacity());
        assertEquals(2, settings.topology().queues().size());
        assertEquals(EndpointSettings.defaults().withTlsPort(0), declared.endpointSettings());
        assertEquals(0, declared.tlsPort());

        try (Namespace started = declared.start()) {
            NamespaceSettings actual = NamespaceSettings.of(started);
            assertEquals(settings.startAt(), actual.startAt());
            assertEquals(settings.tier(), actual.tier());
            assertEquals(settings.journalCapacity(), actual.journalCapacity());
            assertEquals("b-end", started.getQueue("a-start").forwardTo());
            assertEquals("a-start", started.getSubscription("events", "red").forwardTo());
            // a namespace's settings start an equal namespace again
            try (Namespace again = actual.start()) {
                assertEquals(actual, NamespaceSettings.of(again));
            }
        }
        assertTrue(declared.namespaceSettings()
                        .topology()
                        .topics()
                        .get(0)
                        .subscriptions()
                        .size()
                == 1);
    }
}
