package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.amqp.internal.transport.LinkBound;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.function.Consumer;
import org.apache.qpid.proton.amqp.transport.SenderSettleMode;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Sender;
import org.apache.qpid.proton.message.Message;

/**
 * The link a client receives the answers of {@code $cbs} or {@code $management} on: its target address is
 * the reply-to address of the client's requests. Answers wait here until the client grants credit.
 */
final class ReplyLink implements LinkBound {
    private final Sender sender;
    private final Consumer<ReplyLink> onClosed;
    private final Queue<Message> pending = new ArrayDeque<>();
    private long tags;

    /** @param onClosed told when this link closes (a newer link may have taken its address meanwhile) */
    ReplyLink(Sender sender, Consumer<ReplyLink> onClosed) {
        this.sender = sender;
        this.onClosed = onClosed;
    }

    @Override
    public Link link() {
        return sender;
    }

    void reply(Message response) {
        pending.add(response);
        onFlow();
    }

    @Override
    public void onFlow() {
        while (sender.getCredit() > 0 && !pending.isEmpty()) {
            Deliveries.send(
                    sender,
                    ByteBuffer.allocate(8).putLong(++tags).array(),
                    pending.poll(),
                    sender.getRemoteSenderSettleMode() == SenderSettleMode.SETTLED);
        }
    }

    @Override
    public void onDelivery(Delivery delivery) {
        if (delivery.remotelySettled() && !delivery.isSettled()) {
            delivery.settle();
        }
    }

    @Override
    public void onClosed() {
        pending.clear();
        onClosed.accept(this);
    }
}
