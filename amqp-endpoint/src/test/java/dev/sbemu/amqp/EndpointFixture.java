package dev.sbemu.amqp;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A namespace behind a started endpoint ({@link EndpointExtension}, per test), and client builders made from its
 * connection string.
 */
abstract class EndpointFixture {
    /** The namespace's tier is read when each test starts, so a subclass's {@link #tier()} applies. */
    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().namespace(b -> b.tier(tier()));

    /** The instant this test's namespace started at: the wall-clock now, as {@link EndpointExtension} explains. */
    Instant start;

    Namespace namespace;
    ServiceBusEmulatorServer server;

    @BeforeEach
    void takeEndpoint() {
        start = endpoint.start();
        namespace = endpoint.namespace();
        server = endpoint.server();
    }

    /** Replaces this test's endpoint and namespace with new ones (a test that changes {@link #tier()}). */
    void restartEndpoint() {
        endpoint.restart();
        takeEndpoint();
    }

    /** The namespace's tier: Standard, the builder's default, unless a test class needs another. */
    Tier tier() {
        return Tier.STANDARD;
    }

    /** A builder from the connection string, as production code makes it, with short retries for tests. */
    ServiceBusClientBuilder clients() {
        return clients(server.getConnectionString());
    }

    static ServiceBusClientBuilder clients(String connectionString) {
        return new ServiceBusClientBuilder()
                .connectionString(connectionString)
                .retryOptions(new AmqpRetryOptions()
                        .setMaxRetries(1)
                        .setDelay(Duration.ofMillis(100))
                        .setTryTimeout(Duration.ofSeconds(15)));
    }
}
