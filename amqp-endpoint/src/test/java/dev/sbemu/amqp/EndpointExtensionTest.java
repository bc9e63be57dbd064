package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Namespace;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The test kit's endpoint fixture: what {@link EndpointExtension} hands a test. */
class EndpointExtensionTest {
    private static final String KEY = "endpoint-extension-key";

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.sharedAccessKey(KEY));

    @Test
    @DisplayName("a test method gets the started endpoint, its namespace, its start and its connection string")
    void injects(
            Namespace namespace,
            ServiceBusEmulatorServer server,
            Instant start,
            @EndpointExtension.ConnectionString String connectionString) {
        assertSame(endpoint.namespace(), namespace);
        assertSame(endpoint.server(), server);
        assertEquals(start, namespace.clock().instant(), "the namespace starts at the test's start, frozen");
        assertFalse(start.isAfter(Instant.now()), "the wall-clock now when the test started");
        assertEquals(server.getConnectionString(), connectionString);
        assertTrue(connectionString.contains(KEY), "the server's options apply: " + connectionString);
        assertTrue(server.port() > 0);
    }
}
