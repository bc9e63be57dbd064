package dev.sbemu.sdk.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A receiver bound to a whole queue, subscription or one of their sub-queues. {@link #close()} ends a
 * receive blocked in the core at once, without a message taken for the closed receiver.
 */
final class EntityBinding extends ReceiverBinding {

    EntityBinding(Namespace namespace, EntityPath entity) {
        super(namespace, entity);
    }

    @Override
    String sessionId() {
        return null;
    }

    @Override
    List<BrokeredMessage> receive(ReceiveMode mode, int maxMessages, Duration maxWait, Cancellation cancellation) {
        return namespace.receive(entity(), mode, maxMessages, maxWait, cancellation);
    }

    @Override
    List<BrokeredMessage> receiveDeferred(ReceiveMode mode, List<Long> sequenceNumbers) {
        return namespace.receiveDeferred(entity(), mode, sequenceNumbers);
    }

    @Override
    List<BrokeredMessage> peek(long fromSequenceNumber, int maxMessages) {
        return namespace.peek(entity(), fromSequenceNumber, maxMessages);
    }

    @Override
    Instant renewSessionLock(String notSession) {
        throw new IllegalStateException(notSession);
    }

    @Override
    byte[] getSessionState(String notSession) {
        throw new IllegalStateException(notSession);
    }

    @Override
    void setSessionState(String notSession, byte[] state) {
        throw new IllegalStateException(notSession);
    }
}
