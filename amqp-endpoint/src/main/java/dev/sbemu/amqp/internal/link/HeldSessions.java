package dev.sbemu.amqp.internal.link;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.SessionLock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The message sessions the endpoint's session receivers hold, over all connections: {@code $management} finds a
 * session's lock here by its id, and they are released when the served namespace is replaced or the endpoint closes.
 * Any thread.
 */
public final class HeldSessions {
    private final Map<String, SessionLock> sessions = new ConcurrentHashMap<>();

    void hold(SessionLock lock) {
        sessions.put(key(lock.entity(), lock.sessionId()), lock);
    }

    void drop(SessionLock lock) {
        sessions.remove(key(lock.entity(), lock.sessionId()), lock);
    }

    /** The session a link of this endpoint holds, or null. */
    public SessionLock get(EntityPath entity, String sessionId) {
        return sessions.get(key(entity, sessionId));
    }

    /** Releases every held session in {@code held}, the namespace they belong to. */
    public void releaseAll(Namespace held) {
        for (String key : sessions.keySet()) {
            SessionLock lock = sessions.remove(key);
            try {
                if (lock != null) {
                    held.releaseSession(lock);
                }
            } catch (RuntimeException ignored) {
                // lost already
            }
        }
    }

    private static String key(EntityPath entity, String sessionId) {
        return entity + "\u0000" + sessionId;
    }
}
