package dev.sbemu.benchmarks;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
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
 * Receive from a shallow and from a deep queue: one operation is a peek-lock receive of the oldest
 * message, its completion, and a send that puts the depth back. The two depths must score within 2x
 * of each other.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class DeepQueueBenchmark {

    @Param({"10", "1000000"})
    public int depth;

    private Namespace namespace;
    private EntityPath queue;
    private Message message;

    @Setup(Level.Trial)
    public void fill() {
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue("orders");
        queue = EntityPath.queue("orders");
        message = Message.builder().messageId("order").body(new byte[100]).build();
        for (int i = 0; i < depth; i++) {
            namespace.send(
                    "orders",
                    Message.builder().messageId("m" + i).body(new byte[100]).build());
        }
        System.gc();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        namespace.close();
    }

    @Benchmark
    public BrokeredMessage receiveCompleteRefill() {
        BrokeredMessage m = namespace.receive(queue, ReceiveMode.PEEK_LOCK, 1).get(0);
        namespace.complete(queue, m.lockToken());
        namespace.send("orders", message);
        return m;
    }
}
