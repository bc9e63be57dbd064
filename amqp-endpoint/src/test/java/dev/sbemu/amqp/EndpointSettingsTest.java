package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Namespace;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EndpointSettingsTest {

    @Test
    @DisplayName("AMQP-19 the builder's setters fill one EndpointSettings value, the one the server reports")
    void builderFillsTheSettings() {
        try (Namespace namespace = Namespace.create()) {
            ServiceBusEmulatorServer.Builder builder = ServiceBusEmulatorServer.builder(namespace)
                    .port(0)
                    .httpPort(0)
                    .bindAddress(InetAddress.getLoopbackAddress())
                    .sharedAccessKey("a-key")
                    .acceptAnyKey()
                    .handshakeTimeout(Duration.ofSeconds(5))
                    .maxConnections(7)
                    .maxFrameSize(4096)
                    .idleTimeout(Duration.ofSeconds(9))
                    .channelMax(3)
                    .linkMax(11)
                    .sessionWindow(13)
                    .linkCredit(17)
                    .workerThreads(19)
                    .maxOperationTimeout(Duration.ofSeconds(23))
                    .maxRequestSize(1024)
                    .unauthenticatedCredit(2)
                    .maxTransactionsPerConnection(29)
                    .requestReadTimeout(Duration.ofSeconds(31))
                    .maxUnauthenticatedConnections(37)
                    .maxUnauthenticatedBytes(4096);
            EndpointSettings expected = new EndpointSettings(
                    InetAddress.getLoopbackAddress(),
                    0,
                    0,
                    -1,
                    ServiceBusEmulatorServer.KEY_NAME,
                    "a-key",
                    true,
                    new EndpointLimits(
                            7,
                            4096,
                            Duration.ofSeconds(9),
                            3,
                            11,
                            13,
                            17,
                            19,
                            Duration.ofSeconds(5),
                            Duration.ofSeconds(23),
                            1024,
                            2,
                            29,
                            Duration.ofSeconds(31),
                            37,
                            4096));
            assertEquals(expected, builder.settings());
            try (ServiceBusEmulatorServer server = builder.start()) {
                assertEquals(expected, server.settings());
                assertTrue(server.httpPort() > 0);
            }
        }
    }

    @Test
    @DisplayName("AMQP-19 a server started from a settings value listens and keys as the value says")
    void startsFromTheValue() {
        EndpointSettings settings = EndpointSettings.defaults()
                .withSharedAccessKey("k")
                .withKeyName("Other")
                .withLimits(EndpointLimits.defaults().withMaxConnections(3));
        try (Namespace namespace = Namespace.create();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace, settings)) {
            assertEquals(settings, server.settings());
            assertEquals(-1, server.httpPort());
            assertTrue(
                    server.getConnectionString().contains("SharedAccessKeyName=Other;SharedAccessKey=k;"),
                    server.getConnectionString());
        }
    }

    @Test
    @DisplayName("AMQP-19 a limit out of range is refused when the value is made, naming it")
    void refusesBadLimits() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> EndpointLimits.defaults().withLinkMax(0));
        assertEquals("linkMax must be positive, was 0", e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> EndpointSettings.defaults().withTlsPort(70_000));
        assertThrows(
                IllegalArgumentException.class,
                () -> EndpointSettings.defaults().withSharedAccessKey("a;b"));
    }
}
