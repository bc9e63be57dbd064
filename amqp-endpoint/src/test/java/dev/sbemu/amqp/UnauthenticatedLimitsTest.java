package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Close;
import org.apache.qpid.proton.amqp.transport.Detach;
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
            + "more is closed with amqp:resource-limit-exceeded, HTTP is still served; a token accepted on one makes "
            + "room")
    void unauthenticatedConnectionsAreLimited() throws IOException, InterruptedException {
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey(KEY)
                .maxUnauthenticatedConnections(3)
                .start();
        HostilePeer first = opened();
        opened();
        opened();

        connectAndOpen().expectError(Close.class, "amqp:resource-limit-exceeded");
        // HTTP on the same port is still served: a health check must not read an AMQP refusal during such a flood
        HttpResponse<String> health = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode(), health.body());

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

    @Test
    @DisplayName("RES-7 before a token, a connection may attach at most 16 links (the $cbs pair and coordinators): "
            + "the 17th is refused with amqp:resource-limit-exceeded, a flood of refused ones closes the connection, "
            + "and a token lifts the bound to the endpoint's link limit")
    void unauthenticatedLinksAreLimited() throws IOException {
        server =
                ServiceBusEmulatorServer.builder(namespace).sharedAccessKey(KEY).start();
        HostilePeer peer = opened();
        peer.begin(0);
        for (int handle = 0; handle < 16; handle++) {
            peer.attachCoordinator(0, handle, "txn-" + handle);
            int h = handle;
            Attach answer = peer.expect(Attach.class, a -> a.getName().equals("txn-" + h));
            assertNotNull(answer.getTarget(), "coordinator " + h + " attached");
        }
        peer.attachCoordinator(0, 16, "txn-16");
        Detach refused = peer.expect(Detach.class, d -> d.getError() != null);
        assertEquals(
                "amqp:resource-limit-exceeded",
                refused.getError().getCondition().toString());
        assertTrue(
                refused.getError().getDescription().contains("before a token is accepted"),
                refused.getError().getDescription());

        HostilePeer flooder = opened();
        flooder.begin(0);
        for (int handle = 0; handle < 40; handle++) {
            flooder.attachCoordinator(0, handle, "txn-" + handle);
        }
        ErrorCondition closed = flooder.expectError(Close.class, "amqp:resource-limit-exceeded");
        assertTrue(closed.getDescription().contains("before a token is accepted"), closed.getDescription());

        HostilePeer authenticated = opened();
        authenticated.begin(0);
        authenticated.putToken(KEY); // handles 0 and 1
        for (int handle = 2; handle < 20; handle++) {
            authenticated.attachCoordinator(0, handle, "txn-" + handle);
            int h = handle;
            Attach answer = authenticated.expect(Attach.class, a -> a.getName().equals("txn-" + h));
            assertNotNull(answer.getTarget(), "coordinator " + h + " attached after the token");
        }
    }
}
