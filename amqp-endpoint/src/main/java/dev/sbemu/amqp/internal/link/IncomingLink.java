package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Receiver;

/**
 * A client's sender to a queue or topic: each delivery (one message, or a batch envelope) is sent to the
 * entity as one all-or-nothing send, in the delivery's transaction if it has one, and answered with
 * Accepted or Rejected with the broker's error. A message with a future scheduled enqueue time is
 * scheduled (SCH-1). The send runs through {@link HeldCalls}: off the loop thread while a delay is scripted.
 * A link without a target address (ANONYMOUS-RELAY, JMS-23) sends each message to the queue or topic its {@code to}
 * names; a message whose {@code to} names none is rejected with {@code amqp:not-found}.
 */
public final class IncomingLink extends ReceivingLink {
    private final ServedNamespace namespace;
    private final TransactionScope transactions;
    private final String entity;
    private final HeldCalls calls;
    private Runnable whenClosed = () -> {};

    IncomingLink(
            ServedNamespace namespace,
            TransactionScope transactions,
            Receiver receiver,
            String entity,
            HeldCalls calls) {
        super(receiver);
        this.namespace = namespace;
        this.transactions = transactions;
        this.entity = entity;
        this.calls = calls;
    }

    /** Runs {@code action} once the link is gone (a temporary queue's sender deletes its queue, JMS-13). */
    public void whenClosed(Runnable action) {
        this.whenClosed = action;
    }

    @Override
    public void onClosed() {
        whenClosed.run();
    }

    @Override
    protected DeliveryState accept(byte[] bytes, Delivery delivery) {
        int format = delivery.getMessageFormat();
        DeliveryState state = delivery.getRemoteState();
        calls.run(() -> send(bytes, format, state), outcome -> settle(delivery, outcome), AmqpErrors::rejected);
        return null;
    }

    /** Sends each message to its {@code to}, messages to one entity together (all of a batch must be routable). */
    private void relay(List<Message> messages, DeliveryState state) {
        Map<String, List<Message>> byEntity = new LinkedHashMap<>();
        Namespace ns = namespace.get();
        for (Message m : messages) {
            String to = EntityAddress.strip(m.to());
            if (to.isEmpty() || !ns.queueExists(to) && !ns.topicExists(to)) {
                throw new BrokerException.EntityNotFound(to.isEmpty() ? "(no 'to' address)" : to);
            }
            byEntity.computeIfAbsent(to, k -> new ArrayList<>()).add(m);
        }
        byEntity.forEach((to, batch) -> transactions.target(state).send(to, batch));
    }

    private DeliveryState send(byte[] bytes, int format, DeliveryState state) {
        try {
            List<Message> messages = Deliveries.messages(bytes, format);
            if (entity != null) {
                transactions.target(state).send(entity, messages);
            } else {
                relay(messages, state);
            }
            if (state instanceof TransactionalState transactional) {
                TransactionalState done = new TransactionalState();
                done.setTxnId(transactional.getTxnId());
                done.setOutcome(Accepted.getInstance());
                return done;
            }
            return Accepted.getInstance();
        } catch (RuntimeException e) {
            return AmqpErrors.rejected(AmqpErrors.of(e));
        }
    }
}
