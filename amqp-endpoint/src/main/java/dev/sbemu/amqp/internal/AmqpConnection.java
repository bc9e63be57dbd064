package dev.sbemu.amqp.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Collector;
import org.apache.qpid.proton.engine.Connection;
import org.apache.qpid.proton.engine.EndpointState;
import org.apache.qpid.proton.engine.Event;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Sasl;
import org.apache.qpid.proton.engine.SaslListener;
import org.apache.qpid.proton.engine.Session;
import org.apache.qpid.proton.engine.Transport;
import org.apache.qpid.proton.engine.TransportException;

/**
 * One client connection: its socket, proton-j's transport, connection and event collector. Bytes in are fed
 * to the transport, the events that come out are handed to the {@link LinkRouter}, and what the transport has
 * to send is written back. SASL offers ANONYMOUS only, as the service does for CBS clients; authentication is
 * a CBS token (see {@link CbsNode}). Loop thread only.
 */
final class AmqpConnection {
    private static final Logger LOG = Logger.getLogger(AmqpConnection.class.getName());
    private static final int MAX_FRAME_SIZE = 256 * 1024;

    private final EventLoop loop;
    private final SocketChannel channel;
    private final Transport transport = Transport.Factory.create();
    private final Connection connection = Connection.Factory.create();
    private final Collector collector = Collector.Factory.create();
    private final LinkRouter router;
    private final long openDeadline;
    private final List<LinkHandler> handlers = new ArrayList<>();
    private SelectionKey key;
    private boolean socketClosed;
    private boolean authorized;

    AmqpConnection(EventLoop loop, SocketChannel channel, EndpointContext context) {
        this.loop = loop;
        this.channel = channel;
        this.router = new LinkRouter(this, context);
        this.openDeadline = System.currentTimeMillis() + context.handshakeTimeout().toMillis();
        transport.setMaxFrameSize(MAX_FRAME_SIZE);
        Sasl sasl = transport.sasl();
        sasl.server();
        sasl.allowSkip(true);
        sasl.setMechanisms("ANONYMOUS");
        sasl.setListener(new SaslListener() {
            @Override
            public void onSaslMechanisms(Sasl s, Transport t) {
            }

            @Override
            public void onSaslInit(Sasl s, Transport t) {
                s.done(Sasl.SaslOutcome.PN_SASL_OK);
            }

            @Override
            public void onSaslChallenge(Sasl s, Transport t) {
            }

            @Override
            public void onSaslResponse(Sasl s, Transport t) {
            }

            @Override
            public void onSaslOutcome(Sasl s, Transport t) {
            }
        });
        connection.collect(collector);
        transport.bind(connection);
    }

    void register(SelectionKey key) {
        this.key = key;
    }

    EventLoop loop() {
        return loop;
    }

    boolean isAuthorized() {
        return authorized;
    }

    void authorize() {
        authorized = true;
    }

    /** Keeps {@code handler} to tell it when the connection ends. */
    void track(LinkHandler handler) {
        handlers.add(handler);
    }

    void untrack(LinkHandler handler) {
        handlers.remove(handler);
    }

    void onReadable() {
        try {
            while (true) {
                int capacity = transport.capacity();
                if (capacity <= 0) {
                    break;
                }
                ByteBuffer tail = transport.tail();
                int read = channel.read(tail);
                if (read < 0) {
                    transport.close_tail();
                    break;
                }
                if (read == 0) {
                    break;
                }
                transport.process();
            }
        } catch (TransportException e) {
            // Garbage on the wire: proton has queued a close frame with the error; send it and hang up.
            LOG.log(Level.FINE, "sbemu AMQP endpoint: protocol error, closing the connection", e);
            transport.close_tail();
        } catch (IOException e) {
            transport.close_tail();
        }
        dispatch();
        flush();
    }

    /** Runs after each round of the loop: events raised by tasks, then output. */
    void afterWork() {
        dispatch();
        flush();
    }

    long tick(long now) {
        if (socketClosed) {
            return 0;
        }
        if (connection.getRemoteState() == EndpointState.UNINITIALIZED) {
            if (now >= openDeadline) {
                LOG.fine("sbemu AMQP endpoint: no AMQP open in time, dropping the connection");
                abort();
                return 0;
            }
            return openDeadline;
        }
        try {
            long next = transport.tick(now);
            flush();
            return next;
        } catch (TransportException e) {
            abort();
            return 0;
        }
    }

    private void dispatch() {
        Event event;
        while ((event = collector.peek()) != null) {
            try {
                handle(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "sbemu AMQP endpoint: failed on " + event.getType(), e);
                connection.setCondition(new ErrorCondition(AmqpErrors.INTERNAL_ERROR, e.toString()));
                connection.close();
            }
            collector.pop();
        }
    }

    private void handle(Event event) {
        switch (event.getType()) {
            case CONNECTION_REMOTE_OPEN -> {
                connection.setContainer("sbemu");
                connection.open();
            }
            case CONNECTION_REMOTE_CLOSE -> {
                endAll();
                connection.close();
            }
            case SESSION_REMOTE_OPEN -> {
                Session session = event.getSession();
                if (session.getLocalState() == EndpointState.UNINITIALIZED) {
                    session.open();
                }
            }
            case SESSION_REMOTE_CLOSE -> {
                Session session = event.getSession();
                for (LinkHandler h : List.copyOf(handlers)) {
                    if (h instanceof LinkBound bound && bound.link().getSession() == session) {
                        end(bound.link());
                    }
                }
                session.close();
            }
            case LINK_REMOTE_OPEN -> {
                Link link = event.getLink();
                if (link.getLocalState() == EndpointState.UNINITIALIZED) {
                    router.attach(link);
                }
            }
            case LINK_REMOTE_CLOSE, LINK_REMOTE_DETACH -> {
                Link link = event.getLink();
                end(link);
                if (link.getLocalState() != EndpointState.CLOSED) {
                    link.close();
                }
            }
            case LINK_FLOW -> {
                if (event.getLink().getContext() instanceof LinkHandler h) {
                    h.onFlow();
                }
            }
            case DELIVERY -> {
                if (event.getLink().getContext() instanceof LinkHandler h) {
                    h.onDelivery(event.getDelivery());
                }
            }
            case TRANSPORT_CLOSED -> closeSocket();
            default -> {
                // other events need no answer
            }
        }
    }

    private void end(Link link) {
        if (link.getContext() instanceof LinkHandler h) {
            link.setContext(null);
            handlers.remove(h);
            h.onClosed();
        }
    }

    private void endAll() {
        for (LinkHandler h : List.copyOf(handlers)) {
            if (h instanceof LinkBound bound) {
                bound.link().setContext(null);
            }
            h.onClosed();
        }
        handlers.clear();
    }

    void flush() {
        if (socketClosed) {
            return;
        }
        try {
            while (true) {
                int pending = transport.pending();
                if (pending < 0) {
                    closeSocket();
                    return;
                }
                if (pending == 0) {
                    break;
                }
                ByteBuffer head = transport.head();
                int written = channel.write(head);
                if (written > 0) {
                    transport.pop(written);
                }
                if (written == 0) {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
            }
            if (key != null && key.isValid()) {
                key.interestOps(SelectionKey.OP_READ);
            }
        } catch (IOException e) {
            abort();
        }
    }

    /** Drops the connection at once: its links end, its socket closes. */
    void abort() {
        endAll();
        closeSocket();
    }

    private void closeSocket() {
        if (socketClosed) {
            return;
        }
        socketClosed = true;
        endAll();
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        loop.removed(this);
    }

    /** A handler that belongs to one link. */
    interface LinkBound extends LinkHandler {
        Link link();
    }
}
