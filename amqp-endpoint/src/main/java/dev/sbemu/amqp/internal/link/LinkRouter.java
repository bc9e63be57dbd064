package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AccessCheck;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.AttachHandler;
import dev.sbemu.amqp.internal.transport.LinkHandler;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Sender;
import org.apache.qpid.proton.message.Message;

/**
 * One connection's link routing: decides what an attaching link is and answers the attach, through a table of
 * {@link AttachPolicy} rows. For each attach the rows of {@link AttachPolicy.Stage#BEFORE_AUTHORIZATION} are tried
 * first ({@code $cbs}, the coordinator, reply links: registered by the nodes); then the connection must be authorized;
 * then the rows of {@link AttachPolicy.Stage#AUTHORIZED} ({@code $management}, JMS temporary destinations and
 * unsubscribes); then the core's own kinds: a sender without a target address (to each message's {@code to}), the
 * address looked up as an entity (refused with {@code amqp:not-found} when there is none), the rows of
 * {@link AttachPolicy.Stage#ON_ENTITY} (JMS topic consumers, browsers, selectors), a session receiver ({@link
 * SessionAccept}) and a plain sender ({@link IncomingLink}) or receiver ({@link OutgoingLink}). A refused attach is
 * answered as the service does: attached with no source or target, then detached with the error. Loop thread only.
 */
public final class LinkRouter implements AttachHandler {
    private static final Logger LOG = Logger.getLogger(LinkRouter.class.getName());

    private final AmqpConnection connection;
    private final Supplier<LinkRoutes> routes;
    private final AccessCheck access;
    private final Map<String, ReplyLink> replies = new HashMap<>();

    /**
     * @param policies the routing table, in the order the rows are tried
     * @param access whether the connection may use a right on an entity (SEC-3)
     */
    public LinkRouter(AmqpConnection connection, LinkFactory links, List<AttachPolicy> policies, AccessCheck access) {
        this(connection, fixed(new LinkRoutes(links, policies)), access);
    }

    private static Supplier<LinkRoutes> fixed(LinkRoutes routes) {
        return () -> routes;
    }

    /**
     * @param routes the links and the routing table of the namespace the connection serves, looked up per attach: the
     *     default namespace's until the connection's credentials chose one (NS-2)
     * @param access whether the connection may use a right on an entity (SEC-3), asked of the chosen namespace's
     *     authorizer
     */
    public LinkRouter(AmqpConnection connection, Supplier<LinkRoutes> routes, AccessCheck access) {
        this.connection = connection;
        this.routes = routes;
        this.access = access;
    }

    AmqpConnection connection() {
        return connection;
    }

    LinkFactory links() {
        return routes.get().links();
    }

    @Override
    public void attach(Link link) {
        connection.loop().checkThread();
        if (link instanceof Receiver receiver) {
            attachIncoming(receiver);
        } else {
            attachOutgoing((Sender) link);
        }
    }

    /** Tries the rows of {@code stage} for {@code role}; true when one answered the attach. */
    private boolean route(AttachPolicy.Role role, AttachPolicy.Stage stage, Attach attach) {
        for (AttachPolicy policy : routes.get().policies()) {
            if (policy.role() == role
                    && policy.stage() == stage
                    && policy.matches().test(attach)) {
                policy.answer().accept(attach);
                return true;
            }
        }
        return false;
    }

    private void attachIncoming(Receiver receiver) {
        String address = receiver.getRemoteTarget() instanceof Target t ? EntityAddress.strip(t.getAddress()) : "";
        Attach attach = new Attach(this, receiver, address);
        AttachPolicy.Role role = AttachPolicy.Role.CLIENT_SENDS;
        if (route(role, AttachPolicy.Stage.BEFORE_AUTHORIZATION, attach)) {
            return;
        }
        if (!authorized(receiver) || route(role, AttachPolicy.Stage.AUTHORIZED, attach)) {
            return;
        }
        LinkFactory links = links();
        Namespace ns = links.namespace().get();
        if (address.isEmpty() && receiver.getRemoteTarget() instanceof Target) {
            // an anonymous sender (ANONYMOUS-RELAY, Qpid JMS's anonymous producer): each message goes to its `to`
            receiver.setMaxMessageSize(UnsignedLong.valueOf(ns.tier().defaultMaxMessageSizeBytes()));
            HeldCalls calls = links.heldCalls(connection);
            IncomingLink anonymous = links.incoming(receiver, null, calls);
            anonymous.limits(() -> links.settings().linkCredit(), calls);
            open(receiver, anonymous);
            return;
        }
        if (!ns.queueExists(address) && !ns.topicExists(address)) {
            refuse(receiver, AmqpErrors.entityNotFound(address));
            return;
        }
        if (!permitted(receiver, address, AccessRight.SEND)) {
            return;
        }
        if (route(role, AttachPolicy.Stage.ON_ENTITY, attach)) {
            return;
        }
        receiver.setMaxMessageSize(UnsignedLong.valueOf(maxMessageSize(address)));
        HeldCalls calls = links.heldCalls(connection);
        IncomingLink incoming = links.incoming(receiver, address, calls);
        incoming.limits(() -> links.settings().linkCredit(), calls);
        open(receiver, incoming);
    }

    private void attachOutgoing(Sender sender) {
        Source source = sender.getRemoteSource() instanceof Source s ? s : null;
        String address = source == null ? "" : EntityAddress.strip(source.getAddress());
        Attach attach = new Attach(this, sender, address);
        AttachPolicy.Role role = AttachPolicy.Role.CLIENT_RECEIVES;
        if (route(role, AttachPolicy.Stage.BEFORE_AUTHORIZATION, attach)) {
            return;
        }
        if (!authorized(sender) || route(role, AttachPolicy.Stage.AUTHORIZED, attach)) {
            return;
        }
        EntityPath entity = EntityAddress.parse(address);
        if (!exists(entity, sender) || !permitted(sender, entity.toString(), AccessRight.LISTEN)) {
            return;
        }
        attach.entity(entity);
        if (route(role, AttachPolicy.Stage.ON_ENTITY, attach)) {
            return;
        }
        Map<Symbol, Object> filter = source.getFilter();
        if (filter != null && filter.containsKey(SessionAccept.SESSION_FILTER)) {
            new SessionAccept(this, links())
                    .accept(
                            sender,
                            entity,
                            attach.mode(),
                            SessionAccept.sessionIdOf(filter.get(SessionAccept.SESSION_FILTER)));
            return;
        }
        if (requiresSession(entity)) {
            // the service refuses the attach, so a client's first receive or (Go SDK) peek fails with it
            refuse(
                    sender,
                    new ErrorCondition(
                            AmqpErrors.NOT_ALLOWED,
                            "It is not possible for an entity that requires sessions to create a non-sessionful"
                                    + " message receiver. Entity: '" + entity + "'."));
            return;
        }
        open(sender, links().outgoing(connection, sender, entity, attach.mode(), null));
    }

    /** Whether {@code entity} is the main queue of a session-enabled queue or subscription. */
    private boolean requiresSession(EntityPath entity) {
        if (entity.subQueue() != EntityPath.Part.NONE) {
            return false;
        }
        Namespace ns = links().namespace().get();
        try {
            if (entity.isSubscription()) {
                return ns.getSubscription(entity.topicOrQueue(), entity.subscription())
                        .requiresSession();
            }
            return ns.queueExists(entity.topicOrQueue())
                    && ns.getQueue(entity.topicOrQueue()).requiresSession();
        } catch (RuntimeException deletedMeanwhile) {
            return false; // the link's first receive reports it
        }
    }

    /** Opens a reply link, registered under its reply-to address (see {@link Attach#openReplyLink}). */
    void openReply(Sender sender) {
        String target = sender.getRemoteTarget() instanceof Target t ? t.getAddress() : null;
        String replyTo = target != null ? target : sender.getName();
        ReplyLink reply = new ReplyLink(sender, closed -> replies.remove(replyTo, closed));
        open(sender, reply);
        replies.put(replyTo, reply);
    }

    private boolean authorized(Link link) {
        if (connection.isAuthorized()) {
            return true;
        }
        refuse(
                link,
                new ErrorCondition(
                        AmqpErrors.UNAUTHORIZED,
                        "Unauthorized access: put a valid token on $cbs before attaching links."));
        return false;
    }

    /** Whether the connection may use {@code right} (null: any) on {@code path}; refuses {@code link} when not. */
    boolean permitted(Link link, String path, AccessRight right) {
        ErrorCondition refusal = access.refusal(connection, path, right);
        if (refusal != null) {
            refuse(link, refusal);
            return false;
        }
        return true;
    }

    boolean exists(EntityPath entity, Link link) {
        Namespace ns = links().namespace().get();
        boolean exists = entity.isSubscription()
                ? ns.subscriptionExists(entity.topicOrQueue(), entity.subscription())
                : ns.queueExists(entity.topicOrQueue()) || ns.topicExists(entity.topicOrQueue());
        if (!exists) {
            refuse(link, AmqpErrors.entityNotFound(entity.toString()));
        }
        return exists;
    }

    int maxMessageSize(String entity) {
        Namespace ns = links().namespace().get();
        Long kilobytes = ns.queueExists(entity)
                ? ns.getQueue(entity).maxMessageSizeInKilobytes()
                : ns.getTopic(entity).maxMessageSizeInKilobytes();
        return ns.tier() == Tier.PREMIUM && kilobytes != null
                ? (int) (kilobytes * 1024)
                : ns.tier().defaultMaxMessageSizeBytes();
    }

    void open(Link link, LinkHandler handler) {
        // an unsubscribe's source was set to the subscription found (JMS-18)
        link.setSource(link.getSource() != null ? link.getSource() : link.getRemoteSource());
        // a dynamic node's target was set with its address (JMS-13)
        link.setTarget(link.getTarget() != null ? link.getTarget() : link.getRemoteTarget());
        link.setSenderSettleMode(link.getRemoteSenderSettleMode());
        link.setReceiverSettleMode(link.getRemoteReceiverSettleMode());
        link.setContext(handler);
        connection.track(handler);
        link.open();
        if (handler instanceof ReceivingLink receiving) {
            receiving.grantCredit();
        }
    }

    @Override
    public void refuse(Link link, ErrorCondition error) {
        if (link instanceof Sender) {
            link.setSource(null);
            link.setTarget(link.getRemoteTarget());
        } else {
            link.setSource(link.getRemoteSource());
            link.setTarget(null);
        }
        link.open();
        link.setCondition(error);
        link.close();
    }

    /** Sends a management or CBS answer to the reply link at {@code replyTo}. */
    void reply(String replyTo, Message answer) {
        connection.loop().checkThread();
        ReplyLink link = replyTo == null ? null : replies.get(replyTo);
        if (link == null) {
            LOG.fine(() -> "sbemu AMQP endpoint: no reply link for '" + replyTo + "'; answer dropped");
            return;
        }
        link.reply(answer);
    }
}
