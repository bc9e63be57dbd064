package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.messaging.Rejected;
import org.apache.qpid.proton.amqp.transaction.Declare;
import org.apache.qpid.proton.amqp.transaction.Declared;
import org.apache.qpid.proton.amqp.transaction.Discharge;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Close;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.Disposition;
import org.apache.qpid.proton.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Declared transactions belong to the connection that declared them (issue 32, item 1): one client cannot fill the
 * heap with transactions, declared without any token, by pipelining Declares or by leaving them behind.
 */
class TransactionLifetimeTest {
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

    /** A connection with a session and a coordinator link (handle 0), no token. */
    private HostilePeer coordinator() throws IOException {
        HostilePeer peer = HostilePeer.opened(server.port());
        peers.add(peer);
        peer.begin(0);
        peer.attachCoordinator(0, 0, "txn-controller");
        peer.expect(Attach.class, a -> true);
        return peer;
    }

    /** Sends {@code body} on the coordinator and returns the state the endpoint answered with. */
    private static DeliveryState coordinate(HostilePeer peer, Object body) throws IOException {
        Message message = Proton.message();
        message.setBody(new AmqpValue(body));
        int id = peer.nextDeliveryId++;
        peer.transfer(0, 0, id, HostilePeer.encode(message), false, false, HostilePeer.WAIT);
        return peer.expect(Disposition.class, d -> d.getFirst().intValue() == id)
                .getState();
    }

    private static Binary declare(HostilePeer peer) throws IOException {
        return assertInstanceOf(Declared.class, coordinate(peer, new Declare())).getTxnId();
    }

    private static DeliveryState discharge(HostilePeer peer, Binary txnId) throws IOException {
        Discharge discharge = new Discharge();
        discharge.setTxnId(txnId);
        discharge.setFail(true);
        return coordinate(peer, discharge);
    }

    @Test
    @DisplayName("RES-1 a connection holds at most max-transactions-per-connection declared transactions; a Declare "
            + "beyond is rejected with amqp:resource-limit-exceeded, and one discharged makes room")
    void declaresBeyondTheLimitAreRejected() throws IOException {
        server = ServiceBusEmulatorServer.builder(namespace)
                .maxTransactionsPerConnection(3)
                .start();
        HostilePeer peer = coordinator();
        Binary first = declare(peer);
        declare(peer);
        declare(peer);

        Rejected refused = assertInstanceOf(Rejected.class, coordinate(peer, new Declare()));
        assertEquals(
                "amqp:resource-limit-exceeded",
                refused.getError().getCondition().toString());

        assertInstanceOf(Accepted.class, discharge(peer, first));
        declare(peer);
        // another connection has its own allowance
        declare(coordinator());
    }

    @Test
    @DisplayName("RES-1 the transactions a connection declared are rolled back when it ends: their ids are unknown "
            + "on another connection")
    void transactionsEndWithTheirConnection() throws IOException {
        server = ServiceBusEmulatorServer.builder(namespace).start();
        HostilePeer declaring = coordinator();
        Binary txnId = declare(declaring);
        HostilePeer other = coordinator();
        // the endpoint answers the close once the connection's links and transactions have ended
        declaring.frame(0, new Close(), null);
        declaring.expect(Close.class, c -> true);

        Rejected rejected = assertInstanceOf(Rejected.class, discharge(other, txnId));
        assertEquals(
                "amqp:transaction:unknown-id",
                rejected.getError().getCondition().toString());
    }
}
