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
 */
public record ClientContext(Namespace namespace, String fullyQualifiedNamespace, LockRenewals renewals,
                            TransactionRegistry transactions) {

    /** What identifies a new client of {@code entity} (a fresh identifier). */
    public ClientInfo info(EntityPath entity) {
        return ClientInfo.of(fullyQualifiedNamespace, ClientInfo.sdkEntityPath(entity));
    }

    /** A receiver on a whole entity or one of its sub-queues. */
    public ReceiverAsyncClientImpl receiver(EntityPath entity, ServiceBusReceiveMode mode) {
        return new ReceiverAsyncClientImpl(this, new EntityBinding(namespace, entity), mode, info(entity));
    }

    /** A receiver on an accepted session; closing it releases the session. */
    ReceiverAsyncClientImpl receiver(SessionLock session, ServiceBusReceiveMode mode, ClientInfo info) {
        return new ReceiverAsyncClientImpl(this, new SessionBinding(namespace, session), mode, info);
    }
}
