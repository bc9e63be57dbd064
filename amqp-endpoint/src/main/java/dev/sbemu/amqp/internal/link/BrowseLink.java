package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.amqp.internal.transport.LinkBound;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.filter.FilterMessage;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SystemProperty;
import dev.sbemu.wire.AmqpMessages;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Sender;

/**
 * A receiver whose source asks for the {@code copy} distribution mode (a JMS queue browser): the entity's messages
 * are peeked, in sequence-number order from where the link left off, and sent pre-settled; nothing is locked or
 * removed. A flow sends what is there up to the credit; a drain is answered at once once nothing more is there, which
 * is how Qpid JMS learns the browse is over (JMS-11). A browser with a JMS selector (the source filter
 * {@code jms-selector}, JMS header names mapped as for subscriptions) is shown only the messages it matches (JMS-22).
 * Loop thread only.
 */
public final class BrowseLink implements LinkBound {
    public static final Symbol COPY = Symbol.valueOf("copy");
    /** The most messages peeked at one go. */
    private static final int BATCH = 64;

    private final ServedNamespace namespace;
    private final AmqpConnection connection;
    private final Sender sender;
    private final EntityPath entity;
    private final SqlFilter selector;
    private long next = 0;
    private boolean closed;

    /** @param selector the browser's selector as a SQL filter, or null to show every message */
    public BrowseLink(
            ServedNamespace namespace,
            AmqpConnection connection,
            Sender sender,
            EntityPath entity,
            SqlFilter selector) {
        this.selector = selector;
        this.namespace = namespace;
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
                return; // the client's next flow, once it read what came, goes on (AMQP-19)
            }
            List<BrokeredMessage> batch;
            try {
                batch = namespace.get().peek(entity, next, Math.min(sender.getCredit(), BATCH));
            } catch (RuntimeException e) {
                closed = true;
                sender.setCondition(AmqpErrors.of(e));
                sender.close();
                return;
            }
            for (BrokeredMessage message : batch) {
                next = message.sequenceNumber() + 1;
                if (selector != null && !selector.matches(new Fields(message))) {
                    continue;
                }
                Deliveries.send(sender, DotNetGuid.toBytes(UUID.randomUUID()), AmqpMessages.toAmqp(message), true);
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

    /** A peeked message as a selector reads it: its system properties and application properties. */
    private record Fields(BrokeredMessage stored) implements FilterMessage {
        @Override
        public Object systemProperty(SystemProperty property) {
            return switch (property) {
                case DELIVERY_COUNT -> stored.deliveryCount();
                case SEQUENCE_NUMBER -> stored.sequenceNumber();
                case ENQUEUED_TIME_UTC -> stored.enqueuedTime();
                case SCHEDULED_ENQUEUE_TIME_UTC -> stored.scheduledEnqueueTime();
                case TIME_TO_LIVE -> stored.timeToLive();
                case EXPIRES_AT_UTC -> stored.expiresAt();
                case ENQUEUED_SEQUENCE_NUMBER -> stored.enqueuedSequenceNumber();
                case DEAD_LETTER_SOURCE -> stored.deadLetterSource();
                default -> stored.message().senderProperty(property);
            };
        }

        @Override
        public Map<String, Object> applicationProperties() {
            return stored.message().applicationProperties();
        }
    }
}
