package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("scale") // many connections, threads or messages: run by the scale-tests execution (pom.xml)
class ConcurrencyTest {
    private static final int MESSAGES = 100_000;
    private static final int PRODUCERS = 4;
    private static final int CONSUMERS = 4;
    private static final long SEED = 20260101L;
    private static final double ABANDON_RATE = 0.2;
    /** A bound, not a target: a correct run takes seconds, a loaded machine several times that. */
    private static final long OVERALL_SECONDS = 300;

    @Test
    @DisplayName("LOCK-2 DLQ-3 4 producers and 4 peek-lock consumers move 100,000 messages with random abandons: "
            + "each is completed exactly once, none is lost, none is held by two consumers at once")
    void producersAndConsumers() throws Exception {
        Namespace ns = namespace();
        ns.createQueue("q", QueueOptions.builder().maxDeliveryCount(1000).build());
        Map<Integer, Integer> holders = new ConcurrentHashMap<>();
        AtomicIntegerArray completions = new AtomicIntegerArray(MESSAGES);
        AtomicLong completed = new AtomicLong();
        AtomicLong abandoned = new AtomicLong();
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(OVERALL_SECONDS);
        ExecutorService threads = Executors.newFixedThreadPool(PRODUCERS + CONSUMERS);
        try {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                all.add(CompletableFuture.runAsync(
                        () -> {
                            for (int i = producer; i < MESSAGES; i += PRODUCERS) {
                                ns.send(
                                        "q",
                                        Message.builder()
                                                .messageId(Integer.toString(i))
                                                .body("m")
                                                .build());
                            }
                        },
                        threads));
            }
            for (int c = 0; c < CONSUMERS; c++) {
                int consumer = c;
                Random random = new Random(SEED + c);
                all.add(CompletableFuture.runAsync(
                        () -> {
                            while (completed.get() < MESSAGES && System.nanoTime() < deadline) {
                                List<BrokeredMessage> batch =
                                        ns.receive(Q, ReceiveMode.PEEK_LOCK, 8, Duration.ofMillis(50));
                                for (BrokeredMessage m : batch) {
                                    int id = Integer.parseInt(m.message().messageId());
                                    Integer other = holders.putIfAbsent(id, consumer);
                                    if (other != null) {
                                        violations.add("message " + id + " held by " + other + " and " + consumer);
                                    }
                                }
                                for (BrokeredMessage m : batch) {
                                    int id = Integer.parseInt(m.message().messageId());
                                    holders.remove(id, consumer);
                                    if (random.nextDouble() < ABANDON_RATE) {
                                        abandoned.incrementAndGet();
                                        ns.abandon(Q, m.lockToken());
                                    } else {
                                        completions.incrementAndGet(id);
                                        completed.incrementAndGet();
                                        ns.complete(Q, m.lockToken());
                                    }
                                }
                            }
                        },
                        threads));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(OVERALL_SECONDS + 10, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
        }

        assertEquals(List.of(), new ArrayList<>(violations));
        assertEquals(MESSAGES, completed.get(), "completed before the overall deadline");
        for (int i = 0; i < MESSAGES; i++) {
            assertEquals(1, completions.get(i), "completions of message " + i);
        }
        EntityRuntimeInfo info = ns.runtimeInfo(Q);
        assertEquals(0, info.totalMessageCount());
        assertEquals(0, info.sizeInBytes());
        assertTrue(abandoned.get() > MESSAGES / 10, "abandons happened: " + abandoned.get());
        assertEquals(
                MESSAGES * 3L + abandoned.get() * 2L + 1,
                ns.journal().totalEvents(),
                "created + per message sent, received, completed + per abandon received, abandoned");
    }
}
