package dev.sbemu.core.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The namespace's blocking calls and interrupts. */
class BlockingCallsTest {

    @Test
    @DisplayName("a waiting receive that is signalled and then interrupted before it wakes takes nothing")
    void interruptedAfterSignalTakesNothing() throws Exception {
        try (Namespace namespace = Namespace.create()) {
            namespace.createQueue("q");
            EntityPath queue = EntityPath.queue("q");
            AtomicReference<List<BrokeredMessage>> got = new AtomicReference<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread receiver = new Thread(() -> {
                got.set(namespace.receive(queue, ReceiveMode.RECEIVE_AND_DELETE, 1, Duration.ofMinutes(1)));
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
            receiver.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.getState() == Thread.State.TIMED_WAITING);

            // Under the namespace's lock the receiver cannot wake: it is signalled first, then interrupted, so the
            // condition's await returns normally with the interrupt flag set.
            ReentrantLock lock = lockOf(namespace);
            lock.lock();
            try {
                namespace.send("q", Message.ofText("m"));
                receiver.interrupt();
            } finally {
                lock.unlock();
            }
            receiver.join(Duration.ofSeconds(30).toMillis());

            assertFalse(receiver.isAlive());
            assertEquals(List.of(), got.get());
            assertTrue(stillInterrupted.get(), "the interrupt is kept for the caller");
            assertEquals(1, namespace.peek(queue, 0, 10).size(), "the message stays for the next receiver");
        }
    }

    private static ReentrantLock lockOf(Namespace namespace) throws ReflectiveOperationException {
        Field broker = Namespace.class.getDeclaredField("broker");
        broker.setAccessible(true);
        Field services = Broker.class.getDeclaredField("services");
        services.setAccessible(true);
        return ((Services) services.get(broker.get(namespace))).lock;
    }
}
