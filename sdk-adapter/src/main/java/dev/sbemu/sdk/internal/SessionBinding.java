package dev.sbemu.sdk.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Cancellation;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A receiver bound to one accepted session (SES-2..4): receives, deferred receives, session lock and state
 * go through the held {@link SessionLock}; settlement goes to the entity by lock token (the core
 * refuses it with SESSION_LOCK_LOST once the session lock is gone); peek shows only this session's
 * messages, as the service's peek with a session id does. {@link #close()} ends a receive blocked in
 * the core at once and releases the session.
 */
final class SessionBinding extends ReceiverBinding {
    private final SessionLock lock;
    private final AtomicBoolean released = new AtomicBoolean();

    SessionBinding(Namespace namespace, SessionLock lock) {
        super(namespace, lock.entity());
        this.lock = lock;
    }

    @Override
    String sessionId() {
        return lock.sessionId();
    }

    @Override
    List<BrokeredMessage> receive(ReceiveMode mode, int maxMessages, Duration maxWait, Cancellation cancellation) {
        return namespace.receive(lock, mode, maxMessages, maxWait, cancellation);
    }

    @Override
    List<BrokeredMessage> receiveDeferred(ReceiveMode mode, List<Long> sequenceNumbers) {
        return namespace.receiveDeferred(lock, mode, sequenceNumbers);
    }

    @Override
    List<BrokeredMessage> peek(long fromSequenceNumber, int maxMessages) {
        return namespace.peek(lock.entity(), lock.sessionId(), fromSequenceNumber, maxMessages);
    }

    @Override
    Instant renewSessionLock(String notSession) {
        return namespace.renewSessionLock(lock);
    }

    @Override
    byte[] getSessionState(String notSession) {
        return namespace.getSessionState(lock);
    }

    @Override
    void setSessionState(String notSession, byte[] state) {
        namespace.setSessionState(lock, state);
    }

    /** Whether the link still stands: neither closed nor ended with its session's stream. */
    boolean isOpen() {
        return !released.get() && !closing.isCancelled();
    }

    /** Releases the session (once): its locked messages become available again. */
    @Override
    void close() {
        super.close();
        releaseSession();
    }

    @Override
    void releaseSession() {
        if (!released.getAndSet(true)) {
            try {
                namespace.releaseSession(lock);
            } catch (BrokerException gone) {
                // the entity was deleted: nothing is held any more
            }
        }
    }
}
