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

    final TreeMap<Long, StoredMessage> bySequence = new TreeMap<>();
    final TreeMap<Long, StoredMessage> ready = new TreeMap<>();
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
        bySequence.put(m.sequenceNumber, m);
        countByState[m.state.ordinal()]++;
        sizeInBytes += m.size;
        if (m.state == MessageState.ACTIVE) {
            makeReady(m);
        }
    }

    void makeReady(StoredMessage m) {
        ready.put(m.sequenceNumber, m);
        readyOrChanged.signalAll();
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
        bySequence.remove(m.sequenceNumber);
        ready.remove(m.sequenceNumber);
        if (m.lockToken != null) {
            unlock(m);
        }
        countByState[m.state.ordinal()]--;
        sizeInBytes -= m.size;
        m.store = null;
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
        locked.clear();
        java.util.Arrays.fill(countByState, 0);
        sizeInBytes = 0;
        readyOrChanged.signalAll();
    }
}
