package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.AttachPolicy;
import dev.sbemu.amqp.internal.link.AttachPolicy.Role;
import dev.sbemu.amqp.internal.link.AttachPolicy.Stage;
import dev.sbemu.amqp.internal.link.EntityAddress;
import dev.sbemu.amqp.internal.link.HeldCalls;
import dev.sbemu.amqp.internal.link.HeldSessions;
import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.core.EntityPath;
import java.util.List;
import java.util.Locale;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.transaction.Coordinator;
import org.apache.qpid.proton.engine.Receiver;

/**
 * The nodes' rows of the routing table: the transaction coordinator and {@code $cbs} (no token needed), reply links
 * to {@code $cbs} and {@code <entity>/$management}, and {@code <entity>/$management} request links (an authorized
 * connection only).
 */
public final class NodeRoutes {
    private static final String MANAGEMENT = "/$management";
    private static final String CBS = "$cbs";

    private NodeRoutes() {}

    public static List<AttachPolicy> policies(
            ServedNamespace namespace, NamespaceKeys keys, Transactions transactions, HeldSessions sessions) {
        return List.of(
                // No token needed (AMQP-9): azure-core-amqp attaches the coordinator without authorizing it, and the
                // service accepts that. A transaction only takes effect through links that need one.
                new AttachPolicy(
                        "transaction coordinator",
                        Role.CLIENT_SENDS,
                        Stage.BEFORE_AUTHORIZATION,
                        a -> a.link().getRemoteTarget() instanceof Coordinator,
                        a -> {
                            CoordinatorLink coordinator = new CoordinatorLink(namespace, transactions, a.receiver());
                            coordinator.limits(() -> a.settings().linkCredit(), null);
                            a.open(coordinator);
                        }),
                new AttachPolicy(
                        "$cbs requests",
                        Role.CLIENT_SENDS,
                        Stage.BEFORE_AUTHORIZATION,
                        a -> CBS.equalsIgnoreCase(a.address()),
                        a -> {
                            // a token is small: a larger request is cut off, and before a token was accepted the link
                            // has little credit, so an unauthenticated client cannot make the endpoint buffer much
                            // (AMQP-13)
                            Receiver receiver = a.receiver();
                            receiver.setMaxMessageSize(
                                    UnsignedLong.valueOf(a.settings().maxRequestSize()));
                            RequestLink cbs = a.requestLink(new CbsNode(keys, a.connection()), null);
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
                        a -> a.openReplyLink()),
                new AttachPolicy(
                        "<entity>/$management requests",
                        Role.CLIENT_SENDS,
                        Stage.AUTHORIZED,
                        a -> a.address().toLowerCase(Locale.ROOT).endsWith(MANAGEMENT),
                        a -> {
                            String address = a.address();
                            EntityPath entity =
                                    EntityAddress.parse(address.substring(0, address.length() - MANAGEMENT.length()));
                            if (a.existsOrRefuse(entity)) {
                                // a request carries up to a message of the entity (schedule-message), plus its envelope
                                a.receiver()
                                        .setMaxMessageSize(
                                                UnsignedLong.valueOf((long) a.maxMessageSize(entity.topicOrQueue())
                                                        + a.settings().maxRequestSize()));
                                HeldCalls calls = a.heldCalls();
                                RequestLink management = a.requestLink(
                                        new ManagementNode(namespace, transactions, sessions, entity), calls);
                                management.limits(() -> a.settings().linkCredit(), calls);
                                a.open(management);
                            }
                        }));
    }
}
