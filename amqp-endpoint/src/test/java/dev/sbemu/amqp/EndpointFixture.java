package dev.sbemu.amqp;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import dev.sbemu.core.Namespace;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A namespace behind a started endpoint, and client builders made from its connection string. */
abstract class EndpointFixture {
    /**
     * The namespaces start at the wall-clock now: the SDK renews a received message's lock on the wall clock,
     * at once when the lock has less than 400 ms left, so a virtual clock behind the wall clock would make it
     * renew every received message back to back (a storm of renew-lock requests that slows everything else).
     */
    static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    Namespace namespace;
    ServiceBusEmulatorServer server;

    @BeforeEach
    void startEndpoint() {
        namespace = Namespace.builder().startingAt(START).tier(tier()).build();
        server = ServiceBusEmulatorServer.start(namespace);
    }

    @AfterEach
    void stopEndpoint() {
        server.close();
        namespace.close();
    }

    /** The namespace's tier: Standard, the builder's default, unless a test class needs another. */
    dev.sbemu.core.Tier tier() {
        return dev.sbemu.core.Tier.STANDARD;
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
