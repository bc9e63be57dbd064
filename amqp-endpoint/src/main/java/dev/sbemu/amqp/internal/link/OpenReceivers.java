package dev.sbemu.amqp.internal.link;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The receiver links ({@link OutgoingLink}) open on every connection of the endpoint: their pumps are woken when the
 * served namespace is replaced, so that they wait in the new one. Any thread.
 */
public final class OpenReceivers {
    private final Set<OutgoingLink> links = ConcurrentHashMap.newKeySet();

    void opened(OutgoingLink link) {
        links.add(link);
    }

    void closed(OutgoingLink link) {
        links.remove(link);
    }

    /** Wakes every pump: each looks again, in the namespace served now. */
    public void wakeAll() {
        links.forEach(OutgoingLink::wakePump);
    }
}
