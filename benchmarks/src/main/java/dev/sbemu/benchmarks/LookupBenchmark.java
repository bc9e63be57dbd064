package dev.sbemu.benchmarks;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
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
 * Lookups by sequence number in a queue of {@code depth} deferred messages (DLQ-4, PEEK-1): a peek
 * from a random sequence number, and a peek-lock receive of the deferred message with a random
 * sequence number followed by deferring it again (so the queue stays the same).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class LookupBenchmark {

    @Param({"1000", "1000000"})
    public int depth;

    private Namespace namespace;
    private EntityPath queue;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup(Level.Trial)
    public void fill() {
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue(
                "orders",
                QueueOptions.builder()
                        .lockDuration(Duration.ofMinutes(5))
                        .maxDeliveryCount(Integer.MAX_VALUE)
                        .build());
        queue = EntityPath.queue("orders");
        for (int i = 0; i < depth; i++) {
            namespace.send(
                    "orders",
                    Message.builder().messageId("m" + i).body(new byte[100]).build());
        }
        while (true) {
            List<BrokeredMessage> batch = namespace.receive(queue, ReceiveMode.PEEK_LOCK, 1000);
            if (batch.isEmpty()) {
                break;
            }
            for (BrokeredMessage m : batch) {
                namespace.defer(queue, m.lockToken());
            }
        }
        System.gc();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        namespace.close();
    }

    private long randomSequenceNumber() {
        return 1 + random.nextInt(depth);
    }

    @Benchmark
    public List<BrokeredMessage> peekFromSequenceNumber() {
        return namespace.peek(queue, randomSequenceNumber(), 1);
    }

    @Benchmark
    public BrokeredMessage receiveDeferredBySequenceNumber() {
        BrokeredMessage m = namespace
                .receiveDeferred(queue, ReceiveMode.PEEK_LOCK, List.of(randomSequenceNumber()))
                .get(0);
        namespace.defer(queue, m.lockToken());
        return m;
    }
}
