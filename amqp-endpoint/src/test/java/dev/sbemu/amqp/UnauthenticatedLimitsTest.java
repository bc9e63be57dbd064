package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Close;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.Open;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What connections without a token may make the endpoint hold (issue 32, items 2 and 3): their number, and the bytes
 * of incomplete deliveries each buffers.
 */
class UnauthenticatedLimitsTest {
    private static final String KEY = "unauthenticated-test-key";
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

    private HostilePeer opened() throws IOException {
        HostilePeer peer = HostilePeer.opened(server.port());
        peers.add(peer);
        return peer;
    }

    /** Connects and sends an open; the endpoint answers it (with its own open, or a close). */
    private HostilePeer connectAndOpen() throws IOException {
        HostilePeer peer = HostilePeer.connect(server.port());
        peers.add(peer);
        peer.header();
        Open open = new Open();
        open.setContainerId("one-more");
        peer.frame(0, open, null);
        return peer;
    }

    @Test
    @DisplayName("RES-7 connections without an accepted token are limited (max-unauthenticated-connections): one "
            + "more is closed with amqp:resource-limit-exceeded; a token accepted on one makes room")
    void unauthenticatedConnectionsAreLimited() throws IOException {
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey(KEY)
                .maxUnauthenticatedConnections(3)
                .start();
        HostilePeer first = opened();
        opened();
        opened();

        connectAndOpen().expectError(Close.class, "amqp:resource-limit-exceeded");

        first.begin(0);
        first.putToken(KEY);
        HostilePeer admitted = connectAndOpen();
        admitted.expect(Open.class, o -> true);
        admitted.begin(0); // served: its session begins
    }

    @Test
    @DisplayName("RES-7 before a token, a connection's incomplete deliveries over all its $cbs links may not pass "
            + "max-unauthenticated-bytes: past it the connection is closed with amqp:resource-limit-exceeded")
    void unauthenticatedBytesAreLimited() throws IOException {
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey(KEY)
                .maxUnauthenticatedBytes(100_000)
                .start();
        HostilePeer peer = opened();
        peer.begin(0);
        byte[] part = new byte[60_000];
        for (int handle = 0; handle < 3; handle++) {
            peer.attachSender(0, handle, "cbs-" + handle, "$cbs");
            String name = "cbs-" + handle;
            peer.expect(Attach.class, a -> a.getName().equals(name));
        }
        peer.transfer(0, 0, 0, part, true, false, HostilePeer.WAIT);
        peer.transfer(0, 1, 1, part, true, false, HostilePeer.WAIT);
        ErrorCondition error = peer.expectError(Close.class, "amqp:resource-limit-exceeded");
        assertTrue(error.getDescription().contains("before any token was accepted"), error.getDescription());
        peer.expectEndOfStream(HostilePeer.WAIT);
    }
}
