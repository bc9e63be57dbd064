package dev.sbemu.benchmarks;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Begin;
import org.apache.qpid.proton.amqp.transport.Detach;
import org.apache.qpid.proton.amqp.transport.FrameBody;
import org.apache.qpid.proton.amqp.transport.Open;
import org.apache.qpid.proton.amqp.transport.Role;
import org.apache.qpid.proton.amqp.transport.Transfer;
import org.apache.qpid.proton.codec.AMQPDefinedTypes;
import org.apache.qpid.proton.codec.DecoderImpl;
import org.apache.qpid.proton.codec.EncoderImpl;

/**
 * The endpoint's hardening figures (issue 22): what 64 MB of one unterminated delivery on {@code $cbs} before
 * authentication costs the endpoint (bytes taken before the cut, heap retained) and whether an SDK client works
 * afterwards; threads, file descriptors and heap after 500 start/close cycles and after 200 abandoned half-open
 * connections, next to their baseline. Uses the public API only, so the same program measures the endpoint before
 * and after the change. Run: {@code java -Xmx1g -cp benchmarks/target/benchmarks.jar
 * dev.sbemu.benchmarks.EndpointHardeningFigures}.
 */
public final class EndpointHardeningFigures {
    private static final DecoderImpl DECODER = new DecoderImpl();
    private static final EncoderImpl ENCODER = new EncoderImpl(DECODER);

    static {
        AMQPDefinedTypes.registerAllTypes(DECODER, ENCODER);
    }

    private EndpointHardeningFigures() {}

    public static void main(String[] args) throws Exception {
        flood();
        startCloseCycles(500);
        abandonedConnections(200);
        System.exit(0);
    }

    // ------------------------------------------------------------------------------------------------ flood

    private static void flood() throws Exception {
        try (Namespace namespace = Namespace.create()) {
            namespace.createQueue("orders");
            ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace);
            long baseline = heapAfterGc();
            AtomicBoolean detached = new AtomicBoolean();
            long written = 0;
            long cutAt = -1;
            long peak = 0;
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                OutputStream out = socket.getOutputStream();
                Thread reader = new Thread(() -> readFrames(socket, detached), "flood-reader");
                reader.setDaemon(true);
                reader.start();
                out.write(new byte[] {'A', 'M', 'Q', 'P', 0, 1, 0, 0});
                Open open = new Open();
                open.setContainerId("flood");
                out.write(frame(open, null));
                Begin begin = new Begin();
                begin.setNextOutgoingId(UnsignedInteger.ZERO);
                begin.setIncomingWindow(UnsignedInteger.valueOf(Integer.MAX_VALUE));
                begin.setOutgoingWindow(UnsignedInteger.valueOf(Integer.MAX_VALUE));
                out.write(frame(begin, null));
                Attach attach = new Attach();
                attach.setName("flood");
                attach.setHandle(UnsignedInteger.ZERO);
                attach.setRole(Role.SENDER);
                Source source = new Source();
                source.setAddress("flood");
                attach.setSource(source);
                Target target = new Target();
                target.setAddress("$cbs");
                attach.setTarget(target);
                attach.setInitialDeliveryCount(UnsignedInteger.ZERO);
                out.write(frame(attach, null));
                byte[] chunk = new byte[64 * 1024];
                boolean first = true;
                long start = System.nanoTime();
                try {
                    while (written < 64L * 1024 * 1024) {
                        Transfer transfer = new Transfer();
                        transfer.setHandle(UnsignedInteger.ZERO);
                        if (first) {
                            transfer.setDeliveryId(UnsignedInteger.ZERO);
                            transfer.setDeliveryTag(new Binary(new byte[] {1}));
                            transfer.setMessageFormat(UnsignedInteger.ZERO);
                            first = false;
                        }
                        transfer.setMore(true);
                        out.write(frame(transfer, chunk));
                        written += chunk.length;
                        if (detached.get() && cutAt < 0) {
                            cutAt = written;
                        }
                        if (written % (8L * 1024 * 1024) == 0) {
                            peak = Math.max(peak, heapAfterGc() - baseline);
                        }
                    }
                } catch (IOException e) {
                    System.out.println("flood: the endpoint closed the socket after " + mb(written) + " written: " + e);
                }
                long retained = heapAfterGc() - baseline;
                peak = Math.max(peak, retained);
                System.out.printf(
                        "flood: 64 MB written in %d ms; detach (message-size-exceeded) seen by the client after"
                                + " %s written; endpoint heap retained after the flood (after GC, over baseline): %s;"
                                + " highest sampled every 8 MB: %s%n",
                        (System.nanoTime() - start) / 1_000_000,
                        cutAt < 0 ? (detached.get() ? "the end" : "never") : mb(cutAt),
                        mb(retained),
                        mb(peak));
                long sdkStart = System.nanoTime();
                boolean works = sdkWorks(server);
                System.out.printf(
                        "flood: an SDK client connecting afterwards %s (%d ms)%n",
                        works ? "sends and receives" : "FAILS", (System.nanoTime() - sdkStart) / 1_000_000);
            } finally {
                server.close();
            }
        }
    }

    private static boolean sdkWorks(ServiceBusEmulatorServer server) {
        ServiceBusClientBuilder builder = new ServiceBusClientBuilder()
                .connectionString(server.getConnectionString())
                .retryOptions(new AmqpRetryOptions().setMaxRetries(0).setTryTimeout(Duration.ofSeconds(20)));
        try (ServiceBusSenderClient sender =
                        builder.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        builder.receiver().queueName("orders").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("after the flood"));
            return receiver.receiveMessages(1, Duration.ofSeconds(20)).stream().count() == 1;
        } catch (RuntimeException e) {
            System.out.println("flood: the SDK client failed: " + e);
            return false;
        }
    }

    private static void readFrames(Socket socket, AtomicBoolean detached) {
        try {
            InputStream in = socket.getInputStream();
            in.readNBytes(8);
            while (true) {
                byte[] header = in.readNBytes(4);
                if (header.length < 4) {
                    return;
                }
                int size = ByteBuffer.wrap(header).getInt();
                byte[] rest = in.readNBytes(size - 4);
                int doff = (rest[0] & 0xff) * 4;
                if (size > doff) {
                    ByteBuffer body = ByteBuffer.wrap(rest, doff - 4, size - doff);
                    Object frame;
                    synchronized (DECODER) {
                        DECODER.setByteBuffer(body);
                        frame = DECODER.readObject();
                        DECODER.setByteBuffer(null);
                    }
                    if (frame instanceof Detach) {
                        detached.set(true);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // closed
        }
    }

    private static byte[] frame(FrameBody body, byte[] payload) {
        ByteBuffer performative = ByteBuffer.allocate(4096);
        synchronized (DECODER) {
            ENCODER.setByteBuffer(performative);
            ENCODER.writeObject(body);
            ENCODER.setByteBuffer((ByteBuffer) null);
        }
        performative.flip();
        int size = 8 + performative.remaining() + (payload == null ? 0 : payload.length);
        ByteBuffer frame = ByteBuffer.allocate(size);
        frame.putInt(size).put((byte) 2).put((byte) 0).putShort((short) 0).put(performative);
        if (payload != null) {
            frame.put(payload);
        }
        return frame.array();
    }

    // ----------------------------------------------------------------------------------- cycles, half-open

    private static void startCloseCycles(int cycles) throws Exception {
        try (Namespace namespace = Namespace.create()) {
            warm(namespace);
            Snapshot before = Snapshot.take();
            long start = System.nanoTime();
            for (int i = 0; i < cycles; i++) {
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace);
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                    socket.getOutputStream().write(new byte[] {'A', 'M', 'Q', 'P', 0, 1, 0, 0});
                }
                server.close();
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            Thread.sleep(500);
            Snapshot after = Snapshot.take();
            System.out.printf(
                    "cycles: %d start/close cycles (one connection each) in %d ms; before %s; after %s%n",
                    cycles, ms, before, after);
        }
    }

    private static void warm(Namespace namespace) throws IOException {
        for (int i = 0; i < 20; i++) {
            ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                socket.getOutputStream().write(1);
            }
            server.close();
        }
    }

    private static void abandonedConnections(int count) throws Exception {
        try (Namespace namespace = Namespace.create()) {
            warm(namespace);
            ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(namespace)
                    .handshakeTimeout(Duration.ofSeconds(2))
                    .start();
            try {
                Snapshot before = Snapshot.take();
                List<Socket> sockets = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
                    OutputStream out = socket.getOutputStream();
                    out.write(new byte[] {'A', 'M', 'Q', 'P', 0, 1, 0, 0});
                    if (i % 2 == 1) {
                        // half of them open an AMQP connection and then never authenticate
                        Open open = new Open();
                        open.setContainerId("abandoned-" + i);
                        out.write(frame(open, null));
                    }
                    sockets.add(socket);
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                int open = server.connectionCount();
                System.out.printf(
                        "half-open: %d abandoned connections (%d header only, %d opened and never "
                                + "authenticated), %d open at the endpoint%n",
                        count, count / 2, count / 2, open);
                while (server.connectionCount() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                int left = server.connectionCount();
                for (Socket s : sockets) {
                    s.close();
                }
                Thread.sleep(500);
                Snapshot after = Snapshot.take();
                System.out.printf(
                        "half-open: after 20 s at most: %d still open at the endpoint; before %s; after the "
                                + "clients' sockets closed %s%n",
                        left, before, after);
            } finally {
                server.close();
            }
        }
    }

    /** Threads, open file descriptors and heap after GC of this JVM. */
    record Snapshot(int threads, long fds, long heap) {
        static Snapshot take() throws IOException {
            long heap = heapAfterGc();
            long fds;
            try (Stream<Path> files = Files.list(Path.of("/proc/self/fd"))) {
                fds = files.count();
            }
            return new Snapshot(ManagementFactory.getThreadMXBean().getThreadCount(), fds, heap);
        }

        @Override
        public String toString() {
            return "threads " + threads + ", fds " + fds + ", heap " + mb(heap);
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String mb(long bytes) {
        return String.format("%.1f MB", bytes / 1024.0 / 1024.0);
    }
}
