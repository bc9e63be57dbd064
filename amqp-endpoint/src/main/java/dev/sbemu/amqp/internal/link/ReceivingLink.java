package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.amqp.internal.transport.LinkBound;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.Rejected;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.EndpointState;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;

/**
 * A link the client sends on (to an entity, a node or the coordinator): each complete delivery is handed to
 * {@link #accept}, whose outcome is the delivery's disposition (unless the client sent it settled), and the
 * link's credit is kept topped up while its held calls are not queued (AMQP-19). A message larger than the link's
 * max-message-size is rejected with {@code amqp:link:message-size-exceeded} (a batch envelope's messages are
 * counted by the broker, without the envelope's overhead); a delivery larger than twice that is cut off: the link is
 * detached with {@code amqp:link:message-size-exceeded} and the rest of the delivery is dropped unread; a client that sends beyond its credit is detached with
 * {@code amqp:link:transfer-limit-exceeded}; an aborted delivery is dropped and the link goes on (AMQP-13).
 * Loop thread only.
 */
public abstract class ReceivingLink implements LinkBound {
    /** The credit each receiving link grants by default, topped up once half is used. */
    public static final int CREDIT = 500;

    private static final Object SEEN = new Object();
    /**
     * A delivery is read up to this many times the link's max-message-size: what is larger is cut off (AMQP-13);
     * what is read whole is judged by the message's size, or for a batch by its messages' (AMQP-24).
     */
    private static final int CUT_FACTOR = 2;

    final Receiver receiver;
    private IntSupplier credit = () -> CREDIT;
    private LongSupplier budget = () -> Long.MAX_VALUE;
    private HeldCalls calls;
    /** Deliveries the link's credit allowed so far, and deliveries begun by the client. */
    private long granted;

    private long begun;

    protected ReceivingLink(Receiver receiver) {
        this.receiver = receiver;
    }

    @Override
    public final Link link() {
        return receiver;
    }

    /** The credit to keep the link at (read at each top-up), and the link's held calls (null: none). */
    public final void limits(IntSupplier credit, HeldCalls calls) {
        limits(credit, () -> Long.MAX_VALUE, calls);
    }

    /** As {@link #limits(IntSupplier, HeldCalls)}, with a cap on all the credit the link grants (read at each top-up). */
    public final void limits(IntSupplier credit, LongSupplier budget, HeldCalls calls) {
        this.credit = credit;
        this.budget = budget;
        this.calls = calls;
    }

    /** Grants the link its first credit; call once the link is open. */
    final void grantCredit() {
        topUp();
    }

    /** Tops the credit up once half is used, unless calls of the link are still queued (backpressure). */
    private void topUp() {
        if (receiver.getLocalState() != EndpointState.ACTIVE || (calls != null && calls.busy())) {
            return;
        }
        int target = credit.getAsInt();
        int now = receiver.getCredit();
        if (now < (target + 1) / 2 || now == 0) {
            int more = (int) Math.min(target - now, budget.getAsLong() - granted);
            if (more > 0) {
                receiver.flow(more);
                granted += more;
            }
        }
    }

    /**
     * Handles one message; returns its outcome (Accepted, Rejected with the error, Declared, ...), or null when
     * the link settles the delivery itself later, with {@link #settle} (a call handed to {@link HeldCalls}).
     */
    protected abstract DeliveryState accept(byte[] bytes, Delivery delivery);

    @Override
    public final void onDelivery(Delivery delivery) {
        if (delivery.getContext() == null) {
            delivery.setContext(SEEN);
            if (++begun > granted) {
                cut(new ErrorCondition(
                        AmqpErrors.TRANSFER_LIMIT_EXCEEDED,
                        "The link has " + (granted - begun + 1) + " credit; a delivery was sent without credit."));
                return;
            }
        }
        if (delivery.isAborted()) {
            Deliveries.dropAborted(receiver, delivery); // AMQP 1.0 2.6.14: dropped, the link goes on
            topUp();
            return;
        }
        UnsignedLong max = receiver.getMaxMessageSize();
        long limit = max == null || max.longValue() <= 0 ? 0 : max.longValue();
        if (limit > 0 && delivery.pending() > CUT_FACTOR * limit) {
            cut(new ErrorCondition(
                    AmqpErrors.MESSAGE_SIZE_EXCEEDED,
                    "The received message (at least "
                            + delivery.pending() + " bytes) exceeds the limit (" + max + " bytes) currently "
                            + "allowed on the link."));
            return;
        }
        byte[] bytes = Deliveries.read(receiver, delivery);
        if (bytes == null) {
            return;
        }
        if (limit > 0 && bytes.length > limit && delivery.getMessageFormat() != Deliveries.BATCH_FORMAT) {
            // the message is what counts; a batch's messages are counted by the broker, without the envelope
            settle(
                    delivery,
                    AmqpErrors.rejected(new ErrorCondition(
                            AmqpErrors.MESSAGE_SIZE_EXCEEDED,
                            "The received message (size " + bytes.length + " bytes) exceeds the limit (" + max
                                    + " bytes) currently allowed on the link.")));
            return;
        }
        DeliveryState outcome;
        try {
            outcome = accept(bytes, delivery);
        } catch (Deliveries.MalformedMessage e) {
            outcome = AmqpErrors.rejected(new ErrorCondition(AmqpErrors.DECODE_ERROR, e.getMessage()));
        }
        if (outcome != null) {
            settle(delivery, outcome);
        }
        topUp();
    }

    /**
     * A rejection's error with an info map, as the service sends it (its tracking id): an error without one is two
     * fields on the wire, which SDKs that read the third (pyamqp) take for a malformed outcome.
     */
    static DeliveryState withInfo(DeliveryState outcome) {
        Rejected rejected = outcome instanceof Rejected r
                ? r
                : outcome instanceof TransactionalState t && t.getOutcome() instanceof Rejected r ? r : null;
        ErrorCondition error = rejected == null ? null : rejected.getError();
        if (error != null && error.getInfo() == null) {
            error.setInfo(Map.of(TRACKING_ID, UUID.randomUUID().toString()));
        }
        return outcome;
    }

    private static final Symbol TRACKING_ID = Symbol.valueOf("com.microsoft:tracking-id");

    /** Detaches the link with {@code error}; what still arrives on it is dropped unread. */
    private void cut(ErrorCondition error) {
        receiver.setCondition(error);
        receiver.close();
        receiver.setContext(null);
        onClosed();
        Deliveries.discard(receiver);
    }

    /** Answers a delivery with its outcome (unless the client sent it settled) and settles it. Loop thread. */
    protected final void settle(Delivery delivery, DeliveryState outcome) {
        if (!delivery.remotelySettled()) {
            delivery.disposition(withInfo(outcome));
        }
        delivery.settle();
        topUp();
    }
}
