package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.Attach;
import dev.sbemu.amqp.internal.link.AttachPolicy;
import dev.sbemu.amqp.internal.link.AttachPolicy.Role;
import dev.sbemu.amqp.internal.link.AttachPolicy.Stage;
import dev.sbemu.amqp.internal.link.EntityAddress;
import dev.sbemu.amqp.internal.link.HeldCalls;
import dev.sbemu.amqp.internal.link.HeldSessions;
import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.security.Authorizer;
import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.core.EntityPath;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transaction.Coordinator;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.EndpointState;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;

/**
 * The nodes' rows of the routing table: the transaction coordinator and {@code $cbs} (no token needed), reply links
 * to {@code $cbs} and {@code <entity>/$management}, and {@code <entity>/$management} request links (an authorized
 * connection only).
 */
public final class NodeRoutes {
    private static final EnumSet<EndpointState> ACTIVE = EnumSet.of(EndpointState.ACTIVE);
    private static final String MANAGEMENT = "/$management";
    private static final String CBS = "$cbs";

    private NodeRoutes() {}

    /**
     * Refuses a {@code $cbs} link when the connection has one of the same direction open already, as the service does
     * ({@code amqp:not-allowed}): it takes one sender/receiver pair per connection, and the Go SDK resets its
     * connection on that refusal (azservicebus 1.11.0, {@code internal/cbs.go} {@code NegotiateClaim}).
     */
    private static boolean refusedAsSecondCbsLink(Attach a) {
        Link link = a.link();
        for (Link other = link.getSession().getConnection().linkHead(ACTIVE, ACTIVE);
                other != null;
                other = other.next(ACTIVE, ACTIVE)) {
            if (other != link && other.getClass() == link.getClass() && CBS.equalsIgnoreCase(cbsAddress(other))) {
                a.refuse(new ErrorCondition(
                        AmqpErrors.NOT_ALLOWED,
                        "The $cbs node can only be opened by a single sender/receiver pair in a connection."));
                return true;
            }
        }
        return false;
    }

    /** The address a client's link to a node names: its target for the client's sender, its source otherwise. */
    private static String cbsAddress(Link link) {
        if (link instanceof Receiver) {
            return link.getRemoteTarget() instanceof Target t ? t.getAddress() : null;
        }
        return link.getRemoteSource() instanceof Source s ? s.getAddress() : null;
    }

    public static List<AttachPolicy> policies(
            ServedNamespace namespace,
            NamespaceKeys keys,
            Authorizer authorizer,
            Transactions transactions,
            HeldSessions sessions) {
        return List.of(
                // No token needed (AMQP-9): azure-core-amqp attaches the coordinator without authorizing it, and the
                // service accepts that. A transaction only takes effect through links that need one.
                new AttachPolicy(
                        "transaction coordinator",
                        Role.CLIENT_SENDS,
                        Stage.BEFORE_AUTHORIZATION,
                        a -> a.link().getRemoteTarget() instanceof Coordinator,
                        a -> {
                            CoordinatorLink coordinator =
                                    new CoordinatorLink(namespace, transactions, a.connection(), a.receiver());
                            coordinator.limits(() -> a.settings().linkCredit(), null);
                            a.open(coordinator);
                        }),
                new AttachPolicy(
                        "$cbs requests",
                        Role.CLIENT_SENDS,
                        Stage.BEFORE_AUTHORIZATION,
                        a -> CBS.equalsIgnoreCase(a.address()),
                        a -> {
                            if (refusedAsSecondCbsLink(a)) {
                                return;
                            }
                            // a token is small: a larger request is cut off, and before a token was accepted the link
                            // has little credit, so an unauthenticated client cannot make the endpoint buffer much
                            // (AMQP-13)
                            Receiver receiver = a.receiver();
                            receiver.setMaxMessageSize(
                                    UnsignedLong.valueOf(a.settings().maxRequestSize()));
                            RequestLink cbs = a.requestLink(new CbsNode(keys, a.connection(), namespace), null);
                            cbs.limits(
                                    () -> a.connection().isAuthorized()
                                            ? a.settings().linkCredit()
                                            : a.settings().unauthenticatedCredit(),
                                    () -> a.connection().isAuthorized()
                                            ? Long.MAX_VALUE
                                            : a.settings().unauthenticatedCredit(),
                                    null);
                            a.open(cbs);
                        }),
                new AttachPolicy(
                        "$cbs and $management replies",
                        Role.CLIENT_RECEIVES,
                        Stage.BEFORE_AUTHORIZATION,
                        a -> {
                            String lower = a.address().toLowerCase(Locale.ROOT);
                            return CBS.equals(lower) || lower.endsWith(MANAGEMENT);
                        },
                        a -> {
                            if (!CBS.equalsIgnoreCase(a.address()) || !refusedAsSecondCbsLink(a)) {
                                a.openReplyLink();
                            }
                        }),
                new AttachPolicy(
                        "<entity>/$management requests",
                        Role.CLIENT_SENDS,
                        Stage.AUTHORIZED,
                        a -> a.address().toLowerCase(Locale.ROOT).endsWith(MANAGEMENT),
                        a -> {
                            String address = a.address();
                            EntityPath entity =
                                    EntityAddress.parse(address.substring(0, address.length() - MANAGEMENT.length()));
                            // any right on the entity: the SDKs open this link beside a sender or a receiver
                            if (a.existsOrRefuse(entity) && a.permittedOrRefuse(entity.entityName(), null)) {
                                // a request carries up to a message of the entity (schedule-message), plus its envelope
                                a.receiver()
                                        .setMaxMessageSize(
                                                UnsignedLong.valueOf((long) a.maxMessageSize(entity.topicOrQueue())
                                                        + a.settings().maxRequestSize()));
                                HeldCalls calls = a.heldCalls();
                                RequestLink management = a.requestLink(
                                        new ManagementNode(
                                                namespace,
                                                transactions,
                                                sessions,
                                                entity,
                                                right ->
                                                        authorizer.refusal(a.connection(), entity.entityName(), right)),
                                        calls);
                                management.limits(() -> a.settings().linkCredit(), calls);
                                a.open(management);
                            }
                        }));
    }
}
