package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.LinkBound;
import dev.sbemu.amqp.internal.transport.Timers;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnknownDescribedType;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.EndpointState;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Sender;

/**
 * A session receiver's attach (a source filter {@code com.microsoft:session-filter}): the next-available-session state
 * machine. The session is locked, then the attach is answered with it (its id in the echoed filter, its lock's expiry
 * in {@code com.microsoft:locked-until-utc}). The next available session is waited for without a thread: when none is
 * free, the accept registers {@link Namespace#whenSessionAvailable} and tries again when woken, until the client's
 * {@code com.microsoft:timeout} (a timer of the connection), then refuses with {@code com.microsoft:timeout} (AMQP-6).
 * With a delay scripted (AMQP-18) the accept, which a delay may hold, runs on a worker. The locked session is held in
 * {@link HeldSessions}. One per connection; loop thread only.
 */
final class SessionAccept {
    private static final Logger LOG = Logger.getLogger(SessionAccept.class.getName());
    static final Symbol SESSION_FILTER = Symbol.valueOf("com.microsoft:session-filter");
    static final Symbol LOCKED_UNTIL_UTC = Symbol.valueOf("com.microsoft:locked-until-utc");
    static final Symbol TIMEOUT = Symbol.valueOf("com.microsoft:timeout");
    /** .NET ticks (100 ns since 0001-01-01) at the Unix epoch. */
    private static final long EPOCH_TICKS = 621_355_968_000_000_000L;

    /** The service's hold without a {@code com.microsoft:timeout} (AMQP-6). */
    private static final Duration DEFAULT_ACCEPT_WAIT = Duration.ofSeconds(65);

    private final LinkRouter router;
    private final LinkFactory links;
    private final AmqpConnection connection;

    SessionAccept(LinkRouter router, LinkFactory links) {
        this.router = router;
        this.links = links;
        this.connection = router.connection();
    }

    /**
     * The session id a {@code com.microsoft:session-filter} asks for, null for the next available session: the Java,
     * JavaScript and Python SDKs send the id (or null) itself, the Go SDK wraps it in a described value (descriptor
     * {@code 0x137000000C}).
     */
    static String sessionIdOf(Object value) {
        Object id = value instanceof DescribedType described ? described.getDescribed() : value;
        return id == null ? null : id.toString();
    }

    /**
     * Locks the session, then answers the attach. The next available session is waited for without a thread: when
     * none is free, the accept registers {@link Namespace#whenSessionAvailable} and tries again when woken, until the
     * client's timeout (a timer of the connection), then refuses with {@code com.microsoft:timeout} (AMQP-6). With a
     * delay scripted (AMQP-18) the accept, which a delay may hold, runs on a worker as any such call.
     */
    void accept(Sender sender, EntityPath entity, ReceiveMode mode, String sessionId) {
        PendingAttach pending = new PendingAttach(sender);
        sender.setContext(pending);
        connection.track(pending);
        Duration wait = acceptWait(
                sender.getRemoteProperties() == null
                        ? null
                        : sender.getRemoteProperties().get(TIMEOUT),
                links.settings().maxOperationTimeout());
        if (links.namespace().get().faults().delaysScripted()) {
            try {
                links.workers().execute(() -> acceptOnWorker(pending, sender, entity, mode, sessionId, wait));
            } catch (RejectedExecutionException e) {
                connection.untrack(pending);
                sender.setContext(null);
                router.refuse(sender, AmqpErrors.of(e));
            }
            return;
        }
        pending.timer = connection.after(wait, () -> {
            pending.timer = null;
            if (pending.end()) {
                refused(
                        pending,
                        sender,
                        AmqpErrors.of(new BrokerException.ServiceTimeout(
                                "No session available to accept on '" + entity + "' within " + wait + ".")));
            }
        });
        acceptOnLoop(pending, sender, entity, mode, sessionId);
    }

    /** Loop thread: one try of a session accept without waiting; registers for a wake-up when none was free. */
    private void acceptOnLoop(
            PendingAttach pending, Sender sender, EntityPath entity, ReceiveMode mode, String sessionId) {
        if (pending.ended) {
            return;
        }
        Namespace ns = links.namespace().get();
        SessionLock lock;
        try {
            lock = ns.acceptSessionIfAvailable(entity, sessionId);
            if (lock == null) {
                pending.wait = ns.whenSessionAvailable(
                        entity,
                        () -> connection.loop().execute(() -> {
                            pending.wait = null;
                            acceptOnLoop(pending, sender, entity, mode, sessionId);
                        }));
                return;
            }
        } catch (RuntimeException e) {
            if (pending.end()) {
                refused(pending, sender, AmqpErrors.of(e));
            }
            return;
        }
        if (!pending.end()) {
            ns.releaseSession(lock); // the link went meanwhile: the session is free again
            return;
        }
        links.heldSessions().hold(lock);
        attachSession(pending, sender, entity, mode, lock);
    }

    /** Loop thread: the accept failed or timed out: the attach is refused with {@code error}. */
    private void refused(PendingAttach pending, Sender sender, ErrorCondition error) {
        connection.untrack(pending);
        if (!pending.closed) {
            sender.setContext(null);
            router.refuse(sender, error);
        }
    }

    /**
     * How long a session accept waits: the client's {@code com.microsoft:timeout} in milliseconds, capped at the
     * endpoint's maximum (a client cannot hold a worker thread for ever); 65 s without one (AMQP-6, AMQP-19).
     */
    static Duration acceptWait(Object timeout, Duration max) {
        if (!(timeout instanceof Number n) || n.longValue() < 0) {
            return DEFAULT_ACCEPT_WAIT.compareTo(max) < 0 ? DEFAULT_ACCEPT_WAIT : max;
        }
        return n.longValue() >= max.toMillis() ? max : Duration.ofMillis(n.longValue());
    }

    private void acceptOnWorker(
            PendingAttach pending,
            Sender sender,
            EntityPath entity,
            ReceiveMode mode,
            String sessionId,
            Duration wait) {
        SessionLock lock;
        try {
            lock = links.namespace().get().acceptSession(entity, sessionId, wait);
        } catch (RuntimeException e) {
            ErrorCondition error = AmqpErrors.of(e);
            connection.loop().execute(() -> {
                connection.untrack(pending);
                if (!pending.closed) {
                    sender.setContext(null);
                    router.refuse(sender, error);
                }
            });
            return;
        }
        links.heldSessions().hold(lock);
        connection.loop().execute(() -> attachSession(pending, sender, entity, mode, lock));
    }

    /** Loop thread: the session is locked: the attach is answered with it (AMQP-6). */
    private void attachSession(
            PendingAttach pending, Sender sender, EntityPath entity, ReceiveMode mode, SessionLock lock) {
        {
            connection.untrack(pending);
            if (pending.closed || sender.getLocalState() != EndpointState.UNINITIALIZED) {
                links.heldSessions().drop(lock);
                links.namespace().get().releaseSession(lock);
                return;
            }
            Source local = (Source) sender.getRemoteSource();
            Map<Symbol, Object> echoed = new HashMap<>(local.getFilter());
            // in the form it came: the Go SDK (go-amqp) sends and reads it as a described value (AMQP-6)
            echoed.put(
                    SESSION_FILTER,
                    local.getFilter().get(SESSION_FILTER) instanceof DescribedType asked
                            ? new UnknownDescribedType(asked.getDescriptor(), lock.sessionId())
                            : lock.sessionId());
            local.setFilter(echoed);
            Map<Symbol, Object> properties = new HashMap<>();
            properties.put(LOCKED_UNTIL_UTC, ticks(lock.lockedUntil()));
            sender.setProperties(properties);
            router.open(sender, links.outgoing(connection, sender, entity, mode, lock));
        }
    }

    /**
     * A session receiver's attach, not answered while its session is being locked. Loop thread (but {@code closed},
     * which a worker's accept reads on the loop too).
     */
    private static final class PendingAttach implements LinkBound {
        private final Link link;
        private boolean closed;
        /** The accept is over: answered, refused, timed out or given up. */
        private boolean ended;
        /** The registered wait for a session, while one is registered. */
        private Namespace.ReceiveWait wait;
        /** The accept's timeout, while it runs. */
        private Timers.Timer timer;

        PendingAttach(Link link) {
            this.link = link;
        }

        @Override
        public Link link() {
            return link;
        }

        /** Ends the accept: true for the first caller, who answers the attach; the wait and the timer are dropped. */
        boolean end() {
            if (ended) {
                return false;
            }
            ended = true;
            if (timer != null) {
                timer.cancel();
                timer = null;
            }
            if (wait != null) {
                Namespace.ReceiveWait registered = wait;
                wait = null;
                try {
                    registered.cancel(); // passes the wake-up on if it came meanwhile
                } catch (RuntimeException e) {
                    LOG.fine(() -> "sbemu AMQP endpoint: cancelling a session wait failed: " + e);
                }
            }
            return !closed;
        }

        @Override
        public void onClosed() {
            closed = true;
            end(); // the client detached, or the connection ended: the accept is given up
        }
    }

    private static long ticks(Instant instant) {
        return EPOCH_TICKS + instant.getEpochSecond() * 10_000_000L + instant.getNano() / 100;
    }
}
