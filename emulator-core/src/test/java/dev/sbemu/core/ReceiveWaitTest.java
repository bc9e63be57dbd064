package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.msg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link Namespace#whenReceivable}: a receiver waits without a thread of its own (AMQP-11). */
class ReceiveWaitTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath q = EntityPath.queue("q");
    private final ExecutorService workers = Executors.newFixedThreadPool(4);

    ReceiveWaitTest() {
        ns.createQueue("q");
    }

    @AfterEach
    void close() {
        workers.shutdownNow();
        ns.close();
    }

    @Test
    @DisplayName("AMQP-11 the callback fires once on a send, not before; at once when a message is already there")
    void firesOnSend() {
        AtomicInteger fired = new AtomicInteger();
        ns.whenReceivable(q, fired::incrementAndGet);
        assertEquals(0, fired.get());
        ns.send("q", msg("a"));
        assertEquals(1, fired.get());
        ns.send("q", msg("b"));
        assertEquals(1, fired.get(), "one-shot");
        ns.whenReceivable(q, fired::incrementAndGet);
        assertEquals(2, fired.get(), "a message is ready already: fired at once");
    }

    @Test
    @DisplayName("AMQP-11 the callback fires when a clock advance activates a scheduled message, after the advance")
    void firesOnActivation() {
        ns.schedule("q", msg("later"), T0.plus(Duration.ofMinutes(5)));
        AtomicInteger fired = new AtomicInteger();
        ns.whenReceivable(q, fired::incrementAndGet);
        ns.clock().advance(Duration.ofMinutes(4));
        assertEquals(0, fired.get(), "nothing became ready");
        ns.clock().advance(Duration.ofMinutes(2));
        assertEquals(1, fired.get());
        assertEquals(
                "later",
                ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0).message().messageId());
    }

    @Test
    @DisplayName("AMQP-11 the callback fires when a lock expires or a message is abandoned, and on deletion and close")
    void firesOnUnlockDeleteClose() {
        ns.send("q", msg("a"));
        BrokeredMessage m = ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0);
        AtomicInteger fired = new AtomicInteger();
        ns.whenReceivable(q, fired::incrementAndGet);
        ns.abandon(q, m.lockToken());
        assertEquals(1, fired.get());
        BrokeredMessage again = ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0);
        ns.whenReceivable(q, fired::incrementAndGet);
        ns.clock().advance(Duration.ofMinutes(2)); // past the default lock duration
        assertEquals(2, fired.get(), "the lock of " + again.message().messageId() + " expired");
        ns.receive(q, ReceiveMode.RECEIVE_AND_DELETE, 1);
        ns.whenReceivable(q, fired::incrementAndGet);
        ns.deleteQueue("q");
        assertEquals(3, fired.get(), "deleted");
        ns.createQueue("q");
        ns.whenReceivable(q, fired::incrementAndGet);
        ns.close();
        assertEquals(4, fired.get(), "closed");
    }

    @Test
    @DisplayName("AMQP-11 the callback fires when the queue is disabled; the receive then tells why")
    void firesOnDisable() {
        AtomicInteger fired = new AtomicInteger();
        ns.whenReceivable(q, fired::incrementAndGet);
        ns.updateQueue("q", QueueOptions.builder().status(EntityStatus.DISABLED).build());
        assertEquals(1, fired.get());
        assertThrows(BrokerException.EntityDisabled.class, () -> ns.receive(q, ReceiveMode.PEEK_LOCK, 1));
    }

    @Test
    @DisplayName("AMQP-11 a cancelled registration never fires; a registration on a missing entity fails as a receive")
    void cancel() {
        AtomicInteger fired = new AtomicInteger();
        Namespace.ReceiveWait wait = ns.whenReceivable(q, fired::incrementAndGet);
        assertTrue(wait.cancel());
        assertFalse(wait.cancel());
        ns.send("q", msg("a"));
        assertEquals(0, fired.get());
        assertThrows(
                BrokerException.EntityNotFound.class,
                () -> ns.whenReceivable(EntityPath.queue("missing"), fired::incrementAndGet));
    }

    @Test
    @DisplayName("ADI-5 a registered wait keeps its queue in use; the idle time counts from its end")
    void keepsInUse() {
        ns.createQueue(
                "idle",
                QueueOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(5)).build());
        Namespace.ReceiveWait wait = ns.whenReceivable(EntityPath.queue("idle"), () -> {});
        ns.clock().advance(Duration.ofMinutes(10));
        assertTrue(ns.queueExists("idle"), "in use while a receiver waits");
        assertEquals(1, ns.waitingReceivers(EntityPath.queue("idle")));
        wait.cancel();
        assertEquals(0, ns.waitingReceivers(EntityPath.queue("idle")));
        ns.clock().advance(Duration.ofMinutes(5).minusMillis(1));
        assertTrue(ns.queueExists("idle"));
        ns.clock().advance(Duration.ofMillis(1));
        assertFalse(ns.queueExists("idle"));
    }

    @Test
    @DisplayName("AMQP-11 no lost wake-up: try, register when nothing came, while other threads send")
    void noLostWakeUp() throws Exception {
        int receivers = 200;
        CountDownLatch got = new CountDownLatch(receivers);
        for (int i = 0; i < receivers; i++) {
            new TryThenWait(got).start();
        }
        Thread[] senders = new Thread[4];
        for (int s = 0; s < senders.length; s++) {
            senders[s] = new Thread(() -> {
                for (int i = 0; i < receivers / senders.length; i++) {
                    ns.send("q", msg("m" + i));
                }
            });
            senders[s].start();
        }
        assertTrue(got.await(120, TimeUnit.SECONDS), "every receiver got its message: " + got.getCount() + " left");
        assertEquals(0, ns.receive(q, ReceiveMode.PEEK_LOCK, 1).size());
    }

    @Test
    @DisplayName("LIM-3 a blocked receive ends at once with MESSAGING_ENTITY_DISABLED when its queue is disabled, and "
            + "with MESSAGING_ENTITY_NOT_FOUND when its topic is deleted")
    void blockedReceiveEndsOnDisableAndDelete() throws Exception {
        Future<?> onQueue = workers.submit(() -> ns.receive(q, ReceiveMode.PEEK_LOCK, 1, Duration.ofMinutes(5)));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> ns.waitingReceivers(q) == 1);
        ns.updateQueue(
                "q",
                QueueOptions.builder().status(EntityStatus.RECEIVE_DISABLED).build());
        ExecutionException disabled = assertThrows(ExecutionException.class, () -> onQueue.get(60, TimeUnit.SECONDS));
        assertTrue(
                disabled.getCause() instanceof BrokerException.EntityDisabled,
                disabled.getCause().toString());
        assertEquals(ErrorReason.ENTITY_DISABLED, ((BrokerException) disabled.getCause()).reason());

        ns.createTopic("t");
        ns.createSubscription("t", "s");
        EntityPath s = EntityPath.subscription("t", "s");
        Future<?> onSubscription = workers.submit(() -> ns.receive(s, ReceiveMode.PEEK_LOCK, 1, Duration.ofMinutes(5)));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> ns.waitingReceivers(s) == 1);
        ns.deleteTopic("t");
        ExecutionException gone =
                assertThrows(ExecutionException.class, () -> onSubscription.get(60, TimeUnit.SECONDS));
        assertTrue(
                gone.getCause() instanceof BrokerException.EntityNotFound,
                gone.getCause().toString());
    }

    @Test
    @DisplayName("AMQP-11 one send wakes one of N waiting receivers, the oldest; the next send the next one")
    void oneSendOneWakeUp() {
        int n = 50;
        int[] firedBy = new int[n];
        AtomicInteger fired = new AtomicInteger();
        for (int i = 0; i < n; i++) {
            int index = i;
            ns.whenReceivable(q, () -> {
                fired.incrementAndGet();
                firedBy[index]++;
            });
        }
        assertEquals(n, ns.waitingReceivers(q));
        ns.send("q", msg("a"));
        assertEquals(1, fired.get(), "one message, one wake-up");
        assertEquals(1, firedBy[0], "the oldest waiter");
        ns.send("q", msg("b"));
        assertEquals(2, fired.get());
        assertEquals(1, firedBy[1]);
        ns.send("q", List.of(msg("c"), msg("d"), msg("e")));
        assertEquals(5, fired.get(), "three messages, three wake-ups");
        assertEquals(n - 5, ns.waitingReceivers(q));
        ns.updateQueue("q", QueueOptions.builder().build());
        assertEquals(n, fired.get(), "an update wakes every waiter, to look");
    }

    @Test
    @DisplayName("AMQP-11 a woken waiter that will not receive passes the wake-up on (cancel after its callback ran)")
    void passOn() {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        Namespace.ReceiveWait wait = ns.whenReceivable(q, first::incrementAndGet);
        ns.whenReceivable(q, second::incrementAndGet);
        ns.send("q", msg("a"));
        assertEquals(1, first.get());
        assertEquals(0, second.get());
        assertFalse(wait.cancel(), "it had fired");
        assertEquals(1, second.get(), "the message is still there: the next waiter is woken");
        assertFalse(wait.cancel());
        assertEquals(1, second.get(), "passed on once");
        ns.whenReceivable(q, first::incrementAndGet);
        Namespace.ReceiveWait third = ns.whenReceivable(q, first::incrementAndGet);
        assertEquals(3, first.get(), "the message is still ready: a new registration fires at once");
        ns.receive(q, ReceiveMode.RECEIVE_AND_DELETE, 1);
        ns.whenReceivable(q, second::incrementAndGet);
        third.cancel();
        assertEquals(1, second.get(), "nothing ready: nothing passed on");
    }

    @Test
    @DisplayName("AMQP-11 no lost message with one wake-up per send: receivers that go away when woken, a competing "
            + "receiver, concurrent sends")
    void noLostMessageUnderChurn() throws Exception {
        int messages = 2_000;
        AtomicInteger received = new AtomicInteger();
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        for (int r = 0; r < 30; r++) {
            new Churner(r % 3 == 0, received, seen, stop).start();
        }
        Thread[] senders = new Thread[3];
        for (int s = 0; s < senders.length; s++) {
            int sender = s;
            senders[s] = new Thread(() -> {
                for (int i = 0; i < messages / senders.length; i++) {
                    ns.send("q", msg(sender + "-" + i));
                }
            });
            senders[s].start();
        }
        // a competing receiver that never waits, taking some messages out from under the woken ones while the sends
        // go on (after them, only the waiting receivers are left: a lost wake-up would leave a message sitting)
        Thread grabber = new Thread(() -> {
            while (!stop.get() && Arrays.stream(senders).anyMatch(Thread::isAlive)) {
                ns.receive(q, ReceiveMode.RECEIVE_AND_DELETE, 1).forEach(m -> {
                    seen.add(m.message().messageId());
                    received.incrementAndGet();
                });
                Thread.yield();
            }
        });
        grabber.start();
        int total = (messages / senders.length) * senders.length;
        try {
            Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> received.get() == total);
        } finally {
            stop.set(true);
        }
        grabber.join();
        assertEquals(total, new HashSet<>(seen).size(), "each message once");
        assertEquals(0, ns.receive(q, ReceiveMode.PEEK_LOCK, 1).size());
    }

    /**
     * A receiver as a server runs one, whose link may go away: after its wake-up it either receives (and registers
     * again if it got nothing), or, when {@code flaky} and by chance, goes away for good, giving the wake-up up.
     */
    private final class Churner {
        private final boolean flaky;
        private final AtomicInteger received;
        private final Queue<String> seen;
        private final AtomicBoolean stop;
        private volatile Namespace.ReceiveWait wait;

        Churner(boolean flaky, AtomicInteger received, Queue<String> seen, AtomicBoolean stop) {
            this.flaky = flaky;
            this.received = received;
            this.seen = seen;
            this.stop = stop;
        }

        void start() {
            workers.execute(this::attempt);
        }

        private void woken() {
            workers.execute(() -> {
                if (flaky && ThreadLocalRandom.current().nextInt(3) == 0) {
                    Namespace.ReceiveWait fired;
                    synchronized (this) {
                        fired = wait;
                    }
                    fired.cancel(); // goes away for good without receiving: passes the wake-up on
                    return;
                }
                attempt();
            });
        }

        private void attempt() {
            if (stop.get()) {
                return;
            }
            List<BrokeredMessage> got = ns.receive(q, ReceiveMode.RECEIVE_AND_DELETE, 2);
            if (!got.isEmpty()) {
                got.forEach(m -> seen.add(m.message().messageId()));
                received.addAndGet(got.size());
                workers.execute(this::attempt);
            } else {
                synchronized (this) {
                    wait = ns.whenReceivable(q, this::woken);
                }
            }
        }
    }

    /** A receiver as a server runs one: a zero-wait receive, and a registration when it got nothing. */
    private final class TryThenWait {
        private final CountDownLatch got;

        TryThenWait(CountDownLatch got) {
            this.got = got;
        }

        void start() {
            // the wake-up hands on to a thread, as a server's loop would
            workers.execute(this::attempt);
        }

        private void attempt() {
            if (!ns.receive(q, ReceiveMode.RECEIVE_AND_DELETE, 1).isEmpty()) {
                got.countDown();
            } else {
                ns.whenReceivable(q, this::start);
            }
        }
    }
}
