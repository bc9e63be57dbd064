package dev.sbemu.sdk.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a receiver client receives from: an entity (queue, subscription, sub-queue) or one session of
 * a session-enabled entity. Each method is one call into the core and throws the core's exceptions.
 */
interface ReceiverSource {
    /** The session id, or null for an entity receiver. */
    String sessionId();

    /** The queue, subscription or sub-queue the messages are settled on (transactions settle there too). */
    EntityPath path();

    List<BrokeredMessage> receive(ReceiveMode mode, int maxMessages, Duration maxWait);

    List<BrokeredMessage> receiveDeferred(ReceiveMode mode, List<Long> sequenceNumbers);

    List<BrokeredMessage> peek(long fromSequenceNumber, int maxMessages);

    void complete(UUID lockToken);

    void abandon(UUID lockToken, Map<String, Object> propertiesToModify);

    void defer(UUID lockToken, Map<String, Object> propertiesToModify);

    void deadLetter(UUID lockToken, String reason, String description, Map<String, Object> propertiesToModify);

    Instant renewLock(UUID lockToken);

    /** Hands a locked message back without counting a delivery (taken, but never given to the application). */
    void release(UUID lockToken);

    /** Renews the session lock; an entity source throws {@code IllegalStateException(notSession)}. */
    Instant renewSessionLock(String notSession);

    byte[] getSessionState(String notSession);

    void setSessionState(String notSession, byte[] state);

    /** Ends a receive blocked in the core ({@code CancellationException}) and releases what the source holds. */
    void close();
}
