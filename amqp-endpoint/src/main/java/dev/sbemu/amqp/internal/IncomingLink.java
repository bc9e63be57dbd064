package dev.sbemu.amqp.internal;

import dev.sbemu.core.Message;
import java.util.List;
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
 */
final class IncomingLink extends ReceivingLink {
    private final EndpointContext context;
    private final String entity;
    private final HeldCalls calls;
    private Runnable whenClosed = () -> { };

    IncomingLink(EndpointContext context, Receiver receiver, String entity, HeldCalls calls) {
        super(receiver);
        this.context = context;
        this.entity = entity;
        this.calls = calls;
    }

    /** Runs {@code action} once the link is gone (a temporary queue's sender deletes its queue, JMS-13). */
    void whenClosed(Runnable action) {
        this.whenClosed = action;
    }

    @Override
    public void onClosed() {
        whenClosed.run();
    }

    @Override
    DeliveryState accept(byte[] bytes, Delivery delivery) {
        int format = delivery.getMessageFormat();
        DeliveryState state = delivery.getRemoteState();
        calls.run(() -> send(bytes, format, state), outcome -> settle(delivery, outcome), AmqpErrors::rejected);
        return null;
    }

    private DeliveryState send(byte[] bytes, int format, DeliveryState state) {
        try {
            List<Message> messages = Wire.messages(bytes, format);
            context.target(state).send(entity, messages);
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
