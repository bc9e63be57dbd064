package dev.sbemu.sdk.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Receiving from a queue, a subscription or one of their sub-queues. {@link #close()} ends a receive
 * blocked in the core at once, without a message taken for the closed receiver.
 */
final class EntitySource implements ReceiverSource {
    private final Namespace namespace;
    private final EntityPath path;
    private final Cancellation closing = new Cancellation();

    EntitySource(Namespace namespace, EntityPath path) {
        this.namespace = namespace;
        this.path = path;
    }

    @Override
    public String sessionId() {
        return null;
    }

    @Override
    public EntityPath path() {
        return path;
    }

    @Override
    public List<BrokeredMessage> receive(ReceiveMode mode, int maxMessages, Duration maxWait) {
        return namespace.receive(path, mode, maxMessages, maxWait, closing);
    }

    @Override
    public List<BrokeredMessage> receiveDeferred(ReceiveMode mode, List<Long> sequenceNumbers) {
        return namespace.receiveDeferred(path, mode, sequenceNumbers);
    }

    @Override
    public List<BrokeredMessage> peek(long fromSequenceNumber, int maxMessages) {
        return namespace.peek(path, fromSequenceNumber, maxMessages);
    }

    @Override
    public void complete(UUID lockToken) {
        namespace.complete(path, lockToken);
    }

    @Override
    public void abandon(UUID lockToken, Map<String, Object> propertiesToModify) {
        namespace.abandon(path, lockToken, propertiesToModify);
    }

    @Override
    public void defer(UUID lockToken, Map<String, Object> propertiesToModify) {
        namespace.defer(path, lockToken, propertiesToModify);
    }

    @Override
    public void deadLetter(UUID lockToken, String reason, String description, Map<String, Object> properties) {
        namespace.deadLetter(path, lockToken, reason, description, properties);
    }

    @Override
    public Instant renewLock(UUID lockToken) {
        return namespace.renewLock(path, lockToken);
    }

    @Override
    public void release(UUID lockToken) {
        namespace.release(path, lockToken);
    }

    @Override
    public Instant renewSessionLock(String notSession) {
        throw new IllegalStateException(notSession);
    }

    @Override
    public byte[] getSessionState(String notSession) {
        throw new IllegalStateException(notSession);
    }

    @Override
    public void setSessionState(String notSession, byte[] state) {
        throw new IllegalStateException(notSession);
    }

    @Override
    public void close() {
        closing.cancel();
    }
}
