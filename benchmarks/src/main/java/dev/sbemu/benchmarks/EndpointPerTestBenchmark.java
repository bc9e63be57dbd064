package dev.sbemu.benchmarks;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.EmulatorClients;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a test pays that builds its own clients from the endpoint's connection string, after warm-up: each
 * invocation is one such test from start to end, on a fresh namespace with queue {@code orders}.
 * <ul>
 *   <li>{@code amqp_sendReceiveComplete}: start a {@link ServiceBusEmulatorServer}, build a
 *       {@code ServiceBusClientBuilder} from its connection string, one sender and one (peek-lock) receiver
 *       on {@code orders}, send one message, receive it and complete it, close the clients, the server and
 *       the namespace. The SDK connects lazily, so this includes its whole first connection: TCP, AMQP open,
 *       SASL, the CBS token, the links' attach, and the close handshakes.</li>
 *   <li>{@code amqp_buildOnly}: the same without the message, i.e. without any connection (the SDK's
 *       builders do not connect): server start and close, the builder and the two clients.</li>
 *   <li>{@code inProcess_sendReceiveComplete}: the in-process adapter's equivalent
 *       ({@code EmulatorClients.of(namespace)}, same sender, receiver and message), the baseline.</li>
 * </ul>
 * The overhead per test is the first minus what the one message costs on warm clients
 * ({@link EndpointThroughputBenchmark}). Sample time, so the report holds the median; the trial's setup
 * first runs each case {@value #WARM_UP_RUNS} times.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class EndpointPerTestBenchmark {
    static final int WARM_UP_RUNS = 100;
    private static final Duration MAX_WAIT = Duration.ofSeconds(10);

    private final ServiceBusMessage message = new ServiceBusMessage(new byte[100]).setMessageId("order-1");

    @Setup
    public void setUp() {
        BenchmarkMain.requireAgent();
        for (int i = 0; i < WARM_UP_RUNS; i++) {
            amqp_sendReceiveComplete();
            amqp_buildOnly();
            inProcess_sendReceiveComplete();
        }
    }

    private static Namespace namespace() {
        // the default clock (the wall-clock now): see EndpointThroughputBenchmark.setUp on the SDK's lock renewal
        Namespace namespace = Namespace.builder().build();
        namespace.createQueue("orders");
        return namespace;
    }

    /** One message through the clients: the test's body. */
    private ServiceBusReceivedMessage sendReceiveComplete(
            ServiceBusSenderClient sender, ServiceBusReceiverClient receiver) {
        sender.sendMessage(message);
        ServiceBusReceivedMessage m = EndpointThroughputBenchmark.first(receiver, MAX_WAIT);
        receiver.complete(m);
        return m;
    }

    /** A test from start to end: namespace, server, a sender and a receiver from its connection string, body. */
    private static <T> T overAmqp(BiFunction<ServiceBusSenderClient, ServiceBusReceiverClient, T> body) {
        try (Namespace namespace = namespace();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            ServiceBusClientBuilder clients =
                    new ServiceBusClientBuilder().connectionString(server.getConnectionString());
            try (ServiceBusSenderClient sender =
                            clients.sender().queueName("orders").buildClient();
                    ServiceBusReceiverClient receiver =
                            clients.receiver().queueName("orders").buildClient()) {
                return body.apply(sender, receiver);
            }
        }
    }

    @Benchmark
    public ServiceBusReceivedMessage amqp_sendReceiveComplete() {
        return overAmqp(this::sendReceiveComplete);
    }

    @Benchmark
    public ServiceBusReceiverClient amqp_buildOnly() {
        return overAmqp((sender, receiver) -> receiver);
    }

    @Benchmark
    public ServiceBusReceivedMessage inProcess_sendReceiveComplete() {
        try (Namespace namespace = namespace();
                EmulatorClients clients = EmulatorClients.of(namespace)) {
            return sendReceiveComplete(
                    clients.sender("orders"),
                    clients.receiver(EntityPath.queue("orders"), ServiceBusReceiveMode.PEEK_LOCK));
        }
    }
}
