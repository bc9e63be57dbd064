package dev.sbemu.core.robustness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Processor-like threads (peek-lock receive loops that complete, abandon, dead-letter or drop the
 * lock), application threads that send, batch-send, schedule and cancel, a thread that peeks, and a
 * thread that advances the clock, all on three queues of one namespace at once. Every wait is
 * bounded; nothing sleeps.
 *
 * <p>Invariants: no delivery of a message repeats a delivery count (so no two receivers ever held it
 * at once: each redelivery follows a lock expiry or abandon, which raise the count, DLQ-2, LOCK-2);
 * a message is completed at most once; at quiescence every message that was sent and not cancelled
 * was completed or is in the dead-letter queue, exactly once, with a reason that fits; and the counts
 * are all zero once the dead-letter queues are drained.
 */
@Tag("scale") // many connections, threads or messages: run by the scale-tests execution (pom.xml)
class ConcurrencyStressTest {
    private static final int SENDERS = 2;
    private static final int MESSAGES_PER_SENDER = Integer.getInteger("sbemu.stress.messages", 5000);
    private static final int PROCESSORS_PER_QUEUE = 2;
    /** A bound, not a target: a correct run takes seconds. */
    private static final Duration DEADLINE = Duration.ofSeconds(300);

    private static final String[] QUEUES = {"q0", "q1", "q2"};

    private final Namespace ns = Namespace.builder()
            .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
            .build();
    private final Set<String> sent = ConcurrentHashMap.newKeySet();
    private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    private final Set<String> completed = ConcurrentHashMap.newKeySet();
    private final Set<String> deliveries = ConcurrentHashMap.newKeySet();
    private final Map<String, String> queueOf = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    /** Released after each receive call, one per waiting party, so waits are on progress and bounded. */
    private final Semaphore receivesSinceAdvance = new Semaphore(0);

    private final Semaphore receivesForMain = new Semaphore(0);
    private final Semaphore receivesForPeeker = new Semaphore(0);
    private final AtomicLong lockLost = new AtomicLong();
    private final AtomicLong advances = new AtomicLong();

    @Test
    @DisplayName(
            "LOCK-2 DLQ-2 DLQ-3 SCH-2 CLK-2 CLK-3 concurrency: processors, senders, a peeker and clock advances on "
                    + "three queues lose nothing and deliver nothing twice under peek-lock")
    void concurrentProcessorsSendersAndAdvances() throws InterruptedException {
        ns.createQueue(
                "q0",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(10))
                        .maxDeliveryCount(5)
                        .build());
        ns.createQueue(
                "q1",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(5))
                        .maxDeliveryCount(3)
                        .defaultMessageTimeToLive(Duration.ofMinutes(2))
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        ns.createQueue(
                "q2",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(30))
                        .maxDeliveryCount(10)
                        .build());

        List<Thread> workers = new ArrayList<>();
        CountDownLatch sendersDone = new CountDownLatch(SENDERS);
        for (int s = 0; s < SENDERS; s++) {
            int sender = s;
            workers.add(thread("sender-" + s, () -> {
                try {
                    send(sender);
                } finally {
                    sendersDone.countDown();
                }
            }));
        }
        for (String queue : QUEUES) {
            for (int p = 0; p < PROCESSORS_PER_QUEUE; p++) {
                long seed = queue.hashCode() * 31L + p;
                workers.add(thread("processor-" + queue + "-" + p, () -> process(queue, seed)));
            }
        }
        workers.add(thread("clock", this::advanceClock));
        workers.add(thread("peeker", this::peek));
        workers.forEach(Thread::start);

        long deadline = System.nanoTime() + DEADLINE.toNanos();
        assertTrue(sendersDone.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "senders did not finish in time");
        // Quiescence: nothing active, scheduled or deferred (locked messages count as active).
        while (!quiescent()) {
            if (System.nanoTime() > deadline) {
                stop.set(true);
                List<String> journal = ns.journal().format().lines().toList();
                fail("no quiescence within " + DEADLINE + ": " + counts() + "\n"
                        + String.join("\n", journal.subList(Math.max(0, journal.size() - 60), journal.size())));
            }
            receivesForMain.tryAcquire(10, TimeUnit.MILLISECONDS); // bounded wait for the next receive
        }
        stop.set(true);
        for (Thread t : workers) {
            t.join(TimeUnit.SECONDS.toMillis(10));
            assertTrue(!t.isAlive(), t.getName() + " did not stop");
        }
        assertTrue(violations.isEmpty(), "violations:\n" + String.join("\n", violations));

        Set<String> deadLettered = new HashSet<>();
        for (String queue : QUEUES) {
            EntityPath dlq = EntityPath.queue(queue).deadLetter();
            while (true) {
                List<BrokeredMessage> batch = ns.receive(dlq, ReceiveMode.RECEIVE_AND_DELETE, 100);
                if (batch.isEmpty()) {
                    break;
                }
                for (BrokeredMessage m : batch) {
                    String id = m.message().messageId();
                    assertTrue(deadLettered.add(id), id + " dead-lettered twice");
                    assertEquals(queue, queueOf.get(id), id + " dead-lettered in the wrong queue");
                    String reason = m.deadLetterReason();
                    boolean fits = "stress".equals(reason)
                            || "MaxDeliveryCountExceeded".equals(reason)
                            || ("TTLExpiredException".equals(reason) && queue.equals("q1"));
                    assertTrue(fits, id + " dead-lettered with reason " + reason + " in " + queue);
                }
            }
            EntityRuntimeInfo info = ns.runtimeInfo(EntityPath.queue(queue));
            assertEquals(0, info.totalMessageCount(), queue + " not empty at the end: " + info);
        }
        Set<String> expected = new HashSet<>(sent);
        expected.removeAll(cancelled);
        Set<String> both = new HashSet<>(completed);
        both.retainAll(deadLettered);
        assertTrue(both.isEmpty(), "completed and dead-lettered: " + both);
        Set<String> accounted = new HashSet<>(completed);
        accounted.addAll(deadLettered);
        Set<String> lost = new HashSet<>(expected);
        lost.removeAll(accounted);
        assertTrue(
                lost.isEmpty(),
                lost.size() + " messages lost, e.g. " + lost.stream().limit(5).toList());
        Set<String> extra = new HashSet<>(accounted);
        extra.removeAll(expected);
        assertTrue(extra.isEmpty(), "delivered but cancelled or never sent: " + extra);
        assertTrue(advances.get() > 0, "the clock never moved");
        System.out.printf(
                "stress: %d sent, %d cancelled, %d completed, %d dead-lettered, %d deliveries, "
                        + "%d settlements refused for lock lost, %d clock advances%n",
                sent.size(),
                cancelled.size(),
                completed.size(),
                deadLettered.size(),
                deliveries.size(),
                lockLost.get(),
                advances.get());
        ns.close();
    }

    private Thread thread(String name, Runnable body) {
        Thread t = new Thread(
                () -> {
                    try {
                        body.run();
                    } catch (Throwable e) {
                        violations.add(name + ": " + e);
                        stop.set(true);
                    }
                },
                name);
        t.setDaemon(true);
        return t;
    }

    private void send(int sender) {
        SplittableRandom random = new SplittableRandom(1000 + sender);
        int i = 0;
        while (i < MESSAGES_PER_SENDER && !stop.get()) {
            String queue = QUEUES[random.nextInt(QUEUES.length)];
            int r = random.nextInt(10);
            if (r < 6) {
                String id = "s" + sender + "-" + i++;
                track(id, queue);
                ns.send(queue, Message.builder().messageId(id).body(id).build());
            } else if (r < 8) {
                List<Message> batch = new ArrayList<>();
                int n = 1 + random.nextInt(5);
                for (int k = 0; k < n; k++) {
                    String id = "s" + sender + "-" + i++;
                    track(id, queue);
                    batch.add(Message.builder().messageId(id).body(id).build());
                }
                ns.send(queue, batch);
            } else {
                String id = "s" + sender + "-" + i++;
                track(id, queue);
                Instant at = ns.clock().instant().plusMillis(random.nextInt(30_000));
                long seq = ns.schedule(
                        queue, Message.builder().messageId(id).body(id).build(), at);
                if (random.nextInt(3) == 0) {
                    try {
                        ns.cancelScheduled(queue, seq);
                        cancelled.add(id);
                    } catch (BrokerException.MessageNotFound activatedMeanwhile) {
                        // SCH-4: the clock moved past its time: it is an ordinary message now
                    }
                }
            }
        }
    }

    private void track(String id, String queue) {
        sent.add(id);
        queueOf.put(id, queue);
    }

    private void process(String queue, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        EntityPath path = EntityPath.queue(queue);
        while (!stop.get()) {
            List<BrokeredMessage> batch =
                    ns.receive(path, ReceiveMode.PEEK_LOCK, 1 + random.nextInt(5), Duration.ofMillis(20));
            receivesSinceAdvance.release();
            receivesForMain.release();
            receivesForPeeker.release();
            for (BrokeredMessage m : batch) {
                String id = m.message().messageId();
                if (!queue.equals(queueOf.get(id))) {
                    violations.add(id + " received from " + queue + " but sent to " + queueOf.get(id));
                }
                if (!deliveries.add(id + "@" + m.deliveryCount())) {
                    violations.add(id + " delivered twice with delivery count " + m.deliveryCount());
                }
                int r = random.nextInt(100);
                try {
                    if (r < 80) {
                        ns.complete(path, m.lockToken());
                        if (!completed.add(id)) {
                            violations.add(id + " completed twice");
                        }
                    } else if (r < 90) {
                        ns.abandon(path, m.lockToken());
                    } else if (r < 95) {
                        ns.deadLetter(path, m.lockToken(), "stress", "dead-lettered by " + queue, Map.of());
                    }
                    // else: drop the lock and let it expire
                } catch (BrokerException.MessageLockLost e) {
                    lockLost.incrementAndGet(); // the clock thread moved past the lock
                }
            }
        }
    }

    private void advanceClock() {
        SplittableRandom random = new SplittableRandom(7);
        while (!stop.get()) {
            try {
                // after about 5 receives, or 10 ms, whichever comes first
                receivesSinceAdvance.tryAcquire(5, 10, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            receivesSinceAdvance.drainPermits();
            ns.clock().advance(Duration.ofMillis(random.nextInt(12_000)));
            advances.incrementAndGet();
        }
    }

    private void peek() {
        SplittableRandom random = new SplittableRandom(11);
        while (!stop.get()) {
            String queue = QUEUES[random.nextInt(QUEUES.length)];
            List<BrokeredMessage> page = ns.peek(EntityPath.queue(queue), random.nextInt(2000), 50);
            long last = Long.MIN_VALUE;
            Set<String> ids = new HashSet<>();
            for (BrokeredMessage m : page) {
                if (m.sequenceNumber() <= last) {
                    violations.add("peek of " + queue + " out of order at #" + m.sequenceNumber());
                }
                last = m.sequenceNumber();
                if (!ids.add(m.message().messageId())) {
                    violations.add("peek of " + queue + " shows " + m.message().messageId() + " twice");
                }
            }
            try {
                receivesForPeeker.tryAcquire(5, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private boolean quiescent() {
        for (String queue : QUEUES) {
            EntityRuntimeInfo info = ns.runtimeInfo(EntityPath.queue(queue));
            if (info.activeMessageCount() + info.scheduledMessageCount() + info.deferredMessageCount() > 0) {
                return false;
            }
        }
        return true;
    }

    private String counts() {
        StringBuilder b = new StringBuilder();
        for (String queue : QUEUES) {
            b.append(queue)
                    .append(": ")
                    .append(ns.runtimeInfo(EntityPath.queue(queue)))
                    .append('\n');
        }
        return b.toString();
    }
}
