package dev.sbemu.amqp.internal;

import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;

/**
 * A link the client sends on (to an entity, a node or the coordinator): each complete delivery is handed to
 * {@link #accept}, whose outcome is the delivery's disposition (unless the client sent it settled), and the
 * link's credit is kept topped up. Loop thread only.
 */
abstract class ReceivingLink implements AmqpConnection.LinkBound {
    /** The credit each receiving link grants, topped up once half is used. */
    static final int CREDIT = 500;

    final Receiver receiver;

    ReceivingLink(Receiver receiver) {
        this.receiver = receiver;
    }

    @Override
    public final Link link() {
        return receiver;
    }

    /** Grants the link its first credit; call once the link is open. */
    final void grantCredit() {
        receiver.flow(CREDIT);
    }

    /**
     * Handles one message; returns its outcome (Accepted, Rejected with the error, Declared, ...), or null when
     * the link settles the delivery itself later, with {@link #settle} (a call handed to {@link HeldCalls}).
     */
    abstract DeliveryState accept(byte[] bytes, Delivery delivery);

    @Override
    public final void onDelivery(Delivery delivery) {
        byte[] bytes = Wire.read(receiver, delivery);
        if (bytes == null) {
            return;
        }
        DeliveryState outcome = accept(bytes, delivery);
        if (outcome != null) {
            settle(delivery, outcome);
        }
        int credit = receiver.getCredit();
        if (credit < CREDIT / 2) {
            receiver.flow(CREDIT - credit);
        }
    }

    /** Answers a delivery with its outcome (unless the client sent it settled) and settles it. Loop thread. */
    final void settle(Delivery delivery, DeliveryState outcome) {
        if (!delivery.remotelySettled()) {
            delivery.disposition(outcome);
        }
        delivery.settle();
    }
}
