package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Sender;

/**
 * Builds the link kinds, each with only the owners it uses: the served namespace, the transaction scope, the worker
 * threads, the held sessions, the open receivers and the link settings. One per endpoint, shared by the routing of
 * every connection ({@link LinkRouter}) and the attach policies registered into it.
 */
public final class LinkFactory {
    private final ServedNamespace namespace;
    private final TransactionScope transactions;
    private final Workers workers;
    private final HeldSessions heldSessions;
    private final OpenReceivers receivers;
    private final LinkSettings settings;

    public LinkFactory(
            ServedNamespace namespace,
            TransactionScope transactions,
            Workers workers,
            HeldSessions heldSessions,
            OpenReceivers receivers,
            LinkSettings settings) {
        this.namespace = namespace;
        this.transactions = transactions;
        this.workers = workers;
        this.heldSessions = heldSessions;
        this.receivers = receivers;
        this.settings = settings;
    }

    ServedNamespace namespace() {
        return namespace;
    }

    Workers workers() {
        return workers;
    }

    HeldSessions heldSessions() {
        return heldSessions;
    }

    LinkSettings settings() {
        return settings;
    }

    /** A link's broker calls that a scripted delay may hold, run on the connection's loop. */
    HeldCalls heldCalls(AmqpConnection connection) {
        return new HeldCalls(namespace, workers, connection.loop());
    }

    /** A client's sender to {@code entity} (null: to each message's {@code to}). */
    IncomingLink incoming(Receiver receiver, String entity, HeldCalls calls) {
        return new IncomingLink(namespace, transactions, receiver, entity, calls);
    }

    /** A client's receiver on {@code entity}, in {@code session} for a session receiver (else null). */
    OutgoingLink outgoing(
            AmqpConnection connection, Sender sender, EntityPath entity, ReceiveMode mode, SessionLock session) {
        return new OutgoingLink(
                namespace, transactions, workers, heldSessions, receivers, connection, sender, entity, mode, session);
    }
}
