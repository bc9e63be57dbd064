package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.SessionLock;
import java.util.Locale;

/** Builds receiver implementations and names their entities as the SDK does. */
public final class Receivers {
    private Receivers() {
    }

    /** A receiver on an entity or one of its sub-queues. */
    public static ReceiverAsyncClientImpl forEntity(Namespace namespace, EntityPath entity, ServiceBusReceiveMode mode,
                                                    String fullyQualifiedNamespace, LockRenewals renewals,
                                                    TransactionRegistry transactions) {
        return new ReceiverAsyncClientImpl(new EntitySource(namespace, entity), mode,
                ClientInfo.of(fullyQualifiedNamespace, sdkEntityPath(entity)), renewals, transactions);
    }

    /** A receiver on an accepted session; closing it releases the session. */
    static ReceiverAsyncClientImpl forSession(Namespace namespace, SessionLock session, ServiceBusReceiveMode mode,
                                              ClientInfo info, LockRenewals renewals,
                                              TransactionRegistry transactions) {
        return new ReceiverAsyncClientImpl(new SessionSource(namespace, session), mode, info, renewals, transactions);
    }

    /** The SDK's entity path: {@code queue} or {@code topic/subscriptions/sub}, plus the sub-queue suffix. */
    public static String sdkEntityPath(EntityPath entity) {
        String base = entity.isSubscription()
                ? String.format(Locale.ROOT, "%s/subscriptions/%s", entity.topicOrQueue(), entity.subscription())
                : entity.topicOrQueue();
        return base + entity.subQueue().pathSuffix();
    }
}
