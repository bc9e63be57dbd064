package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.PendingTimer.Kind;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The sessions of one session-enabled queue or subscription: who holds which, until when, and
 * their state (SES-2..4, TTL-13). Runs under the namespace's lock.
 */
final class SessionTable {
    private final MessageSource source;
    private final Services services;
    private final Map<String, SessionEntry> sessions = new HashMap<>();

    private TimerQueue.Label sessionLabel(SessionEntry session) {
        return TimerQueue.Label.of(Kind.SESSION_LOCK_EXPIRY, source.main.pathText, "session " + session.sessionId);
    }

    SessionTable(MessageSource source) {
        this.source = source;
        this.services = source.services;
    }

    /** Every session that is held, has kept a state or has ready messages, in the order first seen. */
    List<SessionInfo> view() {
        Map<String, SessionInfo> out = new LinkedHashMap<>();
        for (SessionEntry s : sessions.values()) {
            if (s.isHeld() || s.state != null) {
                out.put(s.sessionId, info(s));
            }
        }
        for (String sessionId : source.main.readyBySession.keySet()) {
            out.computeIfAbsent(sessionId, id -> info(sessions.getOrDefault(id, new SessionEntry(id))));
        }
        return List.copyOf(out.values());
    }

    private SessionInfo info(SessionEntry s) {
        TreeMap<StoredMessage, StoredMessage> ready = source.main.readyBySession.get(s.sessionId);
        return new SessionInfo(
                s.sessionId,
                s.holder,
                s.lockedUntil,
                s.state == null ? null : s.state.clone(),
                ready == null ? 0 : ready.size());
    }

    /** The session, if a receiver holds it right now. */
    SessionEntry heldOrNull(String sessionId) {
        SessionEntry session = sessions.get(sessionId);
        return session != null && session.isHeld() ? session : null;
    }

    /**
     * Locks a named session, or the next session with ready messages (null when none is free). The accept call
     * accesses the entity when it is made ({@code firstTry}) and when it locks a session; a waiting accept does
     * not keep the entity in use (ADI-5).
     */
    SessionEntry tryAccept(String sessionId, boolean firstTry) {
        Instant now = services.now();
        if (firstTry) {
            source.touch();
        }
        SessionEntry session;
        if (sessionId != null) {
            session = sessions.computeIfAbsent(sessionId, SessionEntry::new);
            if (session.isHeld()) {
                throw new BrokerException.SessionCannotBeLocked("The requested session '" + sessionId
                        + "' cannot be accepted. It may be locked by another receiver. Entity: '" + source.name + "'.");
            }
        } else {
            session = nextFreeSession();
            if (session == null) {
                return null;
            }
        }
        source.touch();
        session.holder = services.newLockToken();
        session.lockedUntil = now.plus(source.lockDuration());
        session.lockTimer =
                services.timers.schedule(session.lockedUntil, sessionLabel(session), () -> onLockExpired(session));
        services.journal(
                Type.SESSION_LOCKED, source.main.pathText, session.sessionId, "locked until " + session.lockedUntil);
        expireAllIfAnyExpired(session, now);
        return session;
    }

    /** Whether a session that no receiver holds has ready messages (an accept of the next session would lock it). */
    boolean hasFreeReadySession() {
        for (String sessionId : source.main.readyBySession.keySet()) {
            SessionEntry session = sessions.get(sessionId);
            if (session == null || !session.isHeld()) {
                return true;
            }
        }
        return false;
    }

    /** How many sessions no receiver holds have ready messages. */
    int freeReadySessions() {
        int free = 0;
        for (String sessionId : source.main.readyBySession.keySet()) {
            SessionEntry session = sessions.get(sessionId);
            if (session == null || !session.isHeld()) {
                free++;
            }
        }
        return free;
    }

    /** The held sessions that have ready messages. */
    List<String> heldReadySessions() {
        List<String> held = new ArrayList<>();
        for (String sessionId : source.main.readyBySession.keySet()) {
            SessionEntry session = sessions.get(sessionId);
            if (session != null && session.isHeld()) {
                held.add(sessionId);
            }
        }
        return held;
    }

    /** The free session whose oldest ready message came first. */
    private SessionEntry nextFreeSession() {
        SessionEntry best = null;
        long bestSequence = Long.MAX_VALUE;
        for (Map.Entry<String, TreeMap<StoredMessage, StoredMessage>> e : source.main.readyBySession.entrySet()) {
            SessionEntry session = sessions.computeIfAbsent(e.getKey(), SessionEntry::new);
            long first = e.getValue().firstKey().sequenceNumber;
            if (!session.isHeld() && first < bestSequence) {
                best = session;
                bestSequence = first;
            }
        }
        return best;
    }

    /** TTL-13: with a receiver on the session, one expired message expires all of the session's messages. */
    void expireAllIfAnyExpired(SessionEntry session, Instant now) {
        List<StoredMessage> ready = new ArrayList<>(source.main
                .readyBySession
                .getOrDefault(session.sessionId, new TreeMap<>())
                .values());
        if (ready.stream().anyMatch(m -> m.isExpiredAt(now))) {
            ready.forEach(source::expire);
        }
    }

    /** The session held by {@code token}, or SESSION_LOCK_LOST (SES-3). */
    SessionEntry held(String sessionId, UUID token) {
        SessionEntry session = sessions.get(sessionId);
        if (session == null || !token.equals(session.holder)) {
            throw new BrokerException.SessionLockLost("The session lock was lost. Request a new session receiver. "
                    + "Session: '" + sessionId + "', entity: '" + source.name + "'.");
        }
        if (!session.lockedUntil.isAfter(services.now())) {
            onLockExpired(session);
            throw new BrokerException.SessionLockLost(
                    "The session lock has expired. Session: '" + sessionId + "', entity: '" + source.name + "'.");
        }
        return session;
    }

    List<BrokeredMessage> take(SessionEntry session, ReceiveMode mode, int max) {
        expireAllIfAnyExpired(session, services.now());
        return source.takeReady(source.main, mode, max, session);
    }

    Instant renew(SessionEntry session) {
        source.touch();
        services.timers.cancel(session.lockTimer);
        session.lockedUntil = services.now().plus(source.lockDuration());
        session.lockTimer =
                services.timers.schedule(session.lockedUntil, sessionLabel(session), () -> onLockExpired(session));
        for (StoredMessage m : source.main.locked.values()) {
            if (session.holder.equals(m.sessionHolder)) {
                m.lockedUntil = session.lockedUntil;
            }
        }
        services.journal(
                Type.LOCK_RENEWED,
                source.main.pathText,
                session.sessionId,
                "session locked until " + session.lockedUntil);
        return session.lockedUntil;
    }

    byte[] state(String sessionId) {
        source.touch();
        SessionEntry session = sessions.get(sessionId);
        return session == null || session.state == null ? null : session.state.clone();
    }

    /** SES-7: an empty state clears it, as null does (the Go SDK sends its nil slice as an empty binary). */
    void setState(SessionEntry session, byte[] state) {
        source.touch();
        session.state = state == null || state.length == 0 ? null : state.clone();
        session.stateUpdatedAt = services.now();
    }

    /**
     * The ids of the sessions with active messages (ready or locked) or a state, or, with {@code stateUpdatedAfter},
     * of those whose state was set after it; as the service's {@code get-message-sessions}.
     */
    List<String> list(Instant stateUpdatedAfter) {
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        if (stateUpdatedAfter == null) {
            ids.addAll(source.main.readyBySession.keySet());
            for (StoredMessage m : source.main.locked.values()) {
                if (m.message.sessionId() != null) {
                    ids.add(m.message.sessionId());
                }
            }
            sessions.values().stream()
                    .filter(session -> session.state != null)
                    .forEach(session -> ids.add(session.sessionId));
        } else {
            sessions.values().stream()
                    .filter(session ->
                            session.stateUpdatedAt != null && session.stateUpdatedAt.isAfter(stateUpdatedAfter))
                    .forEach(session -> ids.add(session.sessionId));
        }
        return new ArrayList<>(ids);
    }

    /** The receiver let go (close): its locked messages return, counted as a delivery (SES-3). */
    void release(SessionEntry session, boolean expired) {
        services.timers.cancel(session.lockTimer);
        UUID holder = session.holder;
        session.holder = null;
        session.lockedUntil = null;
        session.lockTimer = null;
        for (StoredMessage m : new ArrayList<>(source.main.locked.values())) {
            if (holder.equals(m.sessionHolder)) {
                m.sessionHolder = null;
                source.endDelivery(source.main, m);
            }
        }
        services.journal(
                expired ? Type.SESSION_LOCK_EXPIRED : Type.SESSION_RELEASED,
                source.main.pathText,
                session.sessionId,
                "");
        source.main.readyOrChanged.sessionReleased(
                session.sessionId, source.main.readyBySession.containsKey(session.sessionId));
    }

    private void onLockExpired(SessionEntry session) {
        if (session.isHeld()) {
            release(session, true);
        }
    }
}
