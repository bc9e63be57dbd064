package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults.Operation;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.amqp.messaging.Data;
import org.apache.qpid.proton.amqp.messaging.Properties;
import org.apache.qpid.proton.amqp.messaging.Rejected;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Begin;
import org.apache.qpid.proton.amqp.transport.Close;
import org.apache.qpid.proton.amqp.transport.Detach;
import org.apache.qpid.proton.amqp.transport.Disposition;
import org.apache.qpid.proton.amqp.transport.End;
import org.apache.qpid.proton.amqp.transport.Flow;
import org.apache.qpid.proton.amqp.transport.Open;
import org.apache.qpid.proton.amqp.transport.Transfer;
import org.apache.qpid.proton.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The endpoint against a client that breaks the rules, played frame by frame by {@link HostilePeer}: one such client
 * must not take the endpoint down for the others (issue 22, items 12 and 14).
 */
class HostileClientTest {
    private static final String KEY = "hostile-test-key";

    private final Namespace namespace = Namespace.create();
    private final List<ServiceBusEmulatorServer> servers = new ArrayList<>();
    private final List<HostilePeer> peers = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (HostilePeer peer : peers) {
            peer.close();
        }
        servers.forEach(ServiceBusEmulatorServer::close);
        namespace.close();
    }

    private ServiceBusEmulatorServer start(ServiceBusEmulatorServer.Builder builder) {
        ServiceBusEmulatorServer server = builder.sharedAccessKey(KEY).start();
        servers.add(server);
        return server;
    }

    private ServiceBusEmulatorServer start() {
        return start(ServiceBusEmulatorServer.builder(namespace));
    }

    private HostilePeer opened(ServiceBusEmulatorServer server) throws IOException {
        HostilePeer peer = HostilePeer.opened(server.port());
        peers.add(peer);
        return peer;
    }

    /** An SDK client sends and receives one message: the endpoint still serves. */
    private static void stillServes(ServiceBusEmulatorServer server, String queue) {
        String cs = server.getConnectionString();
        try (ServiceBusSenderClient sender =
                        EndpointFixture.clients(cs).sender().queueName(queue).buildClient();
                ServiceBusReceiverClient receiver =
                        EndpointFixture.clients(cs).receiver().queueName(queue).buildClient()) {
            sender.sendMessage(new ServiceBusMessage("still served"));
            assertEquals(
                    "still served",
                    receiver.receiveMessages(1, Duration.ofSeconds(10)).stream()
                            .findFirst()
                            .orElseThrow()
                            .getBody()
                            .toString());
        }
    }

    @Test
    @DisplayName("AMQP-13 an unauthenticated delivery on $cbs that never ends is cut off at the request limit with "
            + "amqp:link:message-size-exceeded, long before 16 MB; the endpoint goes on serving")
    void unendingDeliveryBeforeAuthentication() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.attachSender(0, 0, "flood", "$cbs");
        peer.expect(Attach.class, a -> true);
        byte[] chunk = new byte[32 * 1024]; // within the endpoint's 64 KB frames
        boolean first = true;
        boolean cut = false;
        int frames = 0;
        while (peer.bytesWritten() < 64L * 1024 * 1024) {
            boolean written = peer.transfer(0, 0, first ? 0 : null, chunk, true, false, Duration.ofSeconds(2));
            first = false;
            if (!written) {
                break;
            }
            // looked at every 1 MB only, so the frames go out as fast as the socket takes them
            // (EndpointHardeningFigures
            // measures the heap the flood costs: a test cannot make the endpoint's reads lag reliably)
            if (++frames % 32 == 0) {
                cut = peer.snapshot().stream()
                        .anyMatch(f -> HostilePeer.hasError(f, "amqp:link:message-size-exceeded"));
                if (cut) {
                    break;
                }
            }
        }
        peer.expectError(Detach.class, "amqp:link:message-size-exceeded");
        assertTrue(peer.bytesWritten() < 16L * 1024 * 1024, "cut off after " + peer.bytesWritten() + " bytes");
        // the client ignores the detach and goes on: what it sends is dropped unread
        for (int i = 0; i < 64; i++) {
            if (!peer.transfer(0, 0, null, chunk, true, false, Duration.ofSeconds(2))) {
                break;
            }
        }
        stillServes(server, "orders");
    }

    @Test
    @DisplayName("AMQP-13 a client that hangs up before its first byte is let go at once, not held until the handshake "
            + "timeout")
    void hangsUpBeforeAByte() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).handshakeTimeout(Duration.ofMinutes(1)));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> server.connectionCount() == 1);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> server.connectionCount() == 0);
    }

    @Test
    @DisplayName("AMQP-13 before a token was accepted, $cbs gives little credit, and a delivery beyond it detaches "
            + "the link with amqp:link:transfer-limit-exceeded")
    void littleCreditBeforeAuthentication() throws IOException {
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.attachSender(0, 0, "flood", "$cbs");
        peer.expect(Attach.class, a -> true);
        Flow flow = peer.expect(Flow.class, f -> f.getHandle() != null && f.getLinkCredit() != null);
        long credit = flow.getLinkCredit().longValue();
        assertTrue(credit > 0 && credit <= 10, "credit before authentication: " + credit);
        for (int i = 0; i <= credit; i++) {
            peer.transfer(0, 0, i, new byte[] {0x00, 0x53, 0x77, 0x40}, false, false, HostilePeer.WAIT);
        }
        peer.expectError(Detach.class, "amqp:link:transfer-limit-exceeded");
    }

    @Test
    @DisplayName("AMQP-13 a connection that has put no valid token on $cbs within the handshake timeout is closed "
            + "with amqp:unauthorized-access")
    void noTokenInTime() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).handshakeTimeout(Duration.ofMillis(300)));
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.expectError(Close.class, "amqp:unauthorized-access");
        peer.expectEndOfStream(HostilePeer.WAIT);
    }

    @Test
    @DisplayName("AMQP-13 a frame that makes the decoder overflow its stack (an Error, not an exception) drops that "
            + "connection only: the loop goes on serving the others")
    void errorInOneConnection() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        // a described type whose descriptor is a described type whose descriptor is ...: one byte per level
        byte[] nested = new byte[200_000];
        int size = 8 + nested.length;
        ByteBuffer frame = ByteBuffer.allocate(size)
                .putInt(size)
                .put((byte) 2)
                .put((byte) 0)
                .putShort((short) 0)
                .put(nested);
        peer.raw(frame.array());
        peer.expectEndOfStream(HostilePeer.WAIT);
        stillServes(server, "orders");
    }

    @Test
    @DisplayName("AMQP-13 malformed input is logged once per connection, briefly (no WARNING with a stack trace per "
            + "frame); malformed $cbs requests are rejected with amqp:decode-error and the link goes on")
    void malformedInputLoggedOnce() throws IOException {
        ServiceBusEmulatorServer server = start();
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                    synchronized (records) {
                        records.add(record);
                    }
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger logger = Logger.getLogger("dev.sbemu.amqp");
        logger.addHandler(handler);
        try {
            HostilePeer peer = opened(server);
            peer.begin(0);
            peer.attachSender(0, 0, "garbage", "$cbs");
            peer.expect(Attach.class, a -> true);
            for (int i = 0; i < 5; i++) {
                peer.transfer(0, 0, i, new byte[] {(byte) 0xff, 0x13, 0x37}, false, false, HostilePeer.WAIT);
            }
            for (int i = 0; i < 5; i++) {
                Disposition d = peer.expect(Disposition.class, x -> true);
                Rejected rejected = (Rejected) d.getState();
                assertEquals(
                        "amqp:decode-error", rejected.getError().getCondition().toString());
            }
            // then garbage frames: the connection is closed, with one brief line
            for (int i = 0; i < 3; i++) {
                peer.raw(new byte[] {0, 0, 0, 12, 2, 0, 0, 0, 0x40, 0x40, 0x40, 0x40});
            }
            peer.expectEndOfStream(HostilePeer.WAIT);
            await().atMost(HostilePeer.WAIT).until(() -> {
                synchronized (records) {
                    return !records.isEmpty();
                }
            });
            synchronized (records) {
                assertEquals(1, records.size(), "log records: " + records.size());
                for (LogRecord r : records) {
                    assertTrue(
                            r.getThrown() == null && r.getLevel().intValue() < Level.WARNING.intValue(),
                            r.getLevel() + " " + r.getMessage());
                }
            }
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    @DisplayName("AMQP-19 an aborted delivery is dropped and the link goes on: the next request on it is answered")
    void abortedDelivery() throws IOException {
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.attachReceiver(0, 1, "cbs-replies", "$cbs");
        Attach replies = peer.expect(Attach.class, a -> a.getName().equals("cbs-replies"));
        peer.attachSender(0, 0, "cbs-requests", "$cbs");
        peer.expect(Attach.class, a -> a.getName().equals("cbs-requests"));
        peer.transfer(0, 0, 0, new byte[1000], true, false, HostilePeer.WAIT);
        peer.transfer(0, 0, null, null, false, true, HostilePeer.WAIT);
        peer.flow(0, 1, 10);
        Message request = Proton.message();
        Properties properties = new Properties();
        properties.setMessageId("after-abort");
        properties.setReplyTo("cbs-replies");
        request.setProperties(properties);
        request.setApplicationProperties(new ApplicationProperties(Map.of("operation", "put-token")));
        request.setBody(new AmqpValue("not a token"));
        peer.transfer(0, 0, 1, HostilePeer.encode(request), false, false, HostilePeer.WAIT);
        peer.expect(Transfer.class, t -> t.getHandle().equals(replies.getHandle()));
    }

    @Test
    @DisplayName("AMQP-19 links beyond the link maximum are refused with amqp:resource-limit-exceeded; a client's "
            + "detach is answered with a detach and frees the link")
    void linksBeyondTheLimit() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).linkMax(2));
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.attachSender(0, 0, "a", "$cbs");
        Attach a = peer.expect(Attach.class, x -> x.getName().equals("a"));
        peer.attachReceiver(0, 1, "b", "$cbs"); // one $cbs link each way (AMQP-23)
        peer.expect(Attach.class, x -> x.getName().equals("b"));
        peer.attachSender(0, 2, "c", "$cbs");
        peer.expectError(Detach.class, "amqp:resource-limit-exceeded");
        peer.detach(0, 2);
        peer.detach(0, 0);
        peer.expect(Detach.class, d -> d.getHandle().equals(a.getHandle()) && d.getError() == null);
        peer.attachSender(0, 0, "d", "$cbs");
        Attach attach = peer.expect(Attach.class, x -> x.getName().equals("d"));
        assertNotNull(
                attach.getTarget(), "attached, not refused: a $cbs link closed by the client can be opened again");
    }

    @Test
    @DisplayName("AMQP-19 sessions beyond channel-max are ended with amqp:resource-limit-exceeded")
    void sessionsBeyondTheLimit() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).channelMax(1));
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.begin(1);
        peer.begin(2);
        peer.expectError(End.class, "amqp:resource-limit-exceeded");
    }

    @Test
    @DisplayName("AMQP-19 connections beyond the maximum are closed with amqp:resource-limit-exceeded")
    void connectionsBeyondTheLimit() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).maxConnections(1));
        opened(server);
        HostilePeer second = opened(server);
        second.expectError(Close.class, "amqp:resource-limit-exceeded");
    }

    @Test
    @DisplayName("AMQP-19 the open announces the idle timeout and channel max; a client silent past the idle timeout "
            + "is closed with amqp:connection:forced, as the service closes an inactive connection")
    void idleTimeout() throws IOException {
        ServiceBusEmulatorServer server = start(ServiceBusEmulatorServer.builder(namespace)
                .idleTimeout(Duration.ofMillis(400))
                .channelMax(7));
        HostilePeer peer = HostilePeer.connect(server.port());
        peers.add(peer);
        peer.header();
        Open open = new Open();
        open.setContainerId("silent");
        peer.frame(0, open, null);
        Open answer = peer.expect(Open.class, o -> true);
        // proton-j announces half its idle timeout, so that the client's heartbeats come well before it
        assertEquals(200, answer.getIdleTimeOut().longValue());
        assertEquals(7, answer.getChannelMax().intValue());
        peer.expectError(Close.class, "amqp:connection:forced");
        peer.expectEndOfStream(HostilePeer.WAIT);
    }

    @Test
    @DisplayName("AMQP-11 waiting receivers hold no worker thread: two wait on an endpoint of one worker, each gets "
            + "its message")
    void waitingReceiversHoldNoWorker() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).workerThreads(1));
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.putToken(KEY);
        // before AMQP-11's thread-less wait, each needed a worker waiting in the broker: the second was refused
        peer.attachReceiver(0, 2, "r1", "orders");
        UnsignedInteger r1 =
                peer.expect(Attach.class, a -> a.getName().equals("r1")).getHandle();
        peer.flow(0, 2, 1);
        peer.attachReceiver(0, 3, "r2", "orders");
        UnsignedInteger r2 =
                peer.expect(Attach.class, a -> a.getName().equals("r2")).getHandle();
        peer.flow(0, 3, 1);
        namespace.send("orders", dev.sbemu.core.Message.ofText("one"));
        namespace.send("orders", dev.sbemu.core.Message.ofText("two"));
        UnsignedInteger first = peer.expect(
                        Transfer.class,
                        t -> t.getHandle().equals(r1) || t.getHandle().equals(r2))
                .getHandle();
        UnsignedInteger second = first.equals(r1) ? r2 : r1;
        peer.expect(Transfer.class, t -> t.getHandle().equals(second));
    }

    @Test
    @DisplayName("AMQP-14 closing the endpoint says goodbye on the wire: each link detached and the connection "
            + "closed with an error")
    void goodbyeOnClose() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.putToken(KEY);
        peer.attachReceiver(0, 2, "r1", "orders");
        Attach r1 = peer.expect(Attach.class, a -> a.getName().equals("r1"));
        server.close();
        Detach detach = peer.expect(Detach.class, d -> d.getHandle().equals(r1.getHandle()));
        assertNotNull(detach.getError());
        Close close = peer.expect(Close.class, c -> true);
        assertNotNull(close.getError());
        assertEquals(detach.getError().getCondition(), close.getError().getCondition());
        peer.expectEndOfStream(HostilePeer.WAIT);
    }

    @Test
    @DisplayName("AMQP-13 a frame larger than the endpoint's max-frame-size closes that connection with "
            + "amqp:connection:framing-error; the endpoint goes on serving")
    void oversizedFrame() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.frameHeader(64 * 1024 * 1024);
        peer.expectError(Close.class, "amqp:connection:framing-error");
        peer.expectEndOfStream(HostilePeer.WAIT);
        stillServes(server, "orders");
    }

    @Test
    @DisplayName("AMQP-19 the begin announces the configured session window")
    void sessionWindow() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).sessionWindow(16));
        HostilePeer peer = opened(server);
        Begin begin = new Begin();
        begin.setNextOutgoingId(UnsignedInteger.ZERO);
        begin.setIncomingWindow(UnsignedInteger.valueOf(100));
        begin.setOutgoingWindow(UnsignedInteger.valueOf(100));
        peer.frame(0, begin, null);
        assertEquals(16, peer.expect(Begin.class, b -> true).getIncomingWindow().intValue());
    }

    @Test
    @DisplayName("AMQP-19 backpressure: a link whose sends are held (a scripted delay) gets no new credit until they "
            + "are done")
    void noCreditWhileCallsAreHeld() throws IOException {
        namespace.createQueue("held");
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).linkCredit(4));
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.putToken(KEY);
        namespace.faults().on("held").delayNext(1, Operation.SEND, Duration.ofSeconds(30));
        peer.attachSender(0, 2, "held-sender", "held");
        Attach attach = peer.expect(Attach.class, a -> a.getName().equals("held-sender"));
        peer.expect(
                Flow.class,
                f -> attach.getHandle().equals(f.getHandle())
                        && f.getLinkCredit().intValue() == 4);
        int before = peer.snapshot().size();
        for (int i = 0; i < 4; i++) {
            Message m = Proton.message();
            m.setBody(new AmqpValue("m" + i));
            peer.transfer(0, 2, peer.nextDeliveryId++, HostilePeer.encode(m), false, false, HostilePeer.WAIT);
        }
        // a $cbs request answered after the four transfers: the endpoint has handled them by then
        peer.cbsRequest(KEY);
        List<Object> frames = peer.snapshot();
        for (Object f : frames.subList(before, frames.size())) {
            assertTrue(
                    !(f instanceof Flow flow
                            && attach.getHandle().equals(flow.getHandle())
                            && flow.getLinkCredit().intValue() > 0),
                    "credit granted while the sends were held: " + f);
        }
        // the held send sets its timer on a worker: advancing before it did would leave it waiting 30 s past the
        // advance, so wait for the journal's word that the delay's timer is set
        await().atMost(HostilePeer.WAIT)
                .until(() -> namespace.journal().events().stream()
                        .anyMatch(e -> e.type() == JournalEvent.Type.FAULT_INJECTED
                                && e.detail().contains("delayed by")));
        namespace.clock().advance(Duration.ofSeconds(30));
        peer.expect(
                Flow.class,
                f -> attach.getHandle().equals(f.getHandle())
                        && f.getLinkCredit().intValue() > 0);
        assertEquals(4, namespace.runtimeInfo(EntityPath.queue("held")).activeMessageCount());
    }

    @Test
    @DisplayName("AMQP-19 backpressure: while a client does not read its socket the endpoint stops taking messages "
            + "for it; once it reads, the rest come")
    void noDeliveriesWhileTheSocketIsBackedUp() throws IOException {
        namespace.createQueue("big");
        String body = "x".repeat(200 * 1024);
        for (int i = 0; i < 200; i++) {
            namespace.send("big", dev.sbemu.core.Message.ofText(body));
        }
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.putToken(KEY);
        peer.attachReceiver(0, 2, "big-receiver", "big", true);
        peer.expect(Attach.class, a -> a.getName().equals("big-receiver"));
        peer.pauseReading(true);
        peer.flow(0, 2, 1_000);
        EntityPath big = EntityPath.queue("big");
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(10))
                .until(() -> namespace.runtimeInfo(big).activeMessageCount() >= 50);
        peer.pauseReading(false);
        await().atMost(Duration.ofSeconds(30)).until(() -> peer.count(Transfer.class) >= 200 + 1);
        assertEquals(0, namespace.runtimeInfo(big).activeMessageCount());
    }

    @Test
    @DisplayName("AMQP-13 a delivery to a queue larger than twice the tier's limit (256 KB on Standard) is cut off"
            + " with amqp:link:message-size-exceeded")
    void entityDeliveryCutAtTheTierLimit() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.putToken(KEY);
        peer.attachSender(0, 2, "big-sender", "orders");
        Attach attach = peer.expect(Attach.class, a -> a.getName().equals("big-sender"));
        assertEquals(256 * 1024, attach.getMaxMessageSize().longValue());
        byte[] chunk = new byte[32 * 1024]; // within the endpoint's 64 KB frames
        peer.transfer(0, 2, peer.nextDeliveryId++, chunk, true, false, HostilePeer.WAIT);
        for (int i = 0; i < 16; i++) {
            peer.transfer(0, 2, null, chunk, true, false, HostilePeer.WAIT);
        }
        peer.expectError(Detach.class, "amqp:link:message-size-exceeded");
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }

    @Test
    @DisplayName("AMQP-19 a client that goes on attaching past twice the link maximum, never detaching the refused "
            + "links, is closed with amqp:resource-limit-exceeded")
    void attachFlood() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).linkMax(2));
        HostilePeer peer = opened(server);
        peer.begin(0);
        for (int i = 0; i < 5; i++) {
            peer.attachSender(0, i, "flood-" + i, "$cbs");
        }
        peer.expectError(Close.class, "amqp:resource-limit-exceeded");
        peer.expectEndOfStream(HostilePeer.WAIT);
    }

    @Test
    @DisplayName("AMQP-13 a transfer on a handle never attached (an exception inside proton-j's engine) closes that "
            + "connection with amqp:connection:framing-error; the endpoint goes on serving")
    void transferOnUnknownHandle() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.transfer(0, 9, 0, new byte[] {1, 2, 3}, false, false, HostilePeer.WAIT);
        peer.expectError(Close.class, "amqp:connection:framing-error");
        peer.expectEndOfStream(HostilePeer.WAIT);
        stillServes(server, "orders");
    }

    @Test
    @DisplayName("AMQP-19 a client that sends past its session's incoming window has the session ended with "
            + "amqp:session:window-violation")
    void sessionWindowViolated() throws IOException {
        namespace.createQueue("a");
        namespace.createQueue("b");
        ServiceBusEmulatorServer server = start(
                ServiceBusEmulatorServer.builder(namespace).sessionWindow(1).maxFrameSize(256 * 1024));
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.putToken(KEY);
        peer.attachSender(0, 2, "to-a", "a");
        peer.expect(Attach.class, x -> x.getName().equals("to-a"));
        peer.attachSender(0, 3, "to-b", "b");
        peer.expect(Attach.class, x -> x.getName().equals("to-b"));
        byte[] chunk = new byte[100 * 1024];
        // two partial deliveries of 200 KB each: within each link's 256 KB, past the session's one 256 KB frame
        peer.transfer(0, 2, peer.nextDeliveryId++, chunk, true, false, HostilePeer.WAIT);
        peer.transfer(0, 3, peer.nextDeliveryId++, chunk, true, false, HostilePeer.WAIT);
        peer.transfer(0, 2, null, chunk, true, false, HostilePeer.WAIT);
        peer.transfer(0, 3, null, chunk, true, false, HostilePeer.WAIT);
        peer.expectError(End.class, "amqp:session:window-violation");
    }

    @Test
    @DisplayName("AMQP-27 a session's deliveries are taken in whatever order their ids come (an SDK sending from "
            + "several threads), as the service takes them: each settled, each message stored, the connection kept")
    void outOfOrderDeliveryIds() throws IOException {
        namespace.createQueue("orders");
        ServiceBusEmulatorServer server = start();
        HostilePeer peer = opened(server);
        peer.begin(0);
        peer.putToken(KEY);
        peer.attachSender(0, 2, "s1", "orders");
        peer.expect(Attach.class, a -> a.getName().equals("s1"));
        int first = peer.nextDeliveryId;
        // proton-j alone closed the connection here: "Expected delivery-id <first>, got <first + 1>"
        peer.transfer(0, 2, first + 1, textMessage("two"), false, false, HostilePeer.WAIT);
        peer.transfer(0, 2, first, textMessage("one"), false, false, HostilePeer.WAIT);
        peer.transfer(0, 2, first + 2, textMessage("three"), false, false, HostilePeer.WAIT);
        peer.nextDeliveryId += 3;
        Set<Integer> settled = new TreeSet<>();
        while (settled.size() < 3) {
            Disposition disposition = peer.expect(Disposition.class, d -> d.getState() != null);
            int last = disposition.getLast() == null
                    ? disposition.getFirst().intValue()
                    : disposition.getLast().intValue();
            for (int id = disposition.getFirst().intValue(); id <= last; id++) {
                settled.add(id);
            }
        }
        assertEquals(Set.of(first, first + 1, first + 2), settled);
        List<String> bodies = namespace.peek(EntityPath.queue("orders"), 0, 10).stream()
                .map(BrokeredMessage::bodyAsString)
                .toList();
        assertEquals(List.of("two", "one", "three"), bodies);
    }

    private static byte[] textMessage(String text) {
        Message message = Proton.message();
        message.setBody(new Data(new Binary(text.getBytes(StandardCharsets.UTF_8))));
        return HostilePeer.encode(message);
    }
}
