package dev.sbemu.core.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a store signals when a message may have become ready there (a send, an activation, an unlock, a lock
 * expiry, a clock advance, a deletion, the namespace's close): the blocked receive calls waiting on its
 * {@link #condition}, and the one-shot callbacks of receivers that wait without a thread of their own
 * ({@link Broker#whenReceivable}, AMQP-11). Guarded by the namespace's lock.
 *
 * <p>Callbacks are woken as work arrives, not all at once: a message that becomes ready wakes the oldest waiter
 * for any message (a non-session receiver, or a session accept when the message's session is free), or the
 * receivers of its session when one holds it; a woken receiver that does not use its wake-up (it found nothing, or
 * went away) registers again or passes it on ({@link Waiter#cancel}), so no message sits while someone waits. The
 * entity's deletion, update or the close wakes every waiter, to find out.
 */
final class Signal {
    private static final Logger LOG = Logger.getLogger(Signal.class.getName());

    final Condition condition;
    private final Services services;
    /** Waiters for any ready message here (non-session receivers, accepts of the next session), oldest first. */
    private final LinkedHashSet<Waiter> any = new LinkedHashSet<>();
    /** Receivers of a held session waiting for its next message, by session id. */
    private final Map<String, LinkedHashSet<Waiter>> bySession = new HashMap<>();
    /** The sessions of the store's entity, for a session-enabled main store: which are free (null otherwise). */
    SessionTable sessions;
    /** The store this signals for. */
    MessageStore store;

    Signal(Services services) {
        this.services = services;
        this.condition = services.newCondition();
    }

    /** Wakes the blocked calls and every registered callback: the entity changed (deleted, updated, cleared). */
    void signalAll() {
        condition.signalAll();
        fireAll();
    }

    /**
     * A message became ready ({@code sessionId} its session in a session-enabled store, else null): wakes the
     * blocked calls, and one waiter: the receivers of its session when they wait, else the oldest waiter for any
     * message (on a session store only when the session is free). Not in the middle of a clock advance: its end
     * wakes as many as are ready ({@link #fireReady}).
     */
    void messageReady(String sessionId) {
        condition.signalAll();
        if (services.advancing) {
            return;
        }
        if (sessionId != null) {
            LinkedHashSet<Waiter> ofSession = bySession.get(sessionId);
            if (ofSession != null) {
                fire(new ArrayList<>(ofSession));
                return;
            }
            if (sessions != null && sessions.heldOrNull(sessionId) != null) {
                return; // its holder is busy: it looks again when it is done
            }
        }
        fireOldest(1);
    }

    /**
     * A session was let go (closed, its lock expired): its waiting receivers learn it at once (their next receive
     * fails with the lock lost), and, when it has ready messages, the oldest accept of the next session.
     */
    void sessionReleased(String sessionId, boolean hasReady) {
        condition.signalAll();
        LinkedHashSet<Waiter> ofSession = bySession.get(sessionId);
        if (ofSession != null) {
            fire(new ArrayList<>(ofSession));
        }
        if (hasReady && !services.advancing) {
            fireOldest(1);
        }
    }

    /**
     * The end of a clock advance (or a cancellation's wake-up): wakes {@code ready} waiters for any message, oldest
     * first, and the receivers of the held sessions in {@code readySessions}.
     */
    void fireReady(int ready, Iterable<String> readySessions) {
        if (services.advancing) {
            return;
        }
        for (String sessionId : readySessions) {
            LinkedHashSet<Waiter> ofSession = bySession.get(sessionId);
            if (ofSession != null) {
                fire(new ArrayList<>(ofSession));
            }
        }
        fireOldest(ready);
    }

    /** Fires every registered callback. */
    void fireAll() {
        if (any.isEmpty() && bySession.isEmpty()) {
            return;
        }
        List<Waiter> toFire = new ArrayList<>(any);
        bySession.values().forEach(toFire::addAll);
        fire(toFire);
    }

    /**
     * Whether a waiter for any message could be served now: a ready message, or on a session store a free session
     * with ready messages (a stale entry may make it say yes when none is).
     */
    boolean mayServeAny() {
        return store.sessionful && sessions != null ? sessions.hasFreeReadySession() : store.mayHaveReady();
    }

    /** How many waiters for any message are registered. */
    int waitersForAny() {
        return any.size();
    }

    /** Whether the held session {@code sessionId} has a ready message. */
    boolean sessionHasReady(String sessionId) {
        return store.readyBySession.containsKey(sessionId);
    }

    private void fireOldest(int count) {
        if (count <= 0 || any.isEmpty()) {
            return;
        }
        List<Waiter> toFire = new ArrayList<>(Math.min(count, any.size()));
        Iterator<Waiter> oldestFirst = any.iterator();
        while (toFire.size() < count && oldestFirst.hasNext()) {
            toFire.add(oldestFirst.next());
        }
        fire(toFire);
    }

    private static void fire(List<Waiter> waiters) {
        waiters.forEach(Waiter::fired);
    }

    /**
     * One registered callback: fired once, or cancelled. While registered, a receiver's wait keeps its source in use
     * (ADI-5); a session accept's does not. {@code sessionId}: the held session it waits on, or null for any message.
     */
    final class Waiter {
        private final MessageSource source;
        private final Runnable callback;
        private final String sessionId;
        private final boolean keepsInUse;
        private boolean registered = true;
        private boolean fired;

        Waiter(MessageSource source, String sessionId, boolean keepsInUse, Runnable callback) {
            this.source = source;
            this.callback = callback;
            this.sessionId = sessionId;
            this.keepsInUse = keepsInUse;
            if (keepsInUse) {
                source.receiverWaits();
            }
            if (sessionId == null) {
                any.add(this);
            } else {
                bySession
                        .computeIfAbsent(sessionId, id -> new LinkedHashSet<>())
                        .add(this);
            }
        }

        void fired() {
            if (!registered) {
                return;
            }
            unregister();
            fired = true;
            try {
                callback.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "sbemu: a receive-wait callback failed", e);
            }
        }

        private void unregister() {
            registered = false;
            if (sessionId == null) {
                any.remove(this);
            } else {
                LinkedHashSet<Waiter> ofSession = bySession.get(sessionId);
                if (ofSession != null && ofSession.remove(this) && ofSession.isEmpty()) {
                    bySession.remove(sessionId);
                }
            }
            if (keepsInUse) {
                source.receiverStopped();
            }
        }

        /**
         * Removes the registration: true when it did, before it fired. A waiter that fired and whose receiver will
         * not use the wake-up (it went away, or cannot take now) passes it on: the next waiter for any message is
         * woken when a message may be ready, so that none sits while someone waits. False then.
         */
        boolean cancel() {
            if (registered) {
                unregister();
                return true;
            }
            if (fired && sessionId == null) {
                fired = false; // passed on once
                if (mayServeAny()) {
                    fireOldest(services.advancing ? 0 : 1);
                }
            }
            return false;
        }
    }
}
