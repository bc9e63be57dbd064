package dev.sbemu.amqp.internal.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLException;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.SenderSettleMode;
import org.apache.qpid.proton.engine.Collector;
import org.apache.qpid.proton.engine.Connection;
import org.apache.qpid.proton.engine.EndpointState;
import org.apache.qpid.proton.engine.Event;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Sasl;
import org.apache.qpid.proton.engine.Sender;
import org.apache.qpid.proton.engine.SslDomain;
import org.apache.qpid.proton.engine.Transport;
import org.apache.qpid.proton.engine.TransportException;
import org.apache.qpid.proton.engine.impl.TransportInternal;

/**
 * One client connection: its socket, proton-j's transport, connection and event collector. The proton-j side is built
 * when the first bytes say AMQP or a WebSocket upgrade for AMQP ({@link ProtocolSniffer}, {@link WebSocketLayer}; at
 * once on the TLS port, where the WebSocket layer tells the two apart after TLS): an HTTP
 * request is handed over before that ({@link HttpHandOver}) and costs no transport. Bytes in are fed to the transport;
 * the connection, session, link and delivery events that come out go to its {@link ProtonEvents} (attaches to the
 * {@link AttachHandler}, a link's flow and deliveries to the {@link LinkHandler} in its context); what the transport
 * has to send is written back. The SASL layer is set up by an {@link Authentication}; a connection not authorized (by SASL or a CBS
 * token) within the handshake timeout is closed (AMQP-13). The {@link Limits} apply (AMQP-19). Loop thread only.
 */
public final class AmqpConnection {
    private static final Logger LOG = Logger.getLogger(AmqpConnection.class.getName());
    /** How long a connection the endpoint closed waits for the client to read the close and hang up. */
    private static final long CLOSE_GRACE_MILLIS = 2_000;

    private final EventLoop loop;
    private final SocketChannel channel;
    private final Limits options;
    private final ConnectionSetup setup;
    private final ProtonEvents events;
    /** proton-j's side, null until the first bytes say AMQP ({@link #startAmqp}). */
    private Transport transport;

    private Connection connection;
    private Collector collector;
    /** Past the connection limit: its open is answered with a close, whatever it speaks (AMQP-19, AMQP-12). */
    private final boolean refused;

    private final long authDeadline;
    /** When bytes last came in, on the loop's clock. */
    private long lastInput;

    private SelectionKey key;
    private boolean socketClosed;
    private boolean authorized;
    private volatile Object grants;
    /** The name of the namespace the connection's credentials chose, null until one is accepted. */
    private volatile String namespace;
    /** The first bytes while they may still be a WebSocket upgrade request, else null. */
    private ByteBuffer sniffed;
    /** When the loop accepted the connection (wall clock; shown by {@link Traffic}). */
    private final Instant openedAt = Instant.now();
    /** A number for the connection, unique in the process (shown by {@link Traffic}). */
    private final long id = IDS.incrementAndGet();

    private static final AtomicLong IDS = new AtomicLong();
    /** Set once the endpoint closed the connection: input is discarded until the client hangs up or this passes. */
    private long hangUpAt;

    private boolean hangingUp;
    private boolean logged;
    /** SASL authentication failed: the client's abort that follows is not worth a log line. */
    private boolean saslRefused;

    private volatile boolean backedUp;
    private final String peer;
    /** Whether the connection came to the TLS port. */
    private final boolean tls;
    /** Whether the connection began a TLS handshake on a plain port (AMQP-26). */
    private boolean tlsSniffed;

    /**
     * @param refused past the connection limit: its open is answered with a close
     * @param tls the TLS port's SSL domain for a connection accepted there (AMQP over TLS, JMS-30: proton-j's SSL layer
     *     under SASL and AMQP, with the JDK's {@code SSLEngine}), or null for plain AMQP
     */
    public AmqpConnection(
            EventLoop loop, SocketChannel channel, boolean refused, SslDomain tls, ConnectionSetup setup) {
        this.loop = loop;
        this.channel = channel;
        this.options = setup.limits();
        this.setup = setup;
        this.refused = refused;
        this.events =
                new ProtonEvents(this, setup.limits(), setup.links().apply(this), setup.offeredCapabilities(), refused);
        this.authDeadline = loop.clock() + options.handshakeTimeout().toMillis();
        this.lastInput = loop.clock();
        String remote;
        try {
            remote = String.valueOf(channel.getRemoteAddress());
        } catch (IOException e) {
            remote = "?";
        }
        this.peer = remote;
        this.tls = tls != null;
        if (tls != null) {
            // no HTTP on the TLS port: the first bytes are a TLS record, anything else fails the handshake
            startAmqp(tls, false);
        }
    }

    /**
     * Builds proton-j's transport (with its SASL layer and, for {@code tls}, its SSL layer), connection and collector:
     * at once on the TLS port, else once the first bytes say AMQP.
     */
    private void startAmqp(SslDomain tls, boolean webSocket) {
        transport = new DeliveryIdTolerantTransport();
        connection = Connection.Factory.create();
        collector = Collector.Factory.create();
        transport.setMaxFrameSize(options.maxFrameSize());
        transport.setChannelMax(options.channelMax());
        transport.setIdleTimeout(
                (int) Math.min(Integer.MAX_VALUE, options.idleTimeout().toMillis()));
        Sasl sasl = transport.sasl();
        sasl.server();
        sasl.allowSkip(true);
        setup.authentication().configure(sasl, this);
        if (webSocket || tls != null) {
            // under TLS, over SASL: on the TLS port it sniffs the decrypted bytes, plain AMQP passes through (AMQP-26)
            ((TransportInternal) transport)
                    .addTransportLayer(new WebSocketLayer(tls != null, options.maxFrameSize(), this::isAuthorized));
        }
        if (tls != null) {
            // after the settings and SASL (each initialises the transport): the SSL layer wraps SASL and AMQP
            transport.ssl(tls);
        }
        connection.collect(collector);
        transport.bind(connection);
    }

    /**
     * Loop thread: this connection and its active links as {@link Traffic} shows them, at most {@code maxLinks} links;
     * {@code truncated[0]} is set when some were left out.
     */
    Traffic.Connection describe(int maxLinks, boolean[] truncated) {
        loop.checkThread();
        List<Traffic.Link> links = new ArrayList<>();
        String containerId = null;
        String hostname = null;
        if (connection != null) {
            containerId = Traffic.clip(connection.getRemoteContainer());
            hostname = Traffic.clip(connection.getRemoteHostname());
            EnumSet<EndpointState> active = EnumSet.of(EndpointState.ACTIVE);
            for (Link link = connection.linkHead(active, active); link != null; link = link.next(active, active)) {
                if (links.size() >= maxLinks) {
                    truncated[0] = true;
                    break;
                }
                links.add(describe(link));
            }
        }
        return new Traffic.Connection(
                id, peer, containerId, hostname, namespace, authorized, tls, openedAt.toString(), links);
    }

    private static Traffic.Link describe(Link link) {
        boolean clientReceives = link instanceof Sender;
        String address = null;
        String sessionId = null;
        if (clientReceives && link.getRemoteSource() instanceof Source source) {
            address = source.getAddress();
            if (source.getFilter() != null && source.getFilter().get(SESSION_FILTER) != null) {
                sessionId = Traffic.clip(String.valueOf(source.getFilter().get(SESSION_FILTER)));
            }
        } else if (!clientReceives && link.getRemoteTarget() instanceof Target target) {
            address = target.getAddress();
        }
        String mode = !clientReceives
                ? null
                : link.getRemoteSenderSettleMode() == SenderSettleMode.SETTLED ? "RECEIVE_AND_DELETE" : "PEEK_LOCK";
        return new Traffic.Link(
                Traffic.clip(link.getName()),
                clientReceives ? "receiver" : "sender",
                Traffic.clip(address),
                mode,
                sessionId,
                link.getCredit(),
                link.getUnsettled());
    }

    /** The key of a session receiver's source filter: the session it asks for (null: the next available). */
    private static final Symbol SESSION_FILTER = Symbol.valueOf("com.microsoft:session-filter");

    /** The client's address, for log lines. */
    public String peer() {
        return peer;
    }

    /** SASL authentication failed: the client's abort that follows is not worth more than a fine line (JMS-1). */
    public void saslRefused() {
        saslRefused = true;
    }

    void register(SelectionKey key) {
        this.key = key;
    }

    public EventLoop loop() {
        return loop;
    }

    public boolean isAuthorized() {
        return authorized;
    }

    public void authorize() {
        if (!authorized) {
            authorized = true;
            if (!socketClosed) {
                loop.authenticated();
            }
        }
    }

    /**
     * What the security side keeps for this connection (the grants of the tokens and keys it presented), opaque to
     * the transport; set on the loop thread, read on any.
     */
    public Object grants() {
        return grants;
    }

    /** Sets {@link #grants()}; loop thread only. */
    public void grants(Object value) {
        grants = value;
    }

    /** The host name the client's open named, or null before the open or when it named none. */
    public String remoteHostname() {
        return connection == null ? null : connection.getRemoteHostname();
    }

    /**
     * Binds the connection to the namespace {@code name} its credentials chose (NS-2): true when it is bound to it now,
     * false when it was bound to another one before (a connection serves one namespace).
     */
    public synchronized boolean select(String name) {
        if (namespace == null) {
            namespace = name;
        }
        return namespace.equals(name);
    }

    /** The namespace the connection's credentials chose, or null before any was accepted (the default's then). */
    public String namespace() {
        return namespace;
    }

    /** True while the socket does not take the output as fast as it comes: senders hold back (AMQP-19). */
    public boolean backedUp() {
        return backedUp;
    }

    /** Timers on the loop's clock (a session accept's timeout); loop thread only. */
    private final Timers timers = new Timers();

    /**
     * Loop thread: runs {@code action} once {@code delay} has passed on the loop's clock, unless cancelled or the
     * connection ended first.
     */
    public Timers.Timer after(Duration delay, Runnable action) {
        loop.checkThread();
        return timers.at(loop.clock() + delay.toMillis(), action);
    }

    /** Keeps {@code handler} to tell it when the connection ends. */
    public void track(LinkHandler handler) {
        events.track(handler);
    }

    public void untrack(LinkHandler handler) {
        events.untrack(handler);
    }

    /** The most bytes one connection reads in one round of the loop: the others get their turn (AMQP-19). */
    private static final int READ_PER_ROUND = 1024 * 1024;

    void onReadable() {
        loop.checkThread();
        if (hangingUp) {
            discardInput();
            return;
        }
        int total = 0;
        try {
            if (transport == null && !firstBytes()) {
                return;
            }
            while (total < READ_PER_ROUND) {
                int capacity = transport.capacity();
                if (capacity <= 0) {
                    break;
                }
                // read into the loop's buffer first: proton-j's own is allocated only for bytes that came
                ByteBuffer in = loop.readBuffer();
                in.limit(Math.min(capacity, in.capacity()));
                int read = channel.read(in);
                if (read < 0) {
                    transport.close_tail();
                    break;
                }
                if (read == 0) {
                    break;
                }
                in.flip();
                transport.tail().put(in);
                total += read;
                lastInput = loop.clock();
                transport.process();
                // the events of each chunk are handled before more is read: a delivery past its link's limit is cut
                // off as it grows, not after the socket ran dry
                dispatch();
                if (socketClosed || hangingUp) {
                    return;
                }
            }
        } catch (IOException e) {
            if (transport == null) {
                closeSocket(); // gone before a word
                return;
            }
            transport.close_tail();
        } catch (RuntimeException | StackOverflowError e) {
            // Garbage on the wire (proton has queued a close frame for what its parser refuses) or a frame proton's
            // engine cannot take (an unknown handle, a delivery id out of sequence, a nesting too deep).
            protocolError(e);
            return;
        }
        dispatch();
        flush();
    }

    /**
     * Reads the connection's first bytes, at most {@value ProtocolSniffer#FIRST_READ} at first: an HTTP request is
     * handed over, a WebSocket upgrade to {@value WebSocketUpgrade#PATH} (read on until the request line says so or
     * not) and anything else are AMQP, which goes to a transport built now.
     *
     * @return whether the connection goes on as AMQP (false: nothing came yet, or it was handed over or closed)
     */
    private boolean firstBytes() throws IOException {
        ByteBuffer head = sniffed != null ? sniffed : ByteBuffer.allocate(ProtocolSniffer.FIRST_READ);
        int read = channel.read(head);
        if (read < 0) {
            closeSocket(); // gone before a word
            return false;
        }
        if (read == 0) {
            return false;
        }
        boolean webSocket = false;
        if (ProtocolSniffer.isTlsStart(head.get(0)) && setup.tls() != null) {
            // TLS on a plain port (the SDKs' wss:// to the connection string's port): served as on the TLS port, whose
            // WebSocket layer tells AMQP from an upgrade once the handshake is done (AMQP-26)
            head.flip();
            startAmqp(setup.tls(), false);
            tlsSniffed = true;
            lastInput = loop.clock();
            transport.tail().put(head);
            transport.process();
            dispatch();
            return !socketClosed && !hangingUp;
        }
        if (ProtocolSniffer.isHttpStart(head.get(0))) {
            int verdict = ProtocolSniffer.webSocketStart(head);
            if (verdict == 0) {
                // may still be a WebSocket upgrade: read on (a client that stalls here meets the handshake timeout)
                if (sniffed == null) {
                    sniffed = ByteBuffer.allocate(ProtocolSniffer.WEBSOCKET_REQUEST.length());
                    sniffed.put(head.flip());
                }
                return false;
            }
            webSocket = verdict > 0;
        }
        sniffed = null;
        head.flip();
        // HTTP goes to the HTTP side even past the AMQP limits (RES-7): /health must answer during a flood of
        // connections, and the HTTP side bounds its own (RES-3); an AMQP connection past them is refused (AMQP-12)
        if (!webSocket && ProtocolSniffer.isHttpStart(head.get(0)) && handOverHttp(head)) {
            return false;
        }
        startAmqp(null, webSocket);
        lastInput = loop.clock();
        transport.tail().put(head);
        transport.process();
        dispatch();
        return !socketClosed && !hangingUp;
    }

    /**
     * The connection's first bytes ({@code head}) are an HTTP request line: the socket and {@code head} go to the HTTP
     * side, which serves them; this connection ends without a word on the wire.
     *
     * @return false when no HTTP side takes it (the bytes then go to proton, which refuses them as AMQP)
     */
    private boolean handOverHttp(ByteBuffer head) {
        HttpHandOver splice = setup.http().get();
        if (splice == null) {
            return false;
        }
        socketClosed = true;
        if (key != null) {
            key.cancel();
        }
        loop.removed(this);
        splice.handOver(channel, head);
        return true;
    }

    /** Malformed input: logged once for the connection, briefly (AMQP-13); the connection is closed. */
    private void protocolError(Throwable e) {
        if (!logged && (tls || tlsSniffed) && e instanceof TransportException && e.getCause() instanceof SSLException) {
            // a client that does not trust the certificate, or that speaks plain AMQP to the TLS port (JMS-31): the
            // connection ends without an AMQP word (no AMQP was spoken), the others go on
            logged = true;
            LOG.log(
                    Level.INFO,
                    "sbemu AMQP endpoint: the TLS handshake with " + peer + " failed: "
                            + e.getCause().getMessage());
        }
        if (!logged && saslRefused) {
            logged = true;
            LOG.log(Level.FINE, "sbemu AMQP endpoint: the connection from " + peer + " ends after its SASL failure", e);
        }
        if (!logged) {
            logged = true;
            LOG.log(
                    Level.INFO,
                    "sbemu AMQP endpoint: closing the connection from " + peer + " after malformed input: " + e);
            LOG.log(Level.FINE, "sbemu AMQP endpoint: the malformed input's failure", e);
        }
        endAll();
        try {
            if (connection.getLocalState() != EndpointState.CLOSED) {
                connection.setCondition(new ErrorCondition(AmqpErrors.FRAMING_ERROR, "Malformed input: " + e));
                connection.close();
            }
            flushQuietly();
        } catch (RuntimeException ignored) {
            // proton's state is broken: drop the socket without a word
        }
        hangUp();
    }

    /** Loop: one connection's handling failed unexpectedly; it is dropped, the others go on (AMQP-13). */
    void failed(Throwable e) {
        if (!logged) {
            logged = true;
            if (e instanceof RuntimeException || e instanceof AssertionError) {
                LOG.log(
                        Level.WARNING,
                        "sbemu AMQP endpoint: dropping the connection from " + peer + " after an unexpected failure",
                        e);
            } else {
                LOG.log(Level.WARNING, "sbemu AMQP endpoint: dropping the connection from " + peer + " after " + e);
            }
        }
        abort();
    }

    /** Runs after each round of the loop: events raised by tasks, then output. */
    void afterWork() {
        if (socketClosed || hangingUp || transport == null) {
            return;
        }
        dispatch();
        flush();
    }

    /**
     * The connection's timers, on the loop's clock ({@link EventLoop#clock}, milliseconds): the hang-up grace, the
     * handshake timeout, the idle timeout (closed with {@code amqp:connection:forced}, as the service closes an
     * inactive connection), proton-j's heartbeats. Returns the next deadline, or 0 for none.
     */
    long tick(long now) {
        if (socketClosed) {
            return 0;
        }
        if (hangingUp) {
            if (now >= hangUpAt) {
                closeSocket();
                return 0;
            }
            return hangUpAt;
        }
        if (!authorized && now >= authDeadline) {
            if (!opened()) {
                LOG.fine("sbemu AMQP endpoint: no AMQP open in time, dropping the connection");
                abort();
            } else {
                closeWith(new ErrorCondition(
                        AmqpErrors.UNAUTHORIZED,
                        "No valid token was put on $cbs within "
                                + options.handshakeTimeout().toMillis()
                                + " ms of connecting; the connection is closed."));
            }
            return 0;
        }
        long authAt = authorized ? Long.MAX_VALUE : authDeadline;
        if (!opened()) {
            return authAt;
        }
        long timerAt = timers.runDue(now);
        if (socketClosed || hangingUp) {
            return 0;
        }
        authAt = Math.min(authAt, timerAt);
        long idleAt = lastInput + options.idleTimeout().toMillis();
        if (now >= idleAt) {
            // before proton-j's own idle check, which would close with amqp:resource-limit-exceeded (non-transient)
            closeWith(new ErrorCondition(
                    AmqpErrors.CONNECTION_FORCED,
                    "The connection was inactive for more than " + "the allowed "
                            + options.idleTimeout().toMillis() + " milliseconds and is closed by sbemu."));
            return 0;
        }
        long next = transport.tick(now);
        flush();
        return Math.min(next == 0 ? Long.MAX_VALUE : next, Math.min(authAt, idleAt));
    }

    /** Whether the client's AMQP open came (not before its first bytes). */
    private boolean opened() {
        return connection != null && connection.getRemoteState() != EndpointState.UNINITIALIZED;
    }

    /** Closes the connection with {@code error} and hangs up once the client read it (or after a grace period). */
    void closeWith(ErrorCondition error) {
        endAll();
        if (connection.getLocalState() != EndpointState.CLOSED) {
            if (connection.getLocalState() == EndpointState.UNINITIALIZED) {
                connection.setContainer("sbemu");
                connection.open();
            }
            connection.setCondition(error);
            connection.close();
        }
        flushQuietly();
        hangUp();
    }

    /**
     * The endpoint closes: every link is detached and the connection closed with an error that tells the SDK's
     * clients at once that the endpoint is gone (AMQP-14), or, when {@code forced} (a server being stopped, SRV-7),
     * with {@code amqp:link:detach-forced} and {@code amqp:connection:forced}, which the SDKs retry.
     */
    void goodbye(boolean forced) {
        if (socketClosed || hangingUp) {
            return;
        }
        ErrorCondition error = forced ? AmqpErrors.serverStopping() : AmqpErrors.shutdown();
        ErrorCondition linkError = forced ? AmqpErrors.linkOfServerStopping() : error;
        if (!opened() || connection.getLocalState() == EndpointState.CLOSED) {
            abort();
            return;
        }
        events.detachAll(linkError);
        closeWith(error);
    }

    /** Stops reading into proton; the socket is closed when the client hangs up or the grace period passes. */
    private void hangUp() {
        if (hangingUp || socketClosed) {
            return;
        }
        hangingUp = true;
        hangUpAt = loop.clock() + CLOSE_GRACE_MILLIS;
        flushQuietly();
    }

    private void discardInput() {
        try {
            int read;
            do {
                ByteBuffer scratch = loop.readBuffer();
                read = channel.read(scratch);
            } while (read > 0);
            if (read < 0) {
                closeSocket();
            }
        } catch (IOException e) {
            closeSocket();
        }
    }

    private void dispatch() {
        Event event;
        while ((event = collector.peek()) != null) {
            try {
                handle(event);
            } catch (RuntimeException e) {
                collector.pop();
                failed(new IllegalStateException("failed on " + event.getType(), e));
                return;
            }
            collector.pop();
            if (socketClosed || hangingUp) {
                return;
            }
        }
    }

    private void handle(Event event) {
        switch (event.getType()) {
            case TRANSPORT_ERROR -> {
                // proton-j's parser refused the input and queued a close frame with the error (AMQP-13)
                if (!logged) {
                    logged = true;
                    // a client whose SASL authentication failed aborts: not worth more than a fine line (JMS-1)
                    LOG.log(
                            saslRefused ? Level.FINE : Level.INFO,
                            "sbemu AMQP endpoint: closing the connection from " + peer + " after malformed input: "
                                    + transport.getCondition());
                }
            }
            case TRANSPORT_CLOSED -> closeSocket();
            default -> events.handle(event);
        }
    }

    private void endAll() {
        events.endAll();
    }

    public void flush() {
        loop.checkThread();
        if (socketClosed) {
            return;
        }
        try {
            writeOut();
        } catch (IOException e) {
            abort();
        }
    }

    private void flushQuietly() {
        try {
            writeOut();
        } catch (IOException e) {
            closeSocket();
        }
    }

    private void writeOut() throws IOException {
        if (socketClosed || transport == null) {
            return;
        }
        while (true) {
            int pending = transport.pending();
            if (pending < 0) {
                if (hangingUp) {
                    // the close frame is out: half-close and read until the client hangs up, so it reads it
                    if (key != null && key.isValid()) {
                        key.interestOps(SelectionKey.OP_READ);
                    }
                    channel.shutdownOutput();
                    return;
                }
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
                backedUp = true; // the socket takes no more: the client does not read (fast enough)
                key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                return;
            }
        }
        boolean wasBackedUp = backedUp;
        backedUp = false;
        if (key != null && key.isValid()) {
            key.interestOps(SelectionKey.OP_READ);
        }
        if (wasBackedUp && !hangingUp) {
            events.resumeSenders();
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
}
