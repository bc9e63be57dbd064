package dev.sbemu.benchmarks;

import java.util.ArrayDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The physical floor for {@link CoreThroughputBenchmark}: one operation is an enqueue and a dequeue of
 * one 100-byte payload, through a plain {@link ArrayDeque} (one thread, no locking) and through a
 * {@link LinkedBlockingQueue} (locks and conditions, as the core has), with 1 and 2 threads.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class QueueBaselineBenchmark {
    private static final byte[] PAYLOAD = new byte[100];

    @State(Scope.Thread)
    public static class Deque {
        final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    }

    @State(Scope.Benchmark)
    public static class Blocking {
        final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
    }

    @Benchmark
    @Threads(1)
    public byte[] arrayDequeOfferPoll_1thread(Deque state) {
        state.queue.offer(PAYLOAD);
        return state.queue.poll();
    }

    @Benchmark
    @Threads(1)
    public byte[] linkedBlockingQueuePutTake_1thread(Blocking state) throws InterruptedException {
        state.queue.put(PAYLOAD);
        return state.queue.take();
    }

    @Benchmark
    @Threads(2)
    public byte[] linkedBlockingQueuePutTake_2threads(Blocking state) throws InterruptedException {
        state.queue.put(PAYLOAD);
        return state.queue.take();
    }
}
