package dev.sbemu.amqp.internal.transport;

import dev.sbemu.core.AuthorizationRule.AccessRight;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * Whether an authorized connection may use a right on a resource (spec SEC-3): asked by the link routing at each
 * attach to an entity, answered by the security side from the grants the connection's tokens and keys carry. Loop
 * thread only.
 */
public interface AccessCheck {
    /** Lets every connection do everything (tests of the routing alone). */
    AccessCheck ALLOW_ALL = (connection, path, right) -> null;

    /**
     * Null when {@code connection} may use {@code right} on the entity at {@code path} ({@code queue}, {@code
     * topic/subscriptions/sub}, ...), else the {@code amqp:unauthorized-access} condition to refuse with.
     */
    ErrorCondition refusal(AmqpConnection connection, String path, AccessRight right);
}
