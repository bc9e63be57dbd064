package dev.sbemu.benchmarks;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.EmulatorClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The real SDK's sync clients against the AMQP endpoint over loopback ({@code transport=amqp}: one
 * {@code ServiceBusClientBuilder} from the server's connection string, so one connection), and the same
 * SDK types from the in-process adapter ({@code transport=in-process}: {@code EmulatorClients}, the
 * baseline; its single-message loops are {@link AdapterThroughputBenchmark}'s), one thread:
 * <ul>
 *   <li>{@code peekLockComplete_1thread}: {@code sendMessage} of one 100-byte message,
 *       {@code receiveMessages(1, ...)} on a peek-lock receiver (the SDK's default prefetch, 0), {@code complete};</li>
 *   <li>{@code receiveAndDelete_1thread}: the same on a receive-and-delete receiver, without the complete;</li>
 *   <li>{@code batchSendPrefetchReceiveAndDelete}: a {@code ServiceBusMessageBatch} of {@value #BATCH} such
 *       messages (made with {@code createMessageBatch} and {@code tryAddMessage}, as an application does),
 *       one {@code sendMessages(batch)}, then {@code receiveMessages(}{@value #PREFETCH}{@code , ...)} on a
 *       receive-and-delete receiver with {@code prefetchCount(}{@value #PREFETCH}{@code )} until all are in;
 *       scored per message.</li>
 * </ul>
 * Each case has its own queue, so no receiver's outstanding credit takes another case's messages. The
 * namespace's clock starts at the wall-clock now (see {@link #setUp}). The
 * messages are built once. The trial's setup first runs each case for {@link #WARM_UP} (the SDK's path
 * needs seconds of JIT warm-up), and the trial fails unless every queue is empty at its end.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class EndpointThroughputBenchmark {
    static final int BATCH = 1000;
    /**
     * The receiver's prefetch and the most messages asked for in one receive: the SDK grants prefetch plus
     * request as credit, and closes its own link ({@code delivery-buffer-overflow}, losing receive-and-delete
     * messages) when more than about 512 arrive ahead of its pumping thread (see docs/spec/amqp.md, AMQP-11).
     */
    static final int PREFETCH = 100;

    private static final Duration WARM_UP = Duration.ofSeconds(3);
    private static final Duration MAX_WAIT = Duration.ofSeconds(10);
    private static final List<String> QUEUES = List.of("peek-lock", "receive-and-delete", "bulk");

    @Param({"amqp", "in-process"})
    public String transport;

    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private EmulatorClients inProcess;
    private final List<AutoCloseable> clients = new ArrayList<>();
    private ServiceBusSenderClient peekLockSender;
    private ServiceBusReceiverClient peekLock;
    private ServiceBusSenderClient receiveAndDeleteSender;
    private ServiceBusReceiverClient receiveAndDelete;
    private ServiceBusSenderClient bulkSender;
    private ServiceBusReceiverClient prefetching;
    private final ServiceBusMessage message = new ServiceBusMessage(new byte[100]).setMessageId("order-1");
    private final List<ServiceBusMessage> batchMessages = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() {
        BenchmarkMain.requireAgent();
        // The clock starts at the wall-clock now (the default), as in a test that does not set it: the SDK renews
        // peek-lock locks on the wall clock, and a lock whose virtual expiry is already past on the wall clock
        // (a clock started in the past, or frozen for longer than the lock duration) is renewed back to back
        // until the message is settled. A trial lasts well under the 60 s lock duration.
        namespace = Namespace.builder().build();
        QUEUES.forEach(namespace::createQueue);
        for (int i = 0; i < BATCH; i++) {
            batchMessages.add(new ServiceBusMessage(new byte[100]).setMessageId("order-" + i));
        }
        switch (transport) {
            case "amqp" -> {
                server = ServiceBusEmulatorServer.start(namespace);
                ServiceBusClientBuilder builder =
                        new ServiceBusClientBuilder().connectionString(server.getConnectionString());
                peekLockSender = keep(builder.sender().queueName("peek-lock").buildClient());
                peekLock = keep(builder.receiver().queueName("peek-lock").buildClient());
                receiveAndDeleteSender =
                        keep(builder.sender().queueName("receive-and-delete").buildClient());
                receiveAndDelete = keep(builder.receiver()
                        .queueName("receive-and-delete")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient());
                bulkSender = keep(builder.sender().queueName("bulk").buildClient());
                prefetching = keep(builder.receiver()
                        .queueName("bulk")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .prefetchCount(PREFETCH)
                        .buildClient());
            }
            case "in-process" -> {
                inProcess = EmulatorClients.of(namespace);
                peekLockSender = inProcess.sender("peek-lock");
                peekLock = inProcess.receiver(EntityPath.queue("peek-lock"), ServiceBusReceiveMode.PEEK_LOCK);
                receiveAndDeleteSender = inProcess.sender("receive-and-delete");
                receiveAndDelete = inProcess.receiver(
                        EntityPath.queue("receive-and-delete"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
                bulkSender = inProcess.sender("bulk");
                prefetching = inProcess.receiver(EntityPath.queue("bulk"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
            }
            default -> throw new IllegalArgumentException("transport must be amqp or in-process, was " + transport);
        }
        warmUp(this::peekLockComplete_1thread);
        warmUp(this::receiveAndDelete_1thread);
        warmUp(this::batchSendPrefetchReceiveAndDelete);
    }

    private <T extends AutoCloseable> T keep(T client) {
        clients.add(client);
        return client;
    }

    private static void warmUp(Runnable operation) {
        long end = System.nanoTime() + WARM_UP.toNanos();
        while (System.nanoTime() - end < 0) {
            operation.run();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        try {
            for (String queue : QUEUES) {
                long left = namespace.runtimeInfo(EntityPath.queue(queue)).totalMessageCount();
                if (left != 0) {
                    throw new IllegalStateException(left + " messages left in " + queue);
                }
            }
        } finally {
            for (AutoCloseable client : clients) {
                client.close();
            }
            if (inProcess != null) {
                inProcess.close();
            }
            if (server != null) {
                server.close();
            }
            namespace.close();
        }
    }

    static ServiceBusReceivedMessage first(ServiceBusReceiverClient receiver, Duration maxWait) {
        Iterator<ServiceBusReceivedMessage> received =
                receiver.receiveMessages(1, maxWait).iterator();
        if (!received.hasNext()) {
            throw new IllegalStateException("no message within " + maxWait);
        }
        return received.next();
    }

    /** send + peek-lock receive + complete, one thread. */
    @Benchmark
    @Threads(1)
    public ServiceBusReceivedMessage peekLockComplete_1thread() {
        peekLockSender.sendMessage(message);
        ServiceBusReceivedMessage m = first(peekLock, MAX_WAIT);
        peekLock.complete(m);
        return m;
    }

    /** send + receive-and-delete, one thread. */
    @Benchmark
    @Threads(1)
    public ServiceBusReceivedMessage receiveAndDelete_1thread() {
        receiveAndDeleteSender.sendMessage(message);
        return first(receiveAndDelete, MAX_WAIT);
    }

    /** one batch of {@value #BATCH} sent, then received by a receive-and-delete receiver with prefetch. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public int batchSendPrefetchReceiveAndDelete() {
        ServiceBusMessageBatch batch = bulkSender.createMessageBatch();
        for (ServiceBusMessage m : batchMessages) {
            if (!batch.tryAddMessage(m)) {
                throw new IllegalStateException("a batch holds only " + batch.getCount() + " of the " + BATCH
                        + " messages (" + batch.getSizeInBytes() + " of " + batch.getMaxSizeInBytes() + " bytes)");
            }
        }
        bulkSender.sendMessages(batch);
        int received = 0;
        while (received < BATCH) {
            int got = 0;
            int asked = Math.min(PREFETCH, BATCH - received);
            for (ServiceBusReceivedMessage ignored : prefetching.receiveMessages(asked, MAX_WAIT)) {
                got++;
            }
            if (got == 0) {
                throw new IllegalStateException(
                        "received " + received + " of " + BATCH + ", then nothing within " + MAX_WAIT);
            }
            received += got;
        }
        return received;
    }
}
