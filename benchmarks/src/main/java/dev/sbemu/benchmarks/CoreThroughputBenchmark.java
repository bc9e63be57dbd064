package dev.sbemu.benchmarks;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
import org.openjdk.jmh.annotations.Threads;

/**
 * The core's hot path: one operation is a send followed by a receive of one message (and its
 * completion in peek-lock mode), on one queue, by 1 or 2 threads sharing the namespace. Each thread
 * sends before it receives, so a receive never finds the queue empty. The message is built once
 * (building it is the application's cost, not the broker's); with {@code ttl=PT1H} it carries its own
 * time-to-live, so every message also arms and cancels an expiry timer.
 *
 * <p>Compare with {@link QueueBaselineBenchmark}, run in the same JMH invocation.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CoreThroughputBenchmark {

    /** The message's own time-to-live: none, or one hour (arms an expiry timer per message). */
    @Param({"none", "PT1H"})
    public String ttl;

    private Namespace namespace;
    private EntityPath queue;
    private Message message;

    @Setup(Level.Trial)
    public void setUp() {
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue("orders");
        queue = EntityPath.queue("orders");
        Message.Builder b = Message.builder().messageId("order-1").body(new byte[100]);
        if (!"none".equals(ttl)) {
            b.timeToLive(Duration.parse(ttl));
        }
        message = b.build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        namespace.close();
    }

    private BrokeredMessage sendReceiveComplete() {
        namespace.send("orders", message);
        List<BrokeredMessage> received = namespace.receive(queue, ReceiveMode.PEEK_LOCK, 1);
        BrokeredMessage m = received.get(0);
        namespace.complete(queue, m.lockToken());
        return m;
    }

    private BrokeredMessage sendReceiveAndDelete() {
        namespace.send("orders", message);
        return namespace.receive(queue, ReceiveMode.RECEIVE_AND_DELETE, 1).get(0);
    }

    /** send + peek-lock receive + complete, one thread. */
    @Benchmark
    @Threads(1)
    public BrokeredMessage peekLockComplete_1thread() {
        return sendReceiveComplete();
    }

    /** send + peek-lock receive + complete, two threads on one queue. */
    @Benchmark
    @Threads(2)
    public BrokeredMessage peekLockComplete_2threads() {
        return sendReceiveComplete();
    }

    /** send + receive-and-delete, one thread. */
    @Benchmark
    @Threads(1)
    public BrokeredMessage receiveAndDelete_1thread() {
        return sendReceiveAndDelete();
    }

    /** send + receive-and-delete, two threads on one queue. */
    @Benchmark
    @Threads(2)
    public BrokeredMessage receiveAndDelete_2threads() {
        return sendReceiveAndDelete();
    }
}
