package dev.sbemu.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * {@link AdapterThroughputBenchmark}'s operations timed in the running thread's CPU time rather than wall time, so
 * that a machine shared with other work (other builds taking the cores) shifts the figures far less than it shifts
 * JMH's throughput: a thread that waits for a core accrues no CPU time. Prints, per operation kind, the median over
 * several rounds of CPU nanoseconds per operation and the operations per CPU second it implies. Run with the
 * benchmarks jar as the agent: {@code java -javaagent:benchmarks.jar -cp benchmarks.jar
 * dev.sbemu.benchmarks.AdapterCpuTime [rounds] [operations per round]}.
 */
public final class AdapterCpuTime {
    /** Keeps the operations' results alive, so that the JIT cannot drop them. */
    static volatile Object sink;

    private AdapterCpuTime() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int operations = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        AdapterThroughputBenchmark benchmark = new AdapterThroughputBenchmark();
        benchmark.setUp(); // includes the benchmark's own warm-up
        try {
            report("send + peek-lock receive + complete", rounds, operations, benchmark::peekLockComplete_1thread);
            report("send + receive-and-delete", rounds, operations, benchmark::receiveAndDelete_1thread);
            report(
                    "one call on the SDK type (getEntityPath)",
                    rounds,
                    operations * 10,
                    benchmark::dispatchOnly_1thread);
        } finally {
            benchmark.tearDown();
        }
    }

    private static void report(String name, int rounds, int operations, Supplier<?> operation) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] nanosPerOperation = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < operations; i++) {
                sink = operation.get();
            }
            nanosPerOperation[r] = (threads.getCurrentThreadCpuTime() - start) / (double) operations;
        }
        Arrays.sort(nanosPerOperation);
        double median = nanosPerOperation[rounds / 2];
        System.out.printf(
                "%-45s %8.0f ns CPU per operation (min %.0f, max %.0f) = %,10.0f per CPU second%n",
                name, median, nanosPerOperation[0], nanosPerOperation[rounds - 1], 1e9 / median);
    }
}
