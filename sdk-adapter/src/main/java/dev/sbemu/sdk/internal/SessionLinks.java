package dev.sbemu.sdk.internal;

import dev.sbemu.core.EntityPath;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PAR-4: the session links open on one connection, that is, of the clients of one {@code EmulatorClients} (one
 * {@code ServiceBusClientBuilder}). The SDK names a session receiver's link after the session id
 * ({@code ServiceBusSessionAcquirer.linkName}) and azure-core-amqp's {@code ReactorSession.createConsumer} hands
 * back an open receive link of that name on the same connection and entity instead of attaching a new one; so
 * {@code acceptSession(id)} of a session a receiver of the same builder holds gets that receiver's link, whether
 * the session's lock is still valid or not, until the link ends (the receiver is closed, or the session's stream
 * ended, PAR-2).
 */
final class SessionLinks {
    private record Key(EntityPath entity, String sessionId) {}

    private final Map<Key, SessionBinding> open = new ConcurrentHashMap<>();

    /** The open link of {@code sessionId} on {@code entity}, or null. */
    SessionBinding find(EntityPath entity, String sessionId) {
        Key key = new Key(entity, sessionId);
        SessionBinding binding = open.get(key);
        if (binding != null && !binding.isOpen()) {
            open.remove(key, binding);
            return null;
        }
        return binding;
    }

    /** Records a new session link. */
    void add(SessionBinding binding) {
        open.put(new Key(binding.entity(), binding.sessionId()), binding);
    }
}
