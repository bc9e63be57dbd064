package dev.sbemu.amqp.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.wire.AmqpMessages;
import java.util.List;
import java.util.UUID;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Sender;

/**
 * A receiver whose source asks for the {@code copy} distribution mode (a JMS queue browser): the entity's messages
 * are peeked, in sequence-number order from where the link left off, and sent pre-settled; nothing is locked or
 * removed. A flow sends what is there up to the credit; a drain is answered at once once nothing more is there, which
 * is how Qpid JMS learns the browse is over (JMS-11). Loop thread only.
 */
final class BrowseLink implements AmqpConnection.LinkBound {
    static final Symbol COPY = Symbol.valueOf("copy");
    /** The most messages peeked at one go. */
    private static final int BATCH = 64;

    private final EndpointContext context;
    private final AmqpConnection connection;
    private final Sender sender;
    private final EntityPath entity;
    private long next = 0;
    private boolean closed;

    BrowseLink(EndpointContext context, AmqpConnection connection, Sender sender, EntityPath entity) {
        this.context = context;
        this.connection = connection;
        this.sender = sender;
        this.entity = entity;
    }

    @Override
    public Link link() {
        return sender;
    }

    @Override
    public void onFlow() {
        connection.loop().checkThread();
        boolean more = true;
        while (!closed && more && sender.getCredit() > 0) {
            if (connection.backedUp() && !sender.getDrain()) {
                return;     // the client's next flow, once it read what came, goes on (AMQP-19)
            }
            List<BrokeredMessage> batch;
            try {
                batch = context.namespace().peek(entity, next, Math.min(sender.getCredit(), BATCH));
            } catch (RuntimeException e) {
                closed = true;
                sender.setCondition(AmqpErrors.of(e));
                sender.close();
                return;
            }
            for (BrokeredMessage message : batch) {
                Wire.send(sender, DotNetGuid.toBytes(UUID.randomUUID()), AmqpMessages.toAmqp(message), true);
                next = message.sequenceNumber() + 1;
            }
            more = !batch.isEmpty();
        }
        if (!closed && sender.getDrain()) {
            sender.drained();
        }
    }

    @Override
    public void onDelivery(Delivery delivery) {
        if (!delivery.isSettled()) {
            delivery.settle();
        }
    }

    @Override
    public void onClosed() {
        closed = true;
    }
}
