package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the endpoint does with wrong credentials, unknown entities, dead clients, many clients and garbage. */
class FaultsAndBadInputTest extends EndpointFixture {

    @Test
    @DisplayName("AMQP-9 a connection string with a wrong key is refused as UNAUTHORIZED")
    void wrongKey() {
        namespace.createQueue("orders");
        String wrong = server.getConnectionString().replaceAll("SharedAccessKey=[^;]+", "SharedAccessKey=wrong");
        try (ServiceBusSenderClient sender =
                clients(wrong).sender().queueName("orders").buildClient()) {
            ServiceBusException e =
                    assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("x")));
            assertEquals(ServiceBusFailureReason.UNAUTHORIZED, e.getReason());
            assertFalse(e.isTransient());
        }
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }

    @Test
    @DisplayName("AMQP-10 an unknown entity is MESSAGING_ENTITY_NOT_FOUND for senders and receivers")
    void unknownEntity() {
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("nope").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("nope").buildClient()) {
            ServiceBusException send =
                    assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("x")));
            assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_NOT_FOUND, send.getReason());
            // The SDK's synchronous receiver ends its stream with the link's error, unwrapped: the AMQP
            // exception with the not-found condition, as against the real service.
            RuntimeException receive = assertThrows(
                    RuntimeException.class,
                    () -> receiver.receiveMessages(1, Duration.ofSeconds(5)).stream()
                            .count());
            AmqpException cause = cause(receive, AmqpException.class);
            assertEquals(AmqpErrorCondition.NOT_FOUND, cause.getErrorCondition());
            assertFalse(cause.isTransient());
        }
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in the causes of " + e, e);
    }

    @Test
    @DisplayName(
            "AMQP-11 a client that dies holding locks: the locks expire on the virtual clock, the messages come back")
    void clientKilledMidReceive() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder first = clients();
        try (ServiceBusSenderClient sender = first.sender().queueName("orders").buildClient()) {
            for (int i = 0; i < 3; i++) {
                sender.sendMessage(new ServiceBusMessage("m" + i));
            }
        }
        ServiceBusReceiverClient doomed =
                clients().receiver().queueName("orders").buildClient();
        List<ServiceBusReceivedMessage> held = new ArrayList<>();
        while (held.size() < 3) {
            doomed.receiveMessages(3 - held.size(), Duration.ofSeconds(10)).forEach(held::add);
        }
        doomed.close();
        assertEquals(3, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        namespace.clock().advance(Duration.ofSeconds(61));
        try (ServiceBusReceiverClient survivor =
                clients().receiver().queueName("orders").buildClient()) {
            Set<String> bodies = ConcurrentHashMap.newKeySet();
            while (bodies.size() < 3) {
                for (ServiceBusReceivedMessage m : survivor.receiveMessages(3, Duration.ofSeconds(10))) {
                    assertEquals(1, m.getDeliveryCount());
                    bodies.add(m.getBody().toString());
                    survivor.complete(m);
                }
            }
            assertEquals(Set.of("m0", "m1", "m2"), bodies);
        }
    }

    @Test
    @DisplayName("AMQP-12 fifty clients on fifty connections at once")
    void fiftyConnections() throws Exception {
        namespace.createQueue("orders");
        int clients = 50;
        ExecutorService pool = Executors.newFixedThreadPool(10);
        List<ServiceBusSenderClient> senders = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                senders.add(clients().sender().queueName("orders").buildClient());
            }
            List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                ServiceBusSenderClient sender = senders.get(i);
                int n = i;
                sends.add(pool.submit(() -> sender.sendMessage(new ServiceBusMessage("m" + n))));
            }
            for (Future<?> f : sends) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(clients, server.connectionCount());
            assertEquals(
                    clients, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        } finally {
            senders.forEach(ServiceBusSenderClient::close);
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("AMQP-13 garbage bytes and a silent half-open socket are dropped; other clients are not harmed")
    void garbageAndHalfOpen() throws Exception {
        namespace.createQueue("orders");
        try (ServiceBusEmulatorServer strict = ServiceBusEmulatorServer.builder(namespace)
                        // the SDK's connection must authenticate within it, on a loaded machine too (at 2 s, a
                        // slow handshake had the SDK's own connection dropped); the silent socket waits it out
                        .handshakeTimeout(Duration.ofSeconds(10))
                        .start();
                ServiceBusSenderClient sender = clients(strict.getConnectionString())
                        .sender()
                        .queueName("orders")
                        .buildClient();
                Socket garbage = new Socket(InetAddress.getLoopbackAddress(), strict.port());
                Socket silent = new Socket(InetAddress.getLoopbackAddress(), strict.port())) {
            sender.sendMessage(new ServiceBusMessage("before"));
            OutputStream out = garbage.getOutputStream();
            // neither AMQP nor HTTP (an HTTP request is served on the port, HTTP-10)
            out.write("xyzzy / SPDY/9\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertClosedByServer(garbage);
            assertClosedByServer(silent);
            sender.sendMessage(new ServiceBusMessage("after"));
            assertEquals(2, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        }
    }

    private static void assertClosedByServer(Socket socket) throws IOException {
        socket.setSoTimeout(60_000); // a bound: the handshake timeout closes a silent socket after 10 s
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[256];
        // Whatever the server says first (a protocol header), it ends with end of stream.
        while (true) {
            int read;
            try {
                read = in.read(buffer);
            } catch (SocketException reset) {
                return;
            }
            if (read < 0) {
                return;
            }
        }
    }

    @Test
    @DisplayName("AMQP-14 a closed server refuses connections and leaves no thread behind")
    void closeLeavesNothing() {
        namespace.createQueue("orders");
        Set<Thread> before = endpointThreads();
        ServiceBusEmulatorServer second = ServiceBusEmulatorServer.start(namespace);
        try (ServiceBusReceiverClient receiver = clients(second.getConnectionString())
                .receiver()
                .queueName("orders")
                .buildClient()) {
            // the receive leaves a worker waiting in the broker for the link's credit while the server closes
            assertEquals(
                    0,
                    receiver.receiveMessages(1, Duration.ofMillis(200)).stream().count());
            int port = second.port();
            second.close();
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
            await().atMost(Duration.ofSeconds(30)).until(() -> before.containsAll(endpointThreads()));
        }
    }

    private static Set<Thread> endpointThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith("sbemu-amqp-")) {
                threads.add(t);
            }
        }
        return threads;
    }
}
