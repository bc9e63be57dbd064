package dev.sbemu.benchmarks;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.administration.models.QueueRuntimeProperties;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link AdministrationBenchmark}'s {@code getQueueRuntimeProperties}, over real HTTP: the SDK's own
 * administration client built from the endpoint's connection string with {@code administrationHttpPolicy()}
 * (the SDK's default HTTP client, Netty, on loopback), to the endpoint's one port (the first bytes tell HTTP from
 * AMQP; the connection is spliced to the JDK's HTTP server), whose handler is the in-process client's router.
 * One thread, average time per operation, a queue of 10 messages; {@value #WARM_UP_OPERATIONS} operations first.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AdministrationOverHttpBenchmark {
    static final int WARM_UP_OPERATIONS = 5_000;
    private static final String QUEUE = "orders";

    /** {@code amqp-port}: HTTP on the endpoint's one port (spliced); {@code http-port}: the HTTP port (spliced the same way). */
    @Param({"amqp-port", "http-port"})
    public String port;

    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private ServiceBusAdministrationClient admin;

    @Setup(Level.Trial)
    public void setUp() {
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue(QUEUE);
        for (int i = 0; i < 10; i++) {
            namespace.send(
                    QUEUE,
                    Message.builder()
                            .body(new byte[100])
                            .messageId("order-" + i)
                            .build());
        }
        server = port.equals("http-port")
                ? ServiceBusEmulatorServer.builder(namespace).httpPort(0).start()
                : ServiceBusEmulatorServer.start(namespace);
        admin = new ServiceBusAdministrationClientBuilder()
                .connectionString(server.getConnectionString())
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
        for (int i = 0; i < WARM_UP_OPERATIONS; i++) {
            getQueueRuntimeProperties();
        }
        if (getQueueRuntimeProperties().getActiveMessageCount() != 10) {
            throw new IllegalStateException("unexpected state");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        server.close();
        namespace.close();
    }

    /** getQueueRuntimeProperties over HTTP: one round trip on a kept-alive loopback connection. */
    @Benchmark
    public QueueRuntimeProperties getQueueRuntimeProperties() {
        return admin.getQueueRuntimeProperties(QUEUE);
    }
}
