package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Transfer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Many clients (issue 24): connections each holding a sender and a waiting receiver cost the server no thread each;
 * a message sent still reaches its receiver.
 */
@Tag("scale") // many connections, threads or messages: run by the scale-tests execution (pom.xml)
class ManyReceiversTest {
    private static final String KEY = "many-receivers-key";
    /** More than the endpoint's 512 worker threads (AMQP-19): each waiting receiver used to hold one. */
    private static final int CLIENTS = 600;
    /** The server's threads beyond those running before it started, with every receiver waiting. */
    private static final int THREAD_BOUND = 64;

    private final Namespace namespace = Namespace.create();
    private final List<HostilePeer> peers = new ArrayList<>();
    private ServiceBusEmulatorServer server;

    @AfterEach
    void close() throws IOException {
        for (HostilePeer peer : peers) {
            peer.close();
        }
        if (server != null) {
            server.close();
        }
        namespace.close();
    }

    /** Live threads started since {@code before} that are not the test's own peer readers: the server's. */
    private static long serverThreadsSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && !t.getName().equals("hostile-peer-reader"))
                .count();
    }

    @Test
    @DisplayName("AMQP-11 600 connections, each with a sender and a waiting receiver: the server's threads stay "
            + "bounded (64) and each receiver gets the message sent for it")
    void manyWaitingReceivers() throws Exception {
        namespace.createQueue("orders");
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        // the peers send no heartbeats: the idle timeout must outlast the test
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey(KEY)
                .idleTimeout(Duration.ofMinutes(10))
                .start();
        HostilePeer[] opened = new HostilePeer[CLIENTS];
        UnsignedInteger[] handles = new UnsignedInteger[CLIENTS];
        ExecutorService connecting = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Void>> connects = new ArrayList<>();
            for (int n = 0; n < CLIENTS; n++) {
                int i = n;
                connects.add(() -> {
                    HostilePeer peer = HostilePeer.opened(server.port());
                    opened[i] = peer;
                    peer.begin(0);
                    peer.putToken(KEY);
                    peer.attachReceiver(0, 2, "receiver-" + i, "orders");
                    handles[i] = peer.expect(Attach.class, a -> a.getName().startsWith("receiver-"))
                            .getHandle();
                    peer.flow(0, 2, 1);
                    peer.attachSender(0, 3, "sender-" + i, "orders");
                    // the endpoint answered the sender's attach: it has seen the receiver's flow (frames in order)
                    peer.expect(Attach.class, a -> a.getName().startsWith("sender-"));
                    return null;
                });
            }
            for (Future<Void> connected : connecting.invokeAll(connects)) {
                connected.get(60, TimeUnit.SECONDS);
            }
        } finally {
            connecting.shutdownNow();
            assertTrue(connecting.awaitTermination(30, TimeUnit.SECONDS), "the connecting threads ended");
            for (HostilePeer peer : opened) {
                if (peer != null) {
                    peers.add(peer);
                }
            }
        }
        List<UnsignedInteger> receivers = List.of(handles);
        long waiting = serverThreadsSince(before);
        System.gc(); // a hint, for the figure printed only
        System.out.println("many clients: " + CLIENTS + " connections with a waiting receiver and a sender, "
                + waiting + " server threads; heap used after a gc (this JVM, clients included) "
                + ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024) + " MB");
        assertTrue(waiting <= THREAD_BOUND, () -> waiting + " server threads for " + CLIENTS + " waiting receivers");
        for (int i = 0; i < CLIENTS; i++) {
            namespace.send("orders", Message.ofText("m" + i));
        }
        for (int i = 0; i < CLIENTS; i++) {
            UnsignedInteger handle = receivers.get(i);
            peers.get(i).expect(Transfer.class, t -> t.getHandle().equals(handle));
        }
        long after = serverThreadsSince(before);
        System.out.println("many clients: every receiver got its message; " + after + " server threads");
        assertTrue(after <= THREAD_BOUND, () -> after + " server threads after " + CLIENTS + " deliveries");
    }

    @Test
    @DisplayName(
            "AMQP-11 AMQP-6 600 connections, each with a session receiver waiting to accept the next session, then "
                    + "waiting in its session for the next message: the server's threads stay bounded (64); one session per "
                    + "accept, and each receiver gets its session's messages")
    void manyWaitingSessionReceivers() throws Exception {
        namespace.createQueue(
                "sessions", QueueOptions.builder().requiresSession(true).build());
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey(KEY)
                .idleTimeout(Duration.ofMinutes(10))
                .start();
        HostilePeer[] opened = new HostilePeer[CLIENTS];
        ExecutorService connecting = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Void>> connects = new ArrayList<>();
            for (int n = 0; n < CLIENTS; n++) {
                int i = n;
                connects.add(() -> {
                    HostilePeer peer = HostilePeer.opened(server.port());
                    opened[i] = peer;
                    peer.begin(0);
                    peer.putToken(KEY);
                    peer.attachSender(0, 3, "sender-" + i, "sessions");
                    peer.expect(Attach.class, a -> a.getName().startsWith("sender-"));
                    // the accept waits (10 minutes at most) for a session: its attach is not answered yet
                    peer.attachSessionReceiver(0, 2, "receiver-" + i, "sessions", null, 600_000);
                    return null;
                });
            }
            for (Future<Void> connected : connecting.invokeAll(connects)) {
                connected.get(60, TimeUnit.SECONDS);
            }
        } finally {
            connecting.shutdownNow();
            assertTrue(connecting.awaitTermination(30, TimeUnit.SECONDS), "the connecting threads ended");
            for (HostilePeer peer : opened) {
                if (peer != null) {
                    peers.add(peer);
                }
            }
        }
        // every accept is registered (none holds a thread); a session message after that wakes one accept each
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> server.connectionCount() == CLIENTS);
        long accepting = serverThreadsSince(before);
        System.out.println("many clients: " + CLIENTS + " connections with a waiting session accept, " + accepting
                + " server threads");
        assertTrue(accepting <= THREAD_BOUND, () -> accepting + " server threads for " + CLIENTS + " waiting accepts");
        for (int i = 0; i < CLIENTS; i++) {
            namespace.send(
                    "sessions",
                    Message.builder()
                            .sessionId("s" + i)
                            .messageId("first-" + i)
                            .body("x")
                            .build());
        }
        String[] sessionOf = new String[CLIENTS];
        UnsignedInteger[] handles = new UnsignedInteger[CLIENTS];
        for (int i = 0; i < CLIENTS; i++) {
            Attach attached = peers.get(i).expect(Attach.class, a -> a.getName().startsWith("receiver-"));
            handles[i] = attached.getHandle();
            sessionOf[i] = String.valueOf(
                    ((Source) attached.getSource()).getFilter().get(Symbol.valueOf("com.microsoft:session-filter")));
            peers.get(i).flow(0, 2, 2);
        }
        assertTrue(Set.of(sessionOf).size() == CLIENTS, "each accept locked a session of its own");
        for (int i = 0; i < CLIENTS; i++) {
            UnsignedInteger handle = handles[i];
            peers.get(i).expect(Transfer.class, t -> t.getHandle().equals(handle));
        }
        // each link has a credit left: it waits in its session, without a thread
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> namespace.waitingReceivers(EntityPath.queue("sessions")) == CLIENTS);
        long waiting = serverThreadsSince(before);
        System.out.println("many clients: " + CLIENTS + " session receivers waiting in their session, " + waiting
                + " server threads");
        assertTrue(waiting <= THREAD_BOUND, () -> waiting + " server threads for " + CLIENTS + " waiting sessions");
        for (int i = 0; i < CLIENTS; i++) {
            namespace.send(
                    "sessions",
                    Message.builder()
                            .sessionId(sessionOf[i])
                            .messageId("second-" + i)
                            .body("y")
                            .build());
        }
        for (int i = 0; i < CLIENTS; i++) {
            UnsignedInteger handle = handles[i];
            Transfer second =
                    peers.get(i).expect(Transfer.class, t -> t.getHandle().equals(handle));
            assertTrue(second.getDeliveryId() != null, "a delivery");
        }
        long after = serverThreadsSince(before);
        assertTrue(after <= THREAD_BOUND, () -> after + " server threads after the session deliveries");
    }
}
