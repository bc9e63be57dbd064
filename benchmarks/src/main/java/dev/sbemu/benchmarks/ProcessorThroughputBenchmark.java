package dev.sbemu.benchmarks;

import com.azure.messaging.servicebus.ServiceBusErrorContext;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.EmulatorClients;
import dev.sbemu.sdk.ProcessorOptions;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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

/**
 * {@code ServiceBusProcessorClient} throughput: a processor from
 * {@code EmulatorClients.processor(EntityPath.queue("orders"), ProcessorOptions.of(...).withMaxConcurrentCalls(n))}
 * with auto-complete (peek-lock, the SDK's defaults), whose handler only counts the message down on a
 * {@link CountDownLatch}. One invocation handles a batch of {@value #BATCH} 100-byte messages and is
 * scored per message ({@code @OperationsPerInvocation}); it waits for the batch at most
 * {@link #MAX_AWAIT_SECONDS} s and fails if the batch is not all handled by then.
 * <ul>
 *   <li>{@code sentConcurrently}: the processor runs throughout; the benchmark thread sends the batch
 *       one {@code ServiceBusSenderClient.sendMessage} at a time while the workers handle it, then waits
 *       until the last message is handled. Messages/s from the first send to the last handled message,
 *       sender and {@code n} workers sharing the machine.</li>
 *   <li>{@code preSent}: the batch is sent (untimed, {@code Level.Invocation} setup) while the processor
 *       is stopped; the timed part is {@code processor.start()} and the wait until all are handled (so it
 *       includes one start: a receiver and {@code n} threads); the processor is stopped again untimed.</li>
 * </ul>
 * The trial's setup first pushes {@value #WARM_UP_BATCHES} batches through the processor (both shapes),
 * as the adapter's path needs far more JIT warm-up than short JMH runs give. An error reported to the
 * processor's error handler fails the iteration; at the end of the trial the queue must be empty (every
 * message completed).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ProcessorThroughputBenchmark {
    static final int BATCH = 1_000;
    static final int WARM_UP_BATCHES = 100;
    static final long MAX_AWAIT_SECONDS = 60;
    private static final String QUEUE = "orders";

    /** 1, and as many as and twice the 2 cores the figures in RESULTS.md were taken on. */
    @Param({"1", "2", "4"})
    public int maxConcurrentCalls;

    private Namespace namespace;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;
    private ServiceBusProcessorClient processor;
    private ServiceBusMessage message;
    private volatile CountDownLatch handled = new CountDownLatch(0);
    private final AtomicReference<Throwable> error = new AtomicReference<>();

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        BenchmarkMain.requireAgent();
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue(QUEUE);
        clients = EmulatorClients.of(namespace);
        sender = clients.sender(QUEUE);
        processor = clients.processor(
                EntityPath.queue(QUEUE),
                ProcessorOptions.of(this::onMessage, this::onError).withMaxConcurrentCalls(maxConcurrentCalls));
        message = new ServiceBusMessage(new byte[100]).setMessageId("order-1");
        for (int i = 0; i < WARM_UP_BATCHES; i++) {
            sentConcurrently();
        }
        processor.stop();
        for (int i = 0; i < WARM_UP_BATCHES / 10; i++) {
            queueBatch();
            preSent();
            processor.stop();
        }
        checkErrors();
    }

    private void onMessage(ServiceBusReceivedMessageContext context) {
        handled.countDown();
    }

    private void onError(ServiceBusErrorContext context) {
        error.compareAndSet(null, context.getException());
    }

    @TearDown(Level.Iteration)
    public void checkErrors() {
        Throwable e = error.get();
        if (e != null) {
            throw new IllegalStateException("the processor reported an error", e);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        processor.stop();
        EntityRuntimeInfo left = namespace.runtimeInfo(EntityPath.queue(QUEUE));
        clients.close();
        namespace.close();
        checkErrors();
        if (left.activeMessageCount() != 0) {
            throw new IllegalStateException(left.activeMessageCount() + " messages were left in the queue");
        }
    }

    /** A fresh latch for the next batch, then the batch, sent while the processor is stopped. */
    private void queueBatch() {
        handled = new CountDownLatch(BATCH);
        sendBatch();
    }

    private void sendBatch() {
        for (int i = 0; i < BATCH; i++) {
            sender.sendMessage(message);
        }
    }

    private void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(MAX_AWAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                    latch.getCount() + " of " + BATCH + " messages not handled within " + MAX_AWAIT_SECONDS + " s");
        }
    }

    /** Sends {@value #BATCH} messages to the running processor and waits until it has handled them all. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void sentConcurrently() throws InterruptedException {
        processor.start(); // running already, except in the first warm-up call
        CountDownLatch latch = new CountDownLatch(BATCH);
        handled = latch;
        sendBatch();
        await(latch);
    }

    /** Queues a batch for {@link #preSent} while the processor is stopped, and stops it after. */
    @State(Scope.Benchmark)
    public static class Queued {
        @Setup(Level.Invocation)
        public void send(ProcessorThroughputBenchmark b) {
            b.queueBatch();
        }

        @TearDown(Level.Invocation)
        public void stop(ProcessorThroughputBenchmark b) {
            b.processor.stop();
        }
    }

    /** Starts the processor on {@value #BATCH} queued messages and waits until it has handled them all. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void preSent(Queued queued) throws InterruptedException {
        preSent();
    }

    private void preSent() throws InterruptedException {
        CountDownLatch latch = handled;
        processor.start();
        await(latch);
    }
}
