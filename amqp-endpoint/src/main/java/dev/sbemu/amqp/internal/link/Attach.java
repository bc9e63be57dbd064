package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.LinkHandler;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.SenderSettleMode;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Sender;

/**
 * One client attach being routed: what an {@link AttachPolicy} looks at (the link, its address, source and target)
 * and what it answers with (a link kind {@linkplain #open opened}, or a {@linkplain #refuse refusal}). Loop thread.
 */
public final class Attach {
    private final LinkRouter router;
    private final Link link;
    private final String address;
    private EntityPath entity;

    Attach(LinkRouter router, Link link, String address) {
        this.router = router;
        this.link = link;
        this.address = address;
    }

    public Link link() {
        return link;
    }

    /** The endpoint's side of a link the client receives on. */
    public Sender sender() {
        return (Sender) link;
    }

    /** The endpoint's side of a link the client sends on. */
    public Receiver receiver() {
        return (Receiver) link;
    }

    /**
     * The address without scheme and host: the target's for a link the client sends on, the source's for one it
     * receives on; "" without one.
     */
    public String address() {
        return address;
    }

    /** The client's source, or null without one. */
    public Source source() {
        return link.getRemoteSource() instanceof Source s ? s : null;
    }

    /** The client's target, or null without one (or when it is a coordinator). */
    public Target target() {
        return link.getRemoteTarget() instanceof Target t ? t : null;
    }

    /** The existing entity the address names ({@link AttachPolicy.Stage#ON_ENTITY} of a link the client receives on). */
    public EntityPath entity() {
        return entity;
    }

    void entity(EntityPath entity) {
        this.entity = entity;
    }

    /** The receive mode the client's settle mode asks for. */
    public ReceiveMode mode() {
        return link.getRemoteSenderSettleMode() == SenderSettleMode.SETTLED
                ? ReceiveMode.RECEIVE_AND_DELETE
                : ReceiveMode.PEEK_LOCK;
    }

    public AmqpConnection connection() {
        return router.connection();
    }

    /** The namespace served now. */
    public Namespace namespace() {
        return router.links().namespace().get();
    }

    public LinkSettings settings() {
        return router.links().settings();
    }

    /** Opens the link with {@code handler} handling its events (a receiving link gets its first credit). */
    public void open(LinkHandler handler) {
        router.open(link, handler);
    }

    /** Refuses the attach as the service does: attached with no source or target, then detached with {@code error}. */
    public void refuse(ErrorCondition error) {
        router.refuse(link, error);
    }

    /**
     * Whether the connection may use {@code right} (null: any right) on the entity at {@code path}; refuses the
     * attach with {@code amqp:unauthorized-access} when not (SEC-3).
     */
    public boolean permittedOrRefuse(String path, AccessRight right) {
        return router.permitted(link, path, right);
    }

    /** Whether {@code entity} exists; refuses the attach with {@code amqp:not-found} when not. */
    public boolean existsOrRefuse(EntityPath entity) {
        return router.exists(entity, link);
    }

    /** The largest message {@code entity} (a queue or topic name) takes. */
    public int maxMessageSize(String entity) {
        return router.maxMessageSize(entity);
    }

    /** Held calls for a link of this connection. */
    public HeldCalls heldCalls() {
        return router.links().heldCalls(router.connection());
    }

    /** A sender link to {@code entity} (a queue or topic name). */
    public IncomingLink incomingLink(String entity, HeldCalls calls) {
        return router.links().incoming(receiver(), entity, calls);
    }

    /** A receiver link on {@code entity}. */
    public OutgoingLink outgoingLink(EntityPath entity) {
        return router.links().outgoing(router.connection(), sender(), entity, mode(), null);
    }

    /** A request link to {@code node}, whose answers go to the reply link of their reply-to. */
    public RequestLink requestLink(RequestLink.Node node, HeldCalls calls) {
        return new RequestLink(receiver(), node, router, calls);
    }

    /**
     * Opens a reply link: the link answers of {@code $cbs} or {@code $management} go out on. The reply-to address is
     * the link's target address; a link without one (the JavaScript SDK's {@code $cbs} reply link) is addressed by
     * its name, which that SDK puts in its requests' reply-to.
     */
    public void openReplyLink() {
        router.openReply(sender());
    }
}
