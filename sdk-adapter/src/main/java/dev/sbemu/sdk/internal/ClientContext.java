package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.SessionLock;

/**
 * What the clients of one {@code EmulatorClients} share, handed to each client and processor instead of its
 * parts one by one.
 *
 * @param namespace the emulated namespace the clients call
 * @param fullyQualifiedNamespace the host name the clients report
 * @param renewals automatic lock renewal on the namespace's clock
 * @param transactions the transactions the clients declared
 * @param sessionLinks the session links open on the clients' one connection (PAR-4)
 */
public record ClientContext(
        Namespace namespace,
        String fullyQualifiedNamespace,
        LockRenewals renewals,
        TransactionRegistry transactions,
        SessionLinks sessionLinks) {

    /** The context of a new set of clients: one connection, no session link open yet. */
    public ClientContext(
            Namespace namespace,
            String fullyQualifiedNamespace,
            LockRenewals renewals,
            TransactionRegistry transactions) {
        this(namespace, fullyQualifiedNamespace, renewals, transactions, new SessionLinks());
    }

    /** What identifies a new client of {@code entity} (a fresh identifier). */
    public ClientInfo info(EntityPath entity) {
        return ClientInfo.of(fullyQualifiedNamespace, ClientInfo.sdkEntityPath(entity));
    }

    /** A receiver on a whole entity or one of its sub-queues. */
    public ReceiverAsyncClientImpl receiver(EntityPath entity, ServiceBusReceiveMode mode) {
        return new ReceiverAsyncClientImpl(this, new EntityBinding(namespace, entity), mode, info(entity));
    }

    /** A receiver on an accepted session, on a link of its own; closing it releases the session. */
    ReceiverAsyncClientImpl receiver(SessionLock session, ServiceBusReceiveMode mode, ClientInfo info) {
        SessionBinding link = new SessionBinding(namespace, session);
        sessionLinks.add(link);
        return new ReceiverAsyncClientImpl(this, link, mode, info);
    }

    /** A receiver on the session link another receiver of these clients opened (PAR-4). */
    ReceiverAsyncClientImpl receiver(SessionBinding openLink, ServiceBusReceiveMode mode, ClientInfo info) {
        return new ReceiverAsyncClientImpl(this, openLink, mode, info);
    }
}
