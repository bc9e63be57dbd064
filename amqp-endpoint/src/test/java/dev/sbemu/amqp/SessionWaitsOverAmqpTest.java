package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.io.IOException;
import java.time.Duration;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Detach;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.Transfer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Session receivers over AMQP wait without a thread (AMQP-11): what ends a held attach (AMQP-6) and a link waiting in
 * its session, at once and with the service's condition. Frame-level, with {@link HostilePeer}.
 */
class SessionWaitsOverAmqpTest {
    private static final String KEY = "session-waits-key";
    private static final EntityPath CARTS = EntityPath.queue("carts");

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.sharedAccessKey(KEY));

    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private HostilePeer peer;

    @BeforeEach
    void createQueue() {
        namespace = endpoint.namespace();
        server = endpoint.server();
        namespace.createQueue(
                "carts", QueueOptions.builder().requiresSession(true).build());
    }

    @AfterEach
    void close() throws IOException {
        if (peer != null) {
            peer.close();
        }
    }

    private HostilePeer authenticated() throws IOException {
        peer = HostilePeer.opened(server.port());
        peer.begin(0);
        peer.putToken(KEY);
        return peer;
    }

    @Test
    @DisplayName("AMQP-6 an accept of the next session waits up to its com.microsoft:timeout, then is refused with "
            + "com.microsoft:timeout; it no longer waits in the broker")
    void acceptTimesOut() throws IOException {
        HostilePeer client = authenticated();
        client.attachSessionReceiver(0, 2, "accept", "carts", null, 300);
        Attach refused = client.expect(Attach.class, a -> a.getName().equals("accept"));
        assertNull(refused.getSource(), "refused: attached without a source");
        ErrorCondition error = client.expectError(Detach.class, "com.microsoft:timeout");
        assertTrue(error.getDescription().contains("No session available"), error.getDescription());
        assertEquals(0, namespace.waitingSessionAccepts(CARTS));
    }

    @Test
    @DisplayName(
            "LIM-3 AMQP-6 a waiting accept is refused at once with com.microsoft:entity-disabled when its queue is "
                    + "disabled")
    void acceptEndsOnDisable() throws IOException {
        HostilePeer client = authenticated();
        client.attachSessionReceiver(0, 2, "accept", "carts", null, 600_000);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> namespace.waitingSessionAccepts(CARTS) == 1);
        namespace.updateQueue(
                "carts",
                QueueOptions.builder()
                        .requiresSession(true)
                        .status(EntityStatus.DISABLED)
                        .build());
        client.expectError(Detach.class, "com.microsoft:entity-disabled");
    }

    @Test
    @DisplayName("LIM-3 AMQP-10 a waiting accept is refused at once with amqp:not-found when its queue is deleted")
    void acceptEndsOnDelete() throws IOException {
        HostilePeer client = authenticated();
        client.attachSessionReceiver(0, 2, "accept", "carts", null, 600_000);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> namespace.waitingSessionAccepts(CARTS) == 1);
        namespace.deleteQueue("carts");
        client.expectError(Detach.class, "amqp:not-found");
    }

    @Test
    @DisplayName("SES-3 AMQP-11 a session link waiting in its session is detached with com.microsoft:session-lock-lost "
            + "as soon as its lock expires; a disabled queue detaches a waiting one with com.microsoft:entity-disabled")
    void sessionLinkEnds() throws IOException {
        namespace.send(
                "carts",
                Message.builder().sessionId("a").messageId("a1").body("x").build());
        namespace.send(
                "carts",
                Message.builder().sessionId("b").messageId("b1").body("x").build());
        HostilePeer client = authenticated();
        client.attachSessionReceiver(0, 2, "on-a", "carts", "a", 600_000);
        client.expect(Attach.class, a -> a.getName().equals("on-a") && a.getSource() != null);
        client.attachSessionReceiver(0, 3, "on-b", "carts", "b", 600_000);
        client.expect(Attach.class, a -> a.getName().equals("on-b") && a.getSource() != null);
        client.flow(0, 2, 2);
        client.flow(0, 3, 2);
        client.expect(Transfer.class, t -> true);
        client.expect(Transfer.class, t -> true);
        // each link has a credit left: both wait in their sessions
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> namespace.waitingReceivers(CARTS) == 2);
        namespace.clock().advance(Duration.ofMinutes(2)); // past both locks (1 minute)
        client.expectError(Detach.class, "com.microsoft:session-lock-lost");
        client.expectError(Detach.class, "com.microsoft:session-lock-lost");
        assertEquals(0, namespace.waitingReceivers(CARTS));
    }

    @Test
    @DisplayName("LIM-3 AMQP-11 a session link waiting in its session is detached at once with "
            + "com.microsoft:entity-disabled when its queue is disabled")
    void sessionLinkEndsOnDisable() throws IOException {
        namespace.send(
                "carts",
                Message.builder().sessionId("a").messageId("a1").body("x").build());
        HostilePeer client = authenticated();
        client.attachSessionReceiver(0, 2, "on-a", "carts", "a", 600_000);
        client.expect(Attach.class, a -> a.getName().equals("on-a") && a.getSource() != null);
        client.flow(0, 2, 2);
        client.expect(Transfer.class, t -> true);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> namespace.waitingReceivers(CARTS) == 1);
        namespace.updateQueue(
                "carts",
                QueueOptions.builder()
                        .requiresSession(true)
                        .status(EntityStatus.RECEIVE_DISABLED)
                        .build());
        client.expectError(Detach.class, "com.microsoft:entity-disabled");
    }
}
