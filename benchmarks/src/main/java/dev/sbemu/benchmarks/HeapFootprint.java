package dev.sbemu.benchmarks;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * Retained heap per queued 100-byte message, from heap deltas over {@value #COUNT} messages after
 * full collections. Prints one line per case:
 * <ul>
 *   <li>{@code byte[100] in ArrayDeque}: the physical floor (the payload and one slot);</li>
 *   <li>{@code Message objects}: what the sender's {@link Message} objects retain by themselves;</li>
 *   <li>{@code queued, no TTL} / {@code queued, TTL}: a queue holding the messages (and nothing
 *       else referencing them), without and with a time-to-live (an expiry timer per message).</li>
 * </ul>
 * Overhead = bytes per queued message minus the 100 payload bytes. Run:
 * {@code java -Xmx3g -cp benchmarks/target/benchmarks.jar dev.sbemu.benchmarks.HeapFootprint}
 */
public final class HeapFootprint {
    static final int COUNT = 1_000_000;
    static final int PAYLOAD = 100;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private HeapFootprint() {}

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : COUNT;
        // Warm up class loading and the JIT on a small run, so the figures hold no one-off structures.
        queued(10_000, false);
        System.out.printf(Locale.ROOT, "%-28s %12s %12s%n", "case", "bytes/msg", "overhead");
        report("byte[100] in ArrayDeque", count, floor(count));
        report("Message objects", count, messages(count));
        report("queued, no TTL", count, queued(count, false));
        report("queued, TTL 1h", count, queued(count, true));
    }

    private static void report(String what, int count, long bytes) {
        double perMessage = (double) bytes / count;
        System.out.printf(Locale.ROOT, "%-28s %12.1f %12.1f%n", what, perMessage, perMessage - PAYLOAD);
    }

    private static long floor(int count) {
        long before = usedAfterGc();
        ArrayDeque<byte[]> deque = new ArrayDeque<>(16);
        for (int i = 0; i < count; i++) {
            deque.add(new byte[PAYLOAD]);
        }
        long after = usedAfterGc();
        keep(deque);
        return after - before;
    }

    private static long messages(int count) {
        long before = usedAfterGc();
        Message[] held = new Message[count];
        for (int i = 0; i < count; i++) {
            held[i] = message(i, false);
        }
        long after = usedAfterGc();
        keep(held);
        // the array itself is not part of a message
        return after - before - (16L + 4L * count);
    }

    private static long queued(int count, boolean ttl) {
        long before = usedAfterGc();
        Namespace namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        namespace.createQueue("orders", QueueOptions.defaults());
        for (int i = 0; i < count; i++) {
            namespace.send("orders", message(i, ttl));
            if (i % 1000 == 999) {
                namespace.clock().advance(Duration.ofMillis(1));
            }
        }
        long after = usedAfterGc();
        long queued = namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount();
        if (queued != count) {
            throw new IllegalStateException("expected " + count + " queued messages, found " + queued);
        }
        namespace.close();
        return after - before;
    }

    /** A message as an application would send it: a distinct 100-byte body and a message id. */
    private static Message message(int i, boolean ttl) {
        Message.Builder b = Message.builder().messageId(Integer.toString(i)).body(new byte[PAYLOAD]);
        if (ttl) {
            b.timeToLive(Duration.ofHours(1));
        }
        return b.build();
    }

    private static long usedAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static volatile Object sink;

    private static void keep(Object o) {
        sink = o;
        sink = null;
    }
}
