package dev.sbemu.sdk.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Receiving from one accepted session (SES-2..4): receives, deferred receives, session lock and state
 * go through the held {@link SessionLock}; settlement goes to the entity by lock token (the core
 * refuses it with SESSION_LOCK_LOST once the session lock is gone); peek shows only this session's
 * messages, as the service's peek with a session id does. {@link #close()} ends a receive blocked in
 * the core at once and releases the session.
 */
final class SessionSource implements ReceiverSource {

    private final Namespace namespace;
    private final SessionLock lock;
    private final AtomicBoolean released = new AtomicBoolean();
    private final Cancellation closing = new Cancellation();

    SessionSource(Namespace namespace, SessionLock lock) {
        this.namespace = namespace;
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    SessionLock lock() {
        return lock;
    }

    @Override
    public String sessionId() {
        return lock.sessionId();
    }

    @Override
    public EntityPath path() {
        return lock.entity();
    }

    @Override
    public List<BrokeredMessage> receive(ReceiveMode mode, int maxMessages, Duration maxWait) {
        return namespace.receive(lock, mode, maxMessages, maxWait, closing);
    }

    @Override
    public List<BrokeredMessage> receiveDeferred(ReceiveMode mode, List<Long> sequenceNumbers) {
        return namespace.receiveDeferred(lock, mode, sequenceNumbers);
    }

    @Override
    public List<BrokeredMessage> peek(long fromSequenceNumber, int maxMessages) {
        return namespace.peek(lock.entity(), lock.sessionId(), fromSequenceNumber, maxMessages);
    }

    @Override
    public void complete(UUID lockToken) {
        namespace.complete(lock.entity(), lockToken);
    }

    @Override
    public void abandon(UUID lockToken, Map<String, Object> propertiesToModify) {
        namespace.abandon(lock.entity(), lockToken, propertiesToModify);
    }

    @Override
    public void defer(UUID lockToken, Map<String, Object> propertiesToModify) {
        namespace.defer(lock.entity(), lockToken, propertiesToModify);
    }

    @Override
    public void deadLetter(UUID lockToken, String reason, String description, Map<String, Object> properties) {
        namespace.deadLetter(lock.entity(), lockToken, reason, description, properties);
    }

    @Override
    public Instant renewLock(UUID lockToken) {
        return namespace.renewLock(lock.entity(), lockToken);
    }

    @Override
    public void release(UUID lockToken) {
        namespace.release(lock.entity(), lockToken);
    }

    @Override
    public Instant renewSessionLock(String notSession) {
        return namespace.renewSessionLock(lock);
    }

    @Override
    public byte[] getSessionState(String notSession) {
        return namespace.getSessionState(lock);
    }

    @Override
    public void setSessionState(String notSession, byte[] state) {
        namespace.setSessionState(lock, state);
    }

    /** Releases the session (once): its locked messages become available again. */
    @Override
    public void close() {
        closing.cancel();
        if (!released.getAndSet(true)) {
            try {
                namespace.releaseSession(lock);
            } catch (BrokerException gone) {
                // the entity was deleted: nothing is held any more
            }
        }
    }
}
