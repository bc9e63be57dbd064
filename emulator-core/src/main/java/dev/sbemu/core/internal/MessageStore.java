package dev.sbemu.core.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageState;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The messages of one queue, subscription or sub-queue, indexed for receive (ready messages in
 * sequence order), settlement (by lock token) and peek / deferred receive (by sequence number).
 * Guarded by the namespace's lock.
 */
final class MessageStore {
    final EntityPath path;
    final String pathText;
    /** Signalled when a message becomes ready, for blocking receivers (CLK-3). */
    final Signal readyOrChanged;

    /** Every message of the store, keyed by itself (sequence number, then copy: {@link StoredMessage#ORDER}). */
    final TreeMap<StoredMessage, StoredMessage> bySequence = new TreeMap<>(StoredMessage.ORDER);
    /**
     * Ready messages of a non-session store that became ready in sequence order (arrivals): appended,
     * taken from the head. Removing one elsewhere than at the head only marks it (its {@code readyIn}),
     * and the entry is skipped when it reaches the head, or dropped when such entries pile up.
     */
    final ArrayDeque<StoredMessage> readyInOrder = new ArrayDeque<>();
    /** Entries of {@link #readyInOrder} whose message is no longer ready there. */
    private int staleInOrder;
    /** Ready messages of a non-session store that became ready out of order (abandoned, lock lost, ...). */
    final TreeMap<StoredMessage, StoredMessage> ready = new TreeMap<>(StoredMessage.ORDER);
    /** Ready messages of a session-enabled store, per session id, in sequence order (SES-2). */
    final Map<String, TreeMap<StoredMessage, StoredMessage>> readyBySession = new LinkedHashMap<>();
    /** Whether ready messages are kept per session; set once when the entity is created. */
    boolean sessionful;

    final Map<UUID, StoredMessage> locked = new HashMap<>();
    private final int[] countByState = new int[MessageState.values().length];
    long sizeInBytes;

    MessageStore(EntityPath path, Signal readyOrChanged) {
        this.path = path;
        this.pathText = path.toString();
        this.readyOrChanged = readyOrChanged;
        readyOrChanged.store = this;
    }

    /** Adds a message in its current state; ACTIVE messages become ready. */
    void add(StoredMessage m) {
        m.store = this;
        m.readyIn = StoredMessage.NOT_READY;
        bySequence.put(m, m);
        countByState[m.state.ordinal()]++;
        sizeInBytes += m.size;
        if (m.state == MessageState.ACTIVE) {
            makeReady(m);
        }
    }

    void makeReady(StoredMessage m) {
        if (sessionful) {
            readyBySession
                    .computeIfAbsent(m.message.sessionId(), id -> new TreeMap<>(StoredMessage.ORDER))
                    .put(m, m);
        } else if (m.readyIn == StoredMessage.NOT_READY) {
            StoredMessage last = readyInOrder.peekLast();
            if (last == null || StoredMessage.ORDER.compare(m, last) > 0) {
                readyInOrder.addLast(m);
                m.readyIn = StoredMessage.READY_IN_ORDER;
            } else {
                ready.put(m, m);
                m.readyIn = StoredMessage.READY_OUT_OF_ORDER;
            }
        }
        readyOrChanged.messageReady(sessionful ? m.message.sessionId() : null);
    }

    /** How many messages are ready here, in a non-session store. */
    int readyCount() {
        return readyInOrder.size() - staleInOrder + ready.size();
    }

    /** Whether a message may be ready here (a stale entry may make it say yes when none is). */
    boolean mayHaveReady() {
        return !readyInOrder.isEmpty() || !ready.isEmpty() || !readyBySession.isEmpty();
    }

    /** The first live entry of {@link #readyInOrder}, dropping stale ones before it (null when none). */
    private StoredMessage firstInOrder() {
        StoredMessage first;
        while ((first = readyInOrder.peekFirst()) != null
                && (first.store != this || first.readyIn != StoredMessage.READY_IN_ORDER)) {
            readyInOrder.pollFirst();
            staleInOrder--;
        }
        return first;
    }

    /** Takes the first ready message: of the whole store, or of one session (null when none is ready). */
    StoredMessage pollReady(String sessionId) {
        if (!sessionful) {
            StoredMessage inOrder = firstInOrder();
            Map.Entry<StoredMessage, StoredMessage> outOfOrder = ready.firstEntry();
            StoredMessage first;
            if (outOfOrder != null
                    && (inOrder == null || StoredMessage.ORDER.compare(outOfOrder.getKey(), inOrder) < 0)) {
                first = outOfOrder.getKey();
                ready.pollFirstEntry();
            } else if (inOrder != null) {
                first = readyInOrder.pollFirst();
            } else {
                return null;
            }
            first.readyIn = StoredMessage.NOT_READY;
            return first;
        }
        TreeMap<StoredMessage, StoredMessage> session = readyBySession.get(sessionId);
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
            if (m.readyIn == StoredMessage.READY_OUT_OF_ORDER) {
                ready.remove(m);
            } else if (m.readyIn == StoredMessage.READY_IN_ORDER) {
                if (readyInOrder.peekFirst() == m) {
                    readyInOrder.pollFirst();
                } else if (++staleInOrder > 64 && staleInOrder > readyInOrder.size() / 2) {
                    m.readyIn = StoredMessage.NOT_READY;
                    readyInOrder.removeIf(r -> r.store != this || r.readyIn != StoredMessage.READY_IN_ORDER);
                    staleInOrder = 0;
                }
            }
            m.readyIn = StoredMessage.NOT_READY;
            return;
        }
        TreeMap<StoredMessage, StoredMessage> session = readyBySession.get(m.message.sessionId());
        if (session != null) {
            session.remove(m);
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
        bySequence.remove(m);
        removeReady(m);
        if (m.lockToken != null) {
            unlock(m);
        }
        countByState[m.state.ordinal()]--;
        sizeInBytes -= m.size;
        m.store = null;
    }

    /** The messages (all copies) with this sequence number. */
    Collection<StoredMessage> withSequenceNumber(long sequenceNumber) {
        return bySequence
                .subMap(
                        StoredMessage.probe(sequenceNumber, 0),
                        true,
                        StoredMessage.probe(sequenceNumber, Short.MAX_VALUE),
                        true)
                .values();
    }

    /** Messages from this sequence number on, in order. */
    Collection<StoredMessage> from(long sequenceNumber) {
        return bySequence.tailMap(StoredMessage.probe(sequenceNumber, 0), true).values();
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
        readyInOrder.clear();
        staleInOrder = 0;
        readyBySession.clear();
        locked.clear();
        Arrays.fill(countByState, 0);
        sizeInBytes = 0;
        readyOrChanged.signalAll();
    }
}
