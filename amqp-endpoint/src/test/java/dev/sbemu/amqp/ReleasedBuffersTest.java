package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sbemu.core.Namespace;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.qpid.proton.amqp.transport.Open;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a quiet connection costs when the JVM runs with proton-j's buffer release threshold at 0 (RES-8). proton-j
 * reads the property once, when its transport class is loaded, so this class runs in a JVM of its own: the
 * {@code released-buffers} execution of amqp-endpoint's POM, which passes it on the command line as a user would
 * (the other executions leave out the tag).
 */
@Tag("released-buffers")
class ReleasedBuffersTest {
    private static final String THRESHOLD = "proton.transport_buffer_release_threshold";
    private static final byte[] AMQP_HEADER = {'A', 'M', 'Q', 'P', 0, 1, 0, 0};
    private static final int CONNECTIONS = 200;
    /** Between what a quiet connection costs (about 34 KB) and that plus proton-j's 64 KB input buffer. */
    private static final long BOUND_PER_CONNECTION = 60 * 1024;

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private final Namespace namespace = Namespace.create();
    private final List<Socket> sockets = new ArrayList<>();
    private ServiceBusEmulatorServer server;

    @AfterEach
    void close() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (server != null) {
            server.close();
        }
        namespace.close();
    }

    /** Connects, sends the AMQP header and an open in one write, and reads the endpoint's header and open. */
    private void openQuietly(byte[] headerAndOpen) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
        sockets.add(socket);
        socket.setSoTimeout((int) HostilePeer.WAIT.toMillis());
        OutputStream out = socket.getOutputStream();
        out.write(headerAndOpen);
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[AMQP_HEADER.length];
        in.readFully(header);
        assertArrayEquals(AMQP_HEADER, header);
        byte[] open = new byte[in.readInt() - 4];
        in.readFully(open); // the endpoint's open: it has read and processed ours
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            MEMORY.gc();
        }
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    @Test
    @DisplayName("RES-8 with proton-j's buffer release threshold at 0, a quiet unauthenticated connection (header and "
            + "open) holds none of proton-j's 64 KB buffers: 200 of them grow the heap by less than 60 KB each")
    void quietConnectionsHoldNoProtonBuffer() throws IOException {
        assumeTrue(
                "0".equals(System.getProperty(THRESHOLD)),
                "runs in the released-buffers execution, with -D" + THRESHOLD + "=0");
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey("released-buffers-key")
                .handshakeTimeout(Duration.ofHours(1))
                .idleTimeout(Duration.ofHours(1))
                .start();
        Open open = new Open();
        open.setContainerId("quiet");
        byte[] frame = HostilePeer.frameBytes(0, open);
        byte[] headerAndOpen = ByteBuffer.allocate(AMQP_HEADER.length + frame.length)
                .put(AMQP_HEADER)
                .put(frame)
                .array();
        // warm up (classes' statics, the loops' own buffers), so that the figure holds only the connections
        for (int i = 0; i < 20; i++) {
            openQuietly(headerAndOpen);
        }
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
        await().atMost(HostilePeer.WAIT).until(() -> server.connectionCount() == 0);

        long before = heapAfterGc();
        for (int i = 0; i < CONNECTIONS; i++) {
            openQuietly(headerAndOpen);
        }
        long after = heapAfterGc();

        assertEquals(CONNECTIONS, server.connectionCount());
        long each = (after - before) / CONNECTIONS;
        System.out.println("released buffers: " + CONNECTIONS + " quiet unauthenticated connections, " + each / 1024
                + " KB of heap each (this JVM, the clients' sockets included)");
        assertTrue(each < BOUND_PER_CONNECTION, () -> each / 1024 + " KB a quiet connection");
    }
}
