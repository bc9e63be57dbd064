package dev.sbemu.amqp;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import dev.sbemu.core.Namespace;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A namespace behind a started endpoint, and client builders made from its connection string. */
abstract class EndpointFixture {
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    Namespace namespace;
    ServiceBusEmulatorServer server;

    @BeforeEach
    void startEndpoint() {
        namespace = Namespace.builder().startingAt(START).build();
        server = ServiceBusEmulatorServer.start(namespace);
    }

    @AfterEach
    void stopEndpoint() {
        server.close();
        namespace.close();
    }

    /** A builder from the connection string, as production code makes it, with short retries for tests. */
    ServiceBusClientBuilder clients() {
        return clients(server.getConnectionString());
    }

    static ServiceBusClientBuilder clients(String connectionString) {
        return new ServiceBusClientBuilder().connectionString(connectionString)
                .retryOptions(new AmqpRetryOptions().setMaxRetries(1).setDelay(Duration.ofMillis(100))
                        .setTryTimeout(Duration.ofSeconds(15)));
    }
}
