package dev.sbemu.amqp.internal.transport;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Connection;
import org.apache.qpid.proton.engine.EndpointState;
import org.apache.qpid.proton.engine.Event;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Session;

/**
 * One connection's answers to proton-j's connection, session, link and delivery events, and the limits on them
 * (AMQP-19): the open is answered with the offered capabilities (or a close past the connection limit); a session gets
 * its incoming window, at most channel-max + 1 of them; an attach goes to the {@link AttachHandler} (refused past
 * link-max handlers; a flood of attaches closes the connection); a detach is answered and its handler ended; a link's
 * flow and deliveries go to the {@link LinkHandler} in its context (a session whose incoming window is overrun ends).
 * It keeps the link handlers, to end them with their session or connection. Loop thread only.
 */
final class ProtonEvents {
    private final AmqpConnection owner;
    private final Limits limits;
    private final AttachHandler router;
    private final Symbol[] offeredCapabilities;
    /** Past the connection limit: its open is answered with a close (AMQP-19). */
    private final boolean refused;

    private final List<LinkHandler> handlers = new ArrayList<>();
    private int sessions;
    private int links;

    ProtonEvents(
            AmqpConnection owner, Limits limits, AttachHandler router, Symbol[] offeredCapabilities, boolean refused) {
        this.owner = owner;
        this.limits = limits;
        this.router = router;
        this.offeredCapabilities = offeredCapabilities;
        this.refused = refused;
    }

    /** Keeps {@code handler} to tell it when its link, session or connection ends. */
    void track(LinkHandler handler) {
        handlers.add(handler);
    }

    void untrack(LinkHandler handler) {
        handlers.remove(handler);
    }

    /** Answers a connection, session, link or delivery event; other events need no answer here. */
    void handle(Event event) {
        switch (event.getType()) {
            case CONNECTION_REMOTE_OPEN -> {
                Connection connection = event.getConnection();
                connection.setContainer("sbemu");
                connection.setOfferedCapabilities(offeredCapabilities.clone());
                connection.open();
                if (refused) {
                    owner.closeWith(new ErrorCondition(
                            AmqpErrors.RESOURCE_LIMIT_EXCEEDED,
                            "The endpoint has " + limits.maxConnections()
                                    + " connections open, its limit; the connection is refused."));
                }
            }
            case CONNECTION_REMOTE_CLOSE -> {
                endAll();
                event.getConnection().close();
            }
            case SESSION_REMOTE_OPEN -> {
                Session session = event.getSession();
                if (session.getLocalState() == EndpointState.UNINITIALIZED) {
                    session.setIncomingCapacity(
                            (int) Math.min(Integer.MAX_VALUE, (long) limits.sessionWindow() * limits.maxFrameSize()));
                    session.open();
                    sessions++;
                    if (sessions > limits.channelMax() + 1) {
                        session.setCondition(new ErrorCondition(
                                AmqpErrors.RESOURCE_LIMIT_EXCEEDED,
                                "At most " + (limits.channelMax() + 1) + " sessions per connection."));
                        session.close();
                    }
                }
            }
            case SESSION_REMOTE_CLOSE -> {
                Session session = event.getSession();
                endLinks(session);
                session.close();
                session.free();
            }
            case SESSION_FINAL -> sessions--;
            case LINK_REMOTE_OPEN -> {
                Link link = event.getLink();
                if (link.getLocalState() == EndpointState.UNINITIALIZED) {
                    links++;
                    boolean authorized = owner.isAuthorized();
                    int linkMax = authorized ? limits.linkMax() : Math.min(limits.linkMax(), UNAUTHENTICATED_LINK_MAX);
                    String beforeToken = authorized || linkMax == limits.linkMax()
                            ? ""
                            : " before a token is accepted; put a token on $cbs first";
                    if (links > 2 * linkMax) {
                        // refused attaches the client never detaches: it floods
                        owner.closeWith(new ErrorCondition(
                                AmqpErrors.RESOURCE_LIMIT_EXCEEDED, "Too many links attached" + beforeToken + "."));
                    } else if (handlers.size() >= linkMax) {
                        router.refuse(
                                link,
                                new ErrorCondition(
                                        AmqpErrors.RESOURCE_LIMIT_EXCEEDED,
                                        "At most " + linkMax + " links may be attached on one connection" + beforeToken
                                                + "."));
                    } else {
                        router.attach(link);
                    }
                }
            }
            case LINK_REMOTE_CLOSE, LINK_REMOTE_DETACH -> {
                // a client's detach is answered with a detach, and the link is freed (AMQP-19)
                Link link = event.getLink();
                if (event.getType() == Event.Type.LINK_REMOTE_CLOSE && link.getContext() instanceof LinkHandler h) {
                    h.onPeerClosed(); // a detach with closed=true: a JMS unsubscribe (JMS-18)
                }
                end(link);
                if (link.getLocalState() != EndpointState.CLOSED) {
                    link.close();
                }
                link.free();
            }
            case LINK_FINAL -> links--;
            case LINK_FLOW -> {
                if (event.getLink().getContext() instanceof LinkHandler h) {
                    h.onFlow();
                }
            }
            case DELIVERY -> {
                Link link = event.getLink();
                Session session = link.getSession();
                if (link instanceof Receiver
                        && session.getLocalState() == EndpointState.ACTIVE
                        && session.getIncomingBytes() > session.getIncomingCapacity()) {
                    // the client sent past the session's incoming window (AMQP 1.0 2.5.6): the session ends, what
                    // still comes on its links is dropped unread (AMQP-19)
                    endSession(
                            session,
                            new ErrorCondition(
                                    AmqpErrors.WINDOW_VIOLATION,
                                    "The session's incoming "
                                            + "window of " + limits.sessionWindow() + " frames was exceeded: "
                                            + session.getIncomingBytes() + " bytes unread."));
                }
                if (link instanceof Receiver && !owner.isAuthorized() && unauthenticatedBytesExceeded(link)) {
                    return;
                }
                if (link.getContext() instanceof LinkHandler h) {
                    h.onDelivery(event.getDelivery());
                    if (link.getContext() != h) {
                        handlers.remove(h); // the handler detached its link (a delivery cut off)
                    }
                } else if (link instanceof Receiver receiver) {
                    // a link the endpoint detached (a delivery cut off at its size): the rest is dropped unread
                    Deliveries.discard(receiver);
                }
            }
            default -> {
                // other events need no answer
            }
        }
    }

    /**
     * Before a token, what the connection's sessions hold unread (incomplete deliveries) may not pass the
     * limit in total (RES-7): past it the connection is closed with {@code amqp:resource-limit-exceeded}.
     */
    private boolean unauthenticatedBytesExceeded(Link link) {
        Connection connection = link.getSession().getConnection();
        long total = 0;
        for (Session s = connection.sessionHead(ALL, ALL); s != null; s = s.next(ALL, ALL)) {
            total += s.getIncomingBytes();
        }
        if (total <= limits.maxUnauthenticatedBytes()) {
            return false;
        }
        owner.closeWith(new ErrorCondition(
                AmqpErrors.RESOURCE_LIMIT_EXCEEDED,
                "The connection holds " + total + " bytes of incomplete deliveries before any token was accepted, "
                        + "more than the " + limits.maxUnauthenticatedBytes() + " allowed; put a token on $cbs "
                        + "first."));
        return true;
    }

    private static final EnumSet<EndpointState> ALL = EnumSet.allOf(EndpointState.class);

    /**
     * The most links a connection may hold before a token is accepted (RES-7): the SDKs need the two of {@code $cbs}
     * and perhaps a transaction coordinator (which needs no token, AMQP-9); every other attach is refused without a
     * token anyway. Without this bound, 500 unauthenticated connections with 1,000 links each (about 1.2 KB a link)
     * exhausted a 512 MB heap.
     */
    static final int UNAUTHENTICATED_LINK_MAX = 16;

    /** Detaches every active link with {@code error} (the goodbye's first half). */
    void detachAll(ErrorCondition error) {
        for (LinkHandler h : List.copyOf(handlers)) {
            if (h instanceof LinkBound bound && bound.link().getLocalState() == EndpointState.ACTIVE) {
                bound.link().setCondition(error);
                bound.link().close();
            }
        }
    }

    /** Ends every link's handler: the connection ends. */
    void endAll() {
        for (LinkHandler h : List.copyOf(handlers)) {
            if (h instanceof LinkBound bound) {
                bound.link().setContext(null);
            }
            h.onClosed();
        }
        handlers.clear();
    }

    /** Restarts the outgoing links once the socket takes output again. */
    void resumeSenders() {
        for (LinkHandler h : List.copyOf(handlers)) {
            h.onFlow();
        }
    }

    private void endLinks(Session session) {
        for (LinkHandler h : List.copyOf(handlers)) {
            if (h instanceof LinkBound bound && bound.link().getSession() == session) {
                end(bound.link());
            }
        }
    }

    /** Ends {@code session} with {@code error}: its links' handlers end, what arrives on them is dropped. */
    private void endSession(Session session, ErrorCondition error) {
        endLinks(session);
        session.setCondition(error);
        session.close();
    }

    private void end(Link link) {
        if (link.getContext() instanceof LinkHandler h) {
            link.setContext(null);
            handlers.remove(h);
            h.onClosed();
        }
    }
}
