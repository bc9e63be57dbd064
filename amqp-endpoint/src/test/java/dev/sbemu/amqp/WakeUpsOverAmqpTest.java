package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Transfer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One wake-up per message (AMQP-11) over the wire: many receive links waiting on one queue, concurrent sends, links
 * that come and go; no message sits while a link waits for it, none is delivered twice.
 */
@Tag("scale") // many connections, threads or messages: run by the scale-tests execution (pom.xml)
class WakeUpsOverAmqpTest {
    private static final String KEY = "wake-ups-key";
    private static final int RECEIVERS = 12;
    private static final int SENDERS = 3;
    private static final int MESSAGES = 900;

    private final Namespace namespace = Namespace.create();
    private final ServiceBusEmulatorServer server;
    private final List<HostilePeer> peers = new ArrayList<>();

    WakeUpsOverAmqpTest() {
        namespace.createQueue("q");
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey(KEY)
                .idleTimeout(Duration.ofMinutes(10))
                .start();
    }

    @AfterEach
    void close() throws IOException {
        for (HostilePeer peer : peers) {
            peer.close();
        }
        server.close();
        namespace.close();
    }

    @Test
    @DisplayName("AMQP-11 12 waiting links on one queue, 3 threads sending 900 messages, a third of the links detached "
            + "and replaced as they go: every message is delivered once (peek-lock), none is left")
    void noMessageSitsWhileALinkWaits() throws Exception {
        for (int i = 0; i < RECEIVERS; i++) {
            HostilePeer peer = HostilePeer.opened(server.port());
            peers.add(peer);
            peer.begin(0);
            peer.putToken(KEY);
        }
        AtomicInteger delivered = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService threads = Executors.newFixedThreadPool(RECEIVERS + SENDERS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < RECEIVERS; i++) {
                HostilePeer peer = peers.get(i);
                boolean comesAndGoes = i % 3 == 0;
                running.add(threads.submit(() -> receive(peer, comesAndGoes, delivered, stop)));
            }
            for (int s = 0; s < SENDERS; s++) {
                int sender = s;
                running.add(threads.submit(() -> {
                    for (int n = 0; n < MESSAGES / SENDERS; n++) {
                        namespace.send("q", Message.ofText(sender + "-" + n));
                    }
                    return null;
                }));
            }
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> delivered.get() >= MESSAGES);
            stop.set(true);
            for (Future<?> f : running) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            threads.shutdownNow();
        }
        assertEquals(MESSAGES, delivered.get(), "each message delivered once");
        assertEquals(
                List.of(), namespace.receive(EntityPath.queue("q"), ReceiveMode.PEEK_LOCK, 1), "none left waiting");
        assertEquals(
                MESSAGES,
                namespace.runtimeInfo(EntityPath.queue("q")).totalMessageCount(),
                "all there, locked: none lost");
    }

    /**
     * One client: a peek-lock link that takes one message at a time (credit 1 after each); one that comes and goes
     * detaches its link after every 5 messages and attaches a new one.
     */
    private Void receive(HostilePeer peer, boolean comesAndGoes, AtomicInteger delivered, AtomicBoolean stop)
            throws IOException {
        int handle = 2;
        int received = 0;
        peer.attachReceiver(0, handle, "r-" + handle, "q");
        int h = handle;
        peer.expect(Attach.class, a -> a.getName().equals("r-" + h));
        peer.flow(0, handle, 1);
        while (!stop.get()) {
            try {
                peer.expect(Transfer.class, t -> true, Duration.ofMillis(500));
            } catch (AssertionError nothingYet) {
                continue;
            }
            delivered.incrementAndGet();
            received++;
            if (comesAndGoes && received % 5 == 0) {
                peer.detach(0, handle);
                handle++;
                received = 0;
                int next = handle;
                peer.attachReceiver(0, handle, "r-" + handle, "q");
                peer.expect(Attach.class, a -> a.getName().equals("r-" + next));
                peer.flow(0, handle, 1);
            } else {
                peer.flow(0, handle, received + 1);
            }
        }
        return null;
    }
}
