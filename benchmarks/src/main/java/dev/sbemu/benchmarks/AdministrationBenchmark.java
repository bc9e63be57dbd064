package dev.sbemu.benchmarks;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import com.azure.messaging.servicebus.administration.models.QueueRuntimeProperties;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.AdministrationClients;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Round trips of the SDK's own {@code ServiceBusAdministrationClient} from
 * {@code AdministrationClients.sync(namespace)}: the SDK builds the HTTP request and its Atom/XML body,
 * the in-process {@code HttpClient} routes it to the namespace and writes the XML answer, and the SDK
 * parses it back into its models (no network, no retries). One thread, average time per operation.
 * <ul>
 *   <li>{@code createGetDeleteQueue}: {@code createQueue}, {@code getQueue} and {@code deleteQueue} of one
 *       queue, i.e. three round trips per operation;</li>
 *   <li>{@code getQueueRuntimeProperties}: one round trip, on a queue holding 10 messages.</li>
 * </ul>
 * The trial's setup first runs {@value #WARM_UP_OPERATIONS} operations of each kind (the SDK's HTTP
 * pipeline and XML mapping need more JIT warm-up than short JMH runs give).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AdministrationBenchmark {
    static final int WARM_UP_OPERATIONS = 20_000;
    private static final String QUEUE = "orders";
    private static final String SCRATCH_QUEUE = "scratch";

    private Namespace namespace;
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
        admin = AdministrationClients.sync(namespace);
        for (int i = 0; i < WARM_UP_OPERATIONS; i++) {
            createGetDeleteQueue();
            getQueueRuntimeProperties();
        }
        QueueRuntimeProperties p = getQueueRuntimeProperties();
        if (p.getActiveMessageCount() != 10 || namespace.queueExists(SCRATCH_QUEUE)) {
            throw new IllegalStateException("unexpected state: " + p.getActiveMessageCount() + " active messages");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        namespace.close();
    }

    /** createQueue + getQueue + deleteQueue: three round trips. */
    @Benchmark
    public QueueProperties createGetDeleteQueue() {
        admin.createQueue(SCRATCH_QUEUE);
        QueueProperties got = admin.getQueue(SCRATCH_QUEUE);
        admin.deleteQueue(SCRATCH_QUEUE);
        return got;
    }

    /** getQueueRuntimeProperties: one round trip. */
    @Benchmark
    public QueueRuntimeProperties getQueueRuntimeProperties() {
        return admin.getQueueRuntimeProperties(QUEUE);
    }
}
