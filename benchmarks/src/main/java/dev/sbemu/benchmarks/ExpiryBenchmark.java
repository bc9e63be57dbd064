package dev.sbemu.benchmarks;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code clock.advance} that expires every one of N queued messages to the dead-letter queue
 * (TTL-9). Each invocation gets a fresh namespace holding N messages (sent at distinct virtual
 * instants, so the advance fires N expiry timers in due order); the score is the time of that one
 * advance. Divide by N for the cost per message, which must stay flat (or grow like log N).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class ExpiryBenchmark {

    @Param({"1000", "10000", "100000", "1000000"})
    public int n;

    private Namespace namespace;

    @Setup(Level.Invocation)
    public void fill() {
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue(
                "orders",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        byte[] body = new byte[100];
        for (int i = 0; i < n; i++) {
            namespace.send(
                    "orders", Message.builder().messageId("m" + i).body(body).build());
            if (i % 1000 == 999) {
                namespace.clock().advance(Duration.ofMillis(1));
            }
        }
        // Leave the setup's garbage out of the measured advance.
        System.gc();
    }

    @Benchmark
    public void advanceExpiresAll() {
        namespace.clock().advance(Duration.ofHours(1));
    }

    @TearDown(Level.Invocation)
    public void check() {
        EntityRuntimeInfo info = namespace.runtimeInfo(EntityPath.queue("orders"));
        if (info.activeMessageCount() != 0 || info.deadLetterMessageCount() != n) {
            throw new IllegalStateException("expected " + n + " dead-lettered messages, got " + info);
        }
        namespace.close();
        namespace = null;
    }
}
