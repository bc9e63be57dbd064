package dev.sbemu.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Tier;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class JmsStarterTest {
    private static final String CONNECTION_STRING =
            "Endpoint=sb://127.0.0.1:40123;SharedAccessKeyName=k;SharedAccessKey=v;UseDevelopmentEmulator=true;";
    /** azure-servicebus-jms's parser would read UseDevelopmentEmulator, or a trailing ';', into the key. */
    private static final String JMS_CONNECTION_STRING =
            "Endpoint=sb://127.0.0.1:40123;SharedAccessKeyName=k;SharedAccessKey=v";

    @Test
    @DisplayName("SPRING-7 the JMS starter gets the connection string, no passwordless, and the namespace's tier")
    void propertiesFromTheNamespace() {
        Map<String, Object> properties =
                JmsStarter.properties(new StandardEnvironment(), CONNECTION_STRING, Tier.PREMIUM);

        assertEquals(
                Map.of(
                        "spring.jms.servicebus.connection-string",
                        JMS_CONNECTION_STRING,
                        "spring.jms.servicebus.passwordless-enabled",
                        "false",
                        "spring.jms.servicebus.pricing-tier",
                        "premium"),
                properties);
        assertEquals(
                "basic",
                JmsStarter.properties(new StandardEnvironment(), CONNECTION_STRING, Tier.BASIC)
                        .get("spring.jms.servicebus.pricing-tier"),
                "the starter refuses basic itself, as the service does");
    }

    @Test
    @DisplayName("SPRING-7 a pricing tier the application sets (in any relaxed form) is kept")
    void theApplicationsPricingTierIsKept() {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource("application", Map.of("spring.jms.servicebus.pricingTier", "premium")));

        Map<String, Object> properties = JmsStarter.properties(environment, CONNECTION_STRING, Tier.STANDARD);

        assertFalse(properties.containsKey("spring.jms.servicebus.pricing-tier"), properties.toString());
        assertEquals(JMS_CONNECTION_STRING, properties.get("spring.jms.servicebus.connection-string"));
    }

    @Test
    @DisplayName("SPRING-7 the connection string loses UseDevelopmentEmulator and a trailing ';' wherever they stand")
    void theEmulatorFlagIsDropped() {
        assertEquals(
                "Endpoint=sb://h:1;SharedAccessKeyName=k;SharedAccessKey=v=",
                JmsStarter.forJms("Endpoint=sb://h:1;UseDevelopmentEmulator=true;SharedAccessKeyName=k;"
                        + "SharedAccessKey=v=;"));
        assertEquals(
                "Endpoint=sb://h:1;SharedAccessKey=v=",
                JmsStarter.forJms("Endpoint=sb://h:1;SharedAccessKey=v=;usedevelopmentemulator=true"));
    }

    @Test
    @DisplayName("SPRING-8 the factory's amqps://host becomes the endpoint's amqp://host:port, "
            + "options and failover kept")
    void theRemoteUriPointsAtTheEndpoint() {
        assertEquals(
                "failover:(amqp://127.0.0.1:40123?amqp.idleTimeout=120000)?failover.maxReconnectAttempts=3"
                        + "&jms.prefetchPolicy.all=0",
                JmsStarter.toEndpoint(
                        "failover:(amqps://127.0.0.1?amqp.idleTimeout=120000)"
                                + "?failover.maxReconnectAttempts=3&jms.prefetchPolicy.all=0",
                        "127.0.0.1",
                        40123));
        assertEquals(
                "failover:(amqp://127.0.0.1:40123,amqp://127.0.0.1:40123)",
                JmsStarter.toEndpoint(
                        "failover:(amqps://contoso.servicebus.windows.net,amqps://backup)", "127.0.0.1", 40123));
        assertEquals(
                "amqp://127.0.0.1:40123?jms.prefetchPolicy.all=0",
                JmsStarter.toEndpoint("amqps://127.0.0.1?jms.prefetchPolicy.all=0", "127.0.0.1", 40123));
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> JmsStarter.toEndpoint("vm://broker", "127.0.0.1", 40123));
        assertTrue(e.getMessage().contains("vm://broker"), e.getMessage());
    }
}
