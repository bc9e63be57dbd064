package dev.sbemu.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.VirtualClock;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a running clock (spec CLK-6, CLK-7) costs, measured in a whole process: (1) the CPU time of idle running
 * namespaces (each with pending timers an hour away) over a window of wall time, next to the same with frozen
 * namespaces, for the process and for the clocks' own threads; (2) how late a running clock's timers fire: scheduled
 * messages due every few milliseconds, each taken by a blocked receiver, lateness = the wall time it is received at
 * minus the wall time of its due instant; without load, and with threads sending, receiving and completing on the
 * same namespace meanwhile. Run: {@code java -cp benchmarks.jar dev.sbemu.benchmarks.RunningClockCost [idle seconds]
 * [namespaces] [timers] [load threads]}.
 */
public final class RunningClockCost {
    private RunningClockCost() {}

    public static void main(String[] args) throws Exception {
        int idleSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int namespaces = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int timers = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
        int loadThreads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        System.out.printf(
                "java %s, %d cores, load average %s%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), loadAverage());
        lateness(timers, 0); // warm-up
        idle(ClockMode.FROZEN, namespaces, idleSeconds);
        idle(ClockMode.RUNNING, namespaces, idleSeconds);
        lateness(timers, 0);
        lateness(timers, loadThreads);
        for (int round = 0; round < 3; round++) {
            throughput(ClockMode.FROZEN, 3);
            throughput(ClockMode.RUNNING, 3);
        }
        System.out.printf("load average after: %s%n", loadAverage());
    }

    private static void idle(ClockMode mode, int count, int seconds) throws InterruptedException {
        List<Namespace> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Namespace ns = Namespace.builder().clockMode(mode).build();
            ns.createQueue("q");
            ns.schedule("q", Message.ofText("in an hour"), ns.clock().instant().plus(Duration.ofHours(1)));
            ns.send("q", Message.ofText("locked"));
            ns.receive(EntityPath.queue("q"), ReceiveMode.PEEK_LOCK, 1);
            all.add(ns);
        }
        Thread.sleep(500); // let the clock threads reach their wait
        long cpu0 = processCpuNanos();
        long clocks0 = clockThreadsCpuNanos();
        long wall0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double wall = (System.nanoTime() - wall0) / 1e9;
        long cpu = processCpuNanos() - cpu0;
        long clocks = clockThreadsCpuNanos() - clocks0;
        System.out.printf(
                "idle %s, %d namespaces, %.1f s: process CPU %.1f ms (%.3f%% of a core), clock threads "
                        + "(%d) CPU %.3f ms%n",
                mode, count, wall, cpu / 1e6, cpu / 1e7 / wall, clockThreads(), clocks / 1e6);
        all.forEach(Namespace::close);
    }

    private static void lateness(int timers, int loadThreads) throws Exception {
        try (Namespace ns = Namespace.builder().clockMode(ClockMode.RUNNING).build()) {
            ns.createQueue("timed");
            ns.createQueue(
                    "load",
                    QueueOptions.builder()
                            .defaultMessageTimeToLive(Duration.ofMinutes(5))
                            .build());
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong loadOps = new AtomicLong();
            List<Thread> load = new ArrayList<>();
            for (int i = 0; i < loadThreads; i++) {
                Thread t = new Thread(() -> {
                    EntityPath q = EntityPath.queue("load");
                    while (!stop.get()) {
                        ns.send("load", Message.ofText("x"));
                        for (BrokeredMessage m : ns.receive(q, ReceiveMode.PEEK_LOCK, 1)) {
                            ns.complete(q, m.lockToken());
                        }
                        loadOps.incrementAndGet();
                    }
                });
                t.start();
                load.add(t);
            }
            // the anchor: the virtual instant and the wall nanos it corresponds to (a reading of both, µs apart)
            Instant v0 = ns.clock().instant();
            long w0 = System.nanoTime();
            Instant first = v0.plusMillis(500);
            for (int i = 0; i < timers; i++) {
                ns.schedule("timed", Message.ofText("t" + i), first.plusMillis(3L * i));
            }
            // the clock thread's own lateness: a driver of its own whose timers fall between the messages'
            long[] driverLate = new long[timers];
            Instant[] dues = new Instant[timers];
            for (int i = 0; i < timers; i++) {
                dues[i] = first.plusMillis(3L * i + 1);
            }
            VirtualClock.TimerDriver driver = new VirtualClock.TimerDriver() {
                private int next;

                @Override
                public synchronized Instant nextDue() {
                    return next < dues.length ? dues[next] : null;
                }

                @Override
                public synchronized void fireDue(Instant now) {
                    long wallNow = System.nanoTime();
                    while (next < dues.length && !dues[next].isAfter(now)) {
                        driverLate[next] =
                                wallNow - (w0 + Duration.between(v0, dues[next]).toNanos());
                        next++;
                    }
                }
            };
            ns.clock().register(driver);
            long[] late = new long[timers];
            EntityPath timed = EntityPath.queue("timed");
            for (int got = 0; got < timers; ) {
                for (BrokeredMessage m : ns.receive(timed, ReceiveMode.RECEIVE_AND_DELETE, 1, Duration.ofSeconds(30))) {
                    long now = System.nanoTime();
                    Duration sinceAnchor = Duration.between(v0, m.enqueuedTime());
                    late[got++] = now - (w0 + sinceAnchor.toNanos());
                }
            }
            stop.set(true);
            for (Thread t : load) {
                t.join();
            }
            ns.clock().unregister(driver);
            System.out.printf(
                    "%d load threads (%d load ops), %d timers one every 3 ms:%n", loadThreads, loadOps.get(), timers);
            print("  scheduled message to a blocked receiver", late);
            print("  the clock thread firing a timer        ", driverLate);
        }
    }

    /** The hot path on either clock: one thread sending (with a TTL: a timer each), receiving and completing. */
    private static void throughput(ClockMode mode, int seconds) {
        try (Namespace ns = Namespace.builder().clockMode(mode).build()) {
            ns.createQueue(
                    "q",
                    QueueOptions.builder()
                            .defaultMessageTimeToLive(Duration.ofMinutes(5))
                            .build());
            EntityPath q = EntityPath.queue("q");
            long ops = 0;
            long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                for (int i = 0; i < 1000; i++) {
                    ns.send("q", Message.ofText("x"));
                    for (BrokeredMessage m : ns.receive(q, ReceiveMode.PEEK_LOCK, 1)) {
                        ns.complete(q, m.lockToken());
                    }
                }
                ops += 1000;
            }
            long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
            System.out.printf(
                    "send + peek-lock receive + complete, 1 thread, %s clock: %.0f ns CPU per op "
                            + "(%.2f M ops per CPU second)%n",
                    mode, (double) cpu / ops, ops / (cpu / 1e9) / 1e6);
        }
    }

    private static void print(String what, long[] late) {
        long[] sorted = late.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        System.out.printf(
                "%s: lateness p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                what, sorted[n / 2] / 1e6, sorted[(int) (n * 0.99)] / 1e6, sorted[n - 1] / 1e6);
    }

    private static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long clockThreadsCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("sbemu-clock-")) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    private static long clockThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("sbemu-clock-"))
                .count();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }
}
