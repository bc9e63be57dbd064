package dev.sbemu.benchmarks;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.EmulatorClients;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
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
import org.openjdk.jmh.annotations.Threads;

/**
 * {@link CoreThroughputBenchmark}'s loop through the SDK types the adapter hands out: one operation is
 * {@code ServiceBusSenderClient.sendMessage} of one 100-byte message, then
 * {@code ServiceBusReceiverClient.receiveMessages(1, 1s)} (and {@code complete} in peek-lock mode), one
 * thread. The message is built once, as in the core benchmark. What it adds to the core: the Mockito
 * mock's dispatch, the Reactor {@code Mono}s the sync clients block on, and the SDK message mapping
 * both ways ({@code ServiceBusMessage} to the core message, the core message to the AMQP message the
 * SDK deserializes into a {@code ServiceBusReceivedMessage}). Run it beside
 * {@code CoreThroughputBenchmark.*_1thread} (ttl=none) for the adapter/core ratio. The trial's setup
 * first runs {@value #WARM_UP_OPERATIONS} operations of each kind: this path needs several seconds of
 * JIT warm-up, more than the short runs give (see RESULTS.md).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AdapterThroughputBenchmark {
    private static final Duration MAX_WAIT = Duration.ofSeconds(1);
    /** Operations of each kind run in the trial's setup, before JMH's own warm-up. */
    static final int WARM_UP_OPERATIONS = 100_000;

    private Namespace namespace;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusReceiverClient peekLock;
    private ServiceBusReceiverClient receiveAndDelete;
    private ServiceBusMessage message;

    @Setup(Level.Trial)
    public void setUp() {
        BenchmarkMain.requireAgent();
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue("orders");
        clients = EmulatorClients.of(namespace);
        sender = clients.sender("orders");
        peekLock = clients.receiver(EntityPath.queue("orders"), ServiceBusReceiveMode.PEEK_LOCK);
        receiveAndDelete = clients.receiver(EntityPath.queue("orders"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
        message = new ServiceBusMessage(new byte[100]).setMessageId("order-1");
        // The adapter's path (Mockito, Reactor, proton-j, the SDK's serializer) takes far longer to reach
        // steady state than the core's; warm it up here so that short JMH warm-ups measure compiled code.
        for (int i = 0; i < WARM_UP_OPERATIONS; i++) {
            peekLockComplete_1thread();
            receiveAndDelete_1thread();
            dispatchOnly_1thread();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        clients.close();
        namespace.close();
    }

    private static ServiceBusReceivedMessage first(ServiceBusReceiverClient receiver) {
        Iterator<ServiceBusReceivedMessage> received =
                receiver.receiveMessages(1, MAX_WAIT).iterator();
        return received.next();
    }

    /** send + peek-lock receive + complete, one thread. */
    @Benchmark
    @Threads(1)
    public ServiceBusReceivedMessage peekLockComplete_1thread() {
        sender.sendMessage(message);
        ServiceBusReceivedMessage m = first(peekLock);
        peekLock.complete(m);
        return m;
    }

    /** send + receive-and-delete, one thread. */
    @Benchmark
    @Threads(1)
    public ServiceBusReceivedMessage receiveAndDelete_1thread() {
        sender.sendMessage(message);
        return first(receiveAndDelete);
    }

    /**
     * One call on the SDK type that does next to nothing in our code ({@code getEntityPath()}): what the dispatch
     * from the SDK's final class to our implementation costs per call.
     */
    @Benchmark
    @Threads(1)
    public String dispatchOnly_1thread() {
        return sender.getEntityPath();
    }
}
