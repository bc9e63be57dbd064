package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.msg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link Namespace#whenReceivable}: a receiver waits without a thread of its own (AMQP-11). */
class ReceiveWaitTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath q = EntityPath.queue("q");
    private final java.util.concurrent.ExecutorService workers = java.util.concurrent.Executors.newFixedThreadPool(4);

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
        assertEquals("later", ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0).message().messageId());
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
        ns.clock().advance(Duration.ofMinutes(2));  // past the default lock duration
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
        assertThrows(BrokerException.EntityNotFound.class,
                () -> ns.whenReceivable(EntityPath.queue("missing"), fired::incrementAndGet));
    }

    @Test
    @DisplayName("ADI-5 a registered wait keeps its queue in use; the idle time counts from its end")
    void keepsInUse() {
        ns.createQueue("idle", QueueOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(5)).build());
        Namespace.ReceiveWait wait = ns.whenReceivable(EntityPath.queue("idle"), () -> { });
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
        assertTrue(got.await(30, TimeUnit.SECONDS), "every receiver got its message: " + got.getCount() + " left");
        assertEquals(0, ns.receive(q, ReceiveMode.PEEK_LOCK, 1).size());
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
