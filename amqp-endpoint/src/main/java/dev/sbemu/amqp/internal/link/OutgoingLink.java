package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.amqp.internal.transport.LinkBound;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import dev.sbemu.wire.AmqpMessages;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.messaging.Modified;
import org.apache.qpid.proton.amqp.messaging.Outcome;
import org.apache.qpid.proton.amqp.messaging.Rejected;
import org.apache.qpid.proton.amqp.messaging.Released;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Sender;

/**
 * A client's receiver: the broker sends an entity's messages on it as far as the client's link credit
 * allows. Messages already waiting when credit arrives are sent at once by the loop thread; otherwise the link
 * (its pump) registers a wait in the namespace and holds no thread: woken when a message may have come (one waiter
 * per message, oldest first), it tries again, on the loop thread (on a worker when a delay is scripted, AMQP-18), and
 * the loop thread puts what it took on the wire. A session link waits on its session the same way. The client's
 * dispositions (complete,
 * abandon, defer, dead-letter, in or out of a transaction) settle them in the broker. Peek-lock deliveries
 * carry the lock token as their tag and are settled by the broker once the outcome is applied (receiver
 * settle mode second), or rejected with the broker's error, e.g. {@code com.microsoft:message-lock-lost}.
 * A message the pump took but the loop could not send (the link closed, the credit was drained) goes back
 * to the entity without counting a delivery.
 */
public final class OutgoingLink implements LinkBound {
    private static final Logger LOG = Logger.getLogger(OutgoingLink.class.getName());
    /**
     * The most messages taken from the broker in one go: the socket's backlog is looked at between batches, so a
     * client that stops reading stops the taking after one batch (AMQP-19).
     */
    private static final int MAX_TAKE = 64;

    /** A delivery's context while the client's settlement of it is being applied (otherwise its lock token). */
    private static final Object SETTLING = new Object();

    private final ServedNamespace namespace;
    private final TransactionScope transactions;
    private final Workers workers;
    private final HeldSessions heldSessions;
    private final OpenReceivers receivers;
    private final AmqpConnection connection;
    private final Sender sender;
    private final EntityPath entity;
    private final ReceiveMode mode;
    private final SessionLock session;
    /** The client's settlements, which a scripted delay may hold off the loop thread. */
    private final HeldCalls settlements;
    // credit (the link's, as of the loop's last look) and outstanding (taken from the broker, not yet on the
    // wire) change together under this object's lock, so the pump never asks for more than the link can take.
    private int credit;
    private int outstanding;
    private boolean drain;
    private volatile boolean closed;
    private boolean pumping;
    private Thread pumpThread;
    /**
     * A link whose pump found nothing waits without a thread: registered in the namespace
     * ({@link dev.sbemu.core.Namespace#whenReceivable}, for a session link the session's) with {@code pumping} still
     * set, until the callback (or a wake, a close) ends the wait; {@code waitToken} names the current wait, so a late
     * callback of an ended one is ignored (AMQP-11).
     */
    private Namespace.ReceiveWait waiting;

    private Object waitToken;
    /**
     * The wait whose callback woke the pump, until the pump used the wake-up (it took messages, or registered again);
     * a pump that stops without using it passes it on ({@link #passOnWake}), as the namespace wakes one waiter per
     * message.
     */
    private Namespace.ReceiveWait woken;
    /** Run once the link is gone (a JMS topic consumer's subscription is deleted, JMS-14). */
    private Runnable whenClosed = () -> {};

    OutgoingLink(
            ServedNamespace namespace,
            TransactionScope transactions,
            Workers workers,
            HeldSessions heldSessions,
            OpenReceivers receivers,
            AmqpConnection connection,
            Sender sender,
            EntityPath entity,
            ReceiveMode mode,
            SessionLock session) {
        this.namespace = namespace;
        this.transactions = transactions;
        this.workers = workers;
        this.heldSessions = heldSessions;
        this.receivers = receivers;
        this.connection = connection;
        this.sender = sender;
        this.entity = entity;
        this.mode = mode;
        this.session = session;
        this.settlements = new HeldCalls(namespace, workers, connection.loop());
        receivers.opened(this);
    }

    @Override
    public Link link() {
        return sender;
    }

    /** Runs {@code action} once the link is gone, after its messages were given back. */
    public void whenClosed(Runnable action) {
        this.whenClosed = action;
    }

    @Override
    public void onFlow() {
        synchronized (this) {
            credit = sender.getCredit();
            if (sender.getDrain() && credit > 0 && !drain) {
                drain = true;
                wakePump();
            }
        }
        deliverReady();
        startPump();
    }

    /**
     * Loop thread: when no pump runs and nothing taken is still on its way, sends at once what the entity has
     * ready, up to the credit, so a receive whose messages are already waiting costs no round trip through a
     * worker thread (the pump is for waiting). A refusal ends the link with
     * its error, as in the pump. No pump can start meanwhile: only the loop thread starts one.
     */
    private void deliverReady() {
        int want;
        synchronized (this) {
            want = Math.min(credit, MAX_TAKE);
            if (pumping || closed || drain || outstanding != 0 || want <= 0 || connection.backedUp()) {
                return;
            }
        }
        List<BrokeredMessage> taken;
        try {
            taken = take(want, Duration.ZERO);
        } catch (RuntimeException e) {
            // reported as the pump reports it: a refusal may not come again (a scripted fault is used up)
            fail(e);
            return;
        }
        if (!taken.isEmpty()) {
            synchronized (this) {
                outstanding += taken.size();
            }
            deliver(taken);
        }
    }

    private List<BrokeredMessage> take(int want, Duration wait) {
        return session == null
                ? namespace.get().receive(entity, mode, want, wait)
                : namespace.get().receive(session, mode, want, wait);
    }

    private void startPump() {
        synchronized (this) {
            if (pumping || closed || (credit - outstanding <= 0 && !drain) || connection.backedUp()) {
                passOnWakeLater();
                return; // a backed-up socket restarts the link once it drains (AMQP-19)
            }
            pumping = true;
            if (namespace.get().faults().delaysScripted()) {
                startWorker();
                return;
            }
        }
        pump(true);
    }

    private synchronized void startWorker() {
        try {
            workers.execute(() -> pump(false));
        } catch (RejectedExecutionException e) {
            pumping = false;
            passOnWakeLater();
            fail(e); // every worker is busy: the link is detached with amqp:resource-limit-exceeded
        }
    }

    /** The pump stops without using the wake-up that started it: the next waiter gets it (AMQP-11). */
    private void passOnWake() {
        Namespace.ReceiveWait unused;
        synchronized (this) {
            unused = woken;
            woken = null;
        }
        if (unused != null) {
            try {
                unused.cancel();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "sbemu AMQP endpoint: passing a wake-up on failed", e);
            }
        }
    }

    /** As {@link #passOnWake}, from under this link's lock: on the loop thread, after it. */
    private void passOnWakeLater() {
        if (woken != null) {
            connection.loop().execute(this::passOnWake);
        }
    }

    synchronized void wakePump() {
        if (pumpThread != null) {
            pumpThread.interrupt();
        }
        if (waiting != null) {
            // a drain, a close, a replaced namespace: the wait ends, and the pump looks again (in the namespace now
            // served) from the loop thread
            waiting.cancel();
            waiting = null;
            Object token = waitToken;
            connection.loop().execute(() -> resume(token));
        }
    }

    /**
     * Registers the wait of a pump that found nothing: true when registered, false when the link closed or a
     * drain came meanwhile (the pump goes on: it looks at both).
     */
    private boolean waitWithoutThread() {
        Object token = new Object();
        synchronized (this) {
            if (closed || drain) {
                return false;
            }
            waitToken = token;
            woken = null; // used: the new wait fires at once if a message is there
            // the callback runs under the namespace's lock: it only hands on to the loop thread
            Runnable callback = () -> connection.loop().execute(() -> resume(token));
            waiting = session == null
                    ? namespace.get().whenReceivable(entity, callback)
                    : namespace.get().whenReceivable(session, callback);
            return true;
        }
    }

    /** Loop thread: the wait {@code token} ended (a message may be there, or the link was woken): pump again. */
    private void resume(Object token) {
        synchronized (this) {
            if (waitToken != token || token == null) {
                return;
            }
            woken = waiting;
            waitToken = null;
            waiting = null;
            pumping = false;
        }
        startPump();
    }

    /**
     * The pump: tries the broker without waiting, up to the credit; nothing taken, it registers a wait and holds no
     * thread (AMQP-11). {@code onLoop}: on the loop thread, when no delay is scripted (a receive cannot block), one try,
     * whose batch's delivery starts the next look; otherwise on a worker (a scripted delay may hold the try), which goes
     * on until it must stop or waits.
     */
    private void pump(boolean onLoop) {
        if (!onLoop) {
            synchronized (this) {
                pumpThread = Thread.currentThread();
            }
        }
        try {
            while (true) {
                Turn turn = nextTurn();
                if (turn == null) {
                    passOnWake();
                    return;
                }
                List<BrokeredMessage> taken = List.of();
                if (turn.want() > 0) {
                    try {
                        taken = take(turn.want(), Duration.ZERO);
                    } catch (RuntimeException e) {
                        stopWith(e);
                        return;
                    } finally {
                        if (!onLoop) {
                            Thread.interrupted();
                        }
                    }
                }
                if (!taken.isEmpty()) {
                    synchronized (this) {
                        outstanding += taken.size();
                        woken = null;
                        if (onLoop) {
                            pumping = false;
                        }
                    }
                    List<BrokeredMessage> batch = taken;
                    connection.loop().execute(() -> deliver(batch)); // on the loop thread, its end starts the next look
                    if (onLoop) {
                        return;
                    }
                } else if (turn.draining()) {
                    synchronized (this) {
                        drain = false;
                        if (onLoop) {
                            pumping = false;
                        }
                    }
                    passOnWake();
                    if (onLoop) {
                        drained();
                        return;
                    }
                    connection.loop().execute(this::drained);
                } else {
                    boolean registered;
                    try {
                        registered = waitWithoutThread();
                    } catch (RuntimeException e) {
                        stopWith(e); // the entity is gone or disabled: as a receive would have failed
                        return;
                    }
                    if (registered) {
                        return; // pumping stays set: the wait's end (resume) clears it
                    }
                    if (onLoop) {
                        synchronized (this) {
                            pumping = false;
                        }
                        connection.loop().execute(this::startPump); // closed or a drain came meanwhile: look again
                        return;
                    }
                    // on a worker, closed or draining meanwhile: the next turn handles it
                }
            }
        } finally {
            if (!onLoop) {
                synchronized (this) {
                    pumpThread = null;
                    Thread.interrupted();
                }
            }
        }
    }

    /** What one turn of the pump asks the broker for: up to {@code want} messages, and whether a drain is due. */
    private record Turn(int want, boolean draining) {}

    /**
     * The pump's next turn, or null when it must stop (and is marked stopped): the link closed, a batch is still on
     * its way (one at a time, so that a backed-up socket stops the next one, AMQP-19), no credit and no drain, or the
     * socket is backed up.
     */
    private synchronized Turn nextTurn() {
        int want = Math.min(credit - outstanding, MAX_TAKE);
        if (closed || outstanding > 0 || (want <= 0 && !drain) || connection.backedUp()) {
            pumping = false;
            return null;
        }
        return new Turn(want, drain);
    }

    /** The pump stops on the broker's refusal {@code e}: the link is detached with it. */
    private void stopWith(RuntimeException e) {
        fail(e);
        synchronized (this) {
            pumping = false;
        }
        passOnWake();
    }

    /** The broker refused to hand out messages (the entity was deleted, the session lock was lost). */
    private void fail(RuntimeException e) {
        ErrorCondition error = AmqpErrors.of(e);
        connection.loop().execute(() -> {
            if (!closed) {
                closed = true;
                receivers.closed(this);
                sender.setCondition(error);
                sender.close();
                releaseSession();
            }
        });
    }

    private void drained() {
        if (!closed && sender.getDrain()) {
            sender.drained();
        }
        synchronized (this) {
            credit = sender.getCredit();
        }
    }

    /**
     * Loop thread: puts taken messages on the wire. A peek-lock message the link can no longer take (closed,
     * or its credit was lowered meanwhile) goes back to the broker; a receive-and-delete one, which cannot go
     * back, waits in proton's link queue for credit (and is lost only if the link closes first, AMQP-11).
     */
    private void deliver(List<BrokeredMessage> messages) {
        connection.loop().checkThread();
        for (BrokeredMessage message : messages) {
            boolean locked = message.lockToken() != null;
            if (closed || (locked && sender.getCredit() <= 0)) {
                giveBack(message);
                continue;
            }
            // PAR-5: a peek-lock delivery's tag is its lock token; a pre-settled one's is empty, or a GUID on a
            // partitioned entity
            UUID presettled = locked ? null : AmqpMessages.presettledDeliveryTag(message);
            byte[] tag = locked
                    ? DotNetGuid.toBytes(message.lockToken())
                    : presettled == null ? new byte[0] : DotNetGuid.toBytes(presettled);
            Delivery delivery = Deliveries.send(sender, tag, AmqpMessages.toAmqp(message), !locked);
            delivery.setContext(message.lockToken());
        }
        synchronized (this) {
            outstanding -= messages.size();
            credit = sender.getCredit();
        }
        startPump();
    }

    private void giveBack(BrokeredMessage message) {
        if (message.lockToken() == null) {
            LOG.fine(() -> "sbemu AMQP endpoint: receive-and-delete message " + message.sequenceNumber()
                    + " taken for a link that closed before it could be sent");
            return;
        }
        try {
            namespace.get().release(entity, message.lockToken());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "sbemu AMQP endpoint: could not give back a message", e);
        }
    }

    /** Loop thread: the client settled a delivery (receiver settle mode second) or forgot it. */
    @Override
    public void onDelivery(Delivery delivery) {
        if (delivery.isSettled()) {
            return;
        }
        DeliveryState remote = delivery.getRemoteState();
        if (delivery.getContext() == SETTLING) {
            return; // its settlement is out; the result settles the delivery
        }
        UUID lockToken = delivery.getContext() instanceof UUID token ? token : null;
        if (remote == null || lockToken == null) {
            if (delivery.remotelySettled()) {
                delivery.settle();
            }
            return;
        }
        TransactionalState transactional = remote instanceof TransactionalState t ? t : null;
        Outcome outcome = transactional != null ? transactional.getOutcome() : (Outcome) remote;
        delivery.setContext(SETTLING);
        if (transactional != null && delivery.remotelySettled() && !(outcome instanceof Released)) {
            // settled by the client in a transaction (Qpid JMS's transacted session): it cannot settle the message
            // again after a rollback, so the rollback abandons it, to be redelivered with its delivery counted (JMS-8)
            transactions.onRollback(remote, () -> {
                try {
                    namespace.get().abandon(entity, lockToken);
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "sbemu AMQP endpoint: could not hand back a rolled-back message", e);
                }
            });
        }
        settlements.run(
                () -> settle(lockToken, outcome, remote),
                failure -> {
                    if (failure != null) {
                        delivery.disposition(AmqpErrors.rejected(failure));
                    } else {
                        // A dead-letter is confirmed by a rejected outcome without the client's error: the JavaScript
                        // SDK
                        // takes any error in the settled state for a failed settlement (the Java SDK compares only the
                        // outcome's type).
                        Outcome applied = outcome instanceof Rejected ? new Rejected() : outcome;
                        if (transactional != null) {
                            TransactionalState done = new TransactionalState();
                            done.setTxnId(transactional.getTxnId());
                            done.setOutcome(applied);
                            delivery.disposition(done);
                        } else {
                            delivery.disposition((DeliveryState) applied);
                        }
                    }
                    delivery.settle();
                },
                refused -> refused);
    }

    /** Applies a settlement in the broker, in the transaction the state joins; the error, or null once applied. */
    private ErrorCondition settle(UUID lockToken, Outcome outcome, DeliveryState state) {
        try {
            settlement(outcome).apply(transactions.target(state), namespace.get(), entity, lockToken);
            return null;
        } catch (RuntimeException e) {
            return AmqpErrors.of(e);
        }
    }

    /** The settlement a link outcome asks for (docs/amqp.md, "Settlement"). */
    private static Settlement settlement(Outcome outcome) {
        if (outcome instanceof Accepted) {
            return Settlement.of(Settlement.Kind.COMPLETE);
        }
        if (outcome instanceof Modified modified) {
            Map<String, Object> properties = AmqpMessages.propertiesFromWire(modified.getMessageAnnotations());
            Settlement.Kind kind = Boolean.TRUE.equals(modified.getUndeliverableHere())
                    ? Settlement.Kind.DEFER
                    : Settlement.Kind.ABANDON;
            return new Settlement(kind, properties, null, null);
        }
        if (outcome instanceof Rejected rejected) {
            Map<String, Object> info = AmqpMessages.propertiesFromWire(
                    rejected.getError() == null ? null : rejected.getError().getInfo());
            String reason = (String) info.remove(BrokeredMessage.DEAD_LETTER_REASON);
            String description = (String) info.remove(BrokeredMessage.DEAD_LETTER_DESCRIPTION);
            return new Settlement(Settlement.Kind.DEAD_LETTER, info, reason, description);
        }
        if (outcome instanceof Released) {
            return Settlement.of(Settlement.Kind.RELEASE);
        }
        throw new UnsupportedOperationException("Outcome " + outcome + " is not supported");
    }

    @Override
    public void onClosed() {
        synchronized (this) {
            closed = true;
        }
        receivers.closed(this);
        wakePump();
        releaseSession();
        whenClosed.run();
    }

    private void releaseSession() {
        if (session != null) {
            heldSessions.drop(session);
            try {
                namespace.get().releaseSession(session);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "sbemu AMQP endpoint: releasing a session failed", e);
            }
        }
    }
}
