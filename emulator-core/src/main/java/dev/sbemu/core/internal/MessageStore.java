package dev.sbemu.core.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageState;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.locks.Condition;

/**
 * The messages of one queue, subscription or sub-queue, indexed for receive (ready messages in
 * sequence order), settlement (by lock token) and peek / deferred receive (by sequence number).
 * Guarded by the broker's lock.
 */
final class MessageStore {
    final EntityPath path;
    final String pathText;
    /** Signalled when a message becomes ready, for blocking receivers (CLK-3). */
    final Condition readyOrChanged;

    final TreeMap<StoreKey, StoredMessage> bySequence = new TreeMap<>();
    /** Ready messages of a non-session store, in sequence order. */
    final TreeMap<StoreKey, StoredMessage> ready = new TreeMap<>();
    /** Ready messages of a session-enabled store, per session id, in sequence order (SES-2). */
    final Map<String, TreeMap<StoreKey, StoredMessage>> readyBySession = new java.util.LinkedHashMap<>();
    /** Whether ready messages are kept per session; set once when the entity is created. */
    boolean sessionful;
    final Map<UUID, StoredMessage> locked = new HashMap<>();
    private final int[] countByState = new int[MessageState.values().length];
    long sizeInBytes;

    MessageStore(EntityPath path, Condition readyOrChanged) {
        this.path = path;
        this.pathText = path.toString();
        this.readyOrChanged = readyOrChanged;
    }

    /** Adds a message in its current state; ACTIVE messages become ready. */
    void add(StoredMessage m) {
        m.store = this;
        if (m.key == null || m.key.sequenceNumber() != m.sequenceNumber || m.key.copy() != m.copyIndex) {
            m.key = new StoreKey(m.sequenceNumber, m.copyIndex);
        }
        bySequence.put(m.key, m);
        countByState[m.state.ordinal()]++;
        sizeInBytes += m.size;
        if (m.state == MessageState.ACTIVE) {
            makeReady(m);
        }
    }

    void makeReady(StoredMessage m) {
        if (sessionful) {
            readyBySession.computeIfAbsent(m.message.sessionId(), id -> new TreeMap<>()).put(m.key, m);
        } else {
            ready.put(m.key, m);
        }
        readyOrChanged.signalAll();
    }

    /** Takes the first ready message: of the whole store, or of one session (null when none is ready). */
    StoredMessage pollReady(String sessionId) {
        if (!sessionful) {
            Map.Entry<StoreKey, StoredMessage> first = ready.pollFirstEntry();
            return first == null ? null : first.getValue();
        }
        TreeMap<StoreKey, StoredMessage> session = readyBySession.get(sessionId);
        if (session == null) {
            return null;
        }
        StoredMessage first = session.pollFirstEntry().getValue();
        if (session.isEmpty()) {
            readyBySession.remove(sessionId);
        }
        return first;
    }


    private void removeReady(StoredMessage m) {
        if (!sessionful) {
            ready.remove(m.key);
            return;
        }
        TreeMap<StoreKey, StoredMessage> session = readyBySession.get(m.message.sessionId());
        if (session != null) {
            session.remove(m.key);
            if (session.isEmpty()) {
                readyBySession.remove(m.message.sessionId());
            }
        }
    }

    void setState(StoredMessage m, MessageState state) {
        countByState[m.state.ordinal()]--;
        countByState[state.ordinal()]++;
        m.state = state;
    }

    void lock(StoredMessage m, UUID token) {
        m.lockToken = token;
        locked.put(token, m);
    }

    void unlock(StoredMessage m) {
        locked.remove(m.lockToken);
        m.lockToken = null;
        m.lockedUntil = null;
    }

    /** Removes the message from every index of this store. */
    void remove(StoredMessage m) {
        bySequence.remove(m.key);
        removeReady(m);
        if (m.lockToken != null) {
            unlock(m);
        }
        countByState[m.state.ordinal()]--;
        sizeInBytes -= m.size;
        m.store = null;
    }

    /** The messages (all copies) with this sequence number. */
    java.util.Collection<StoredMessage> withSequenceNumber(long sequenceNumber) {
        return bySequence.subMap(StoreKey.first(sequenceNumber), true, StoreKey.last(sequenceNumber), true).values();
    }

    /** Messages from this sequence number on, in order. */
    java.util.Collection<StoredMessage> from(long sequenceNumber) {
        return bySequence.tailMap(StoreKey.first(sequenceNumber), true).values();
    }

    int count(MessageState state) {
        return countByState[state.ordinal()];
    }

    int size() {
        return bySequence.size();
    }

    void clear() {
        bySequence.clear();
        ready.clear();
        readyBySession.clear();
        locked.clear();
        java.util.Arrays.fill(countByState, 0);
        sizeInBytes = 0;
        readyOrChanged.signalAll();
    }
}
