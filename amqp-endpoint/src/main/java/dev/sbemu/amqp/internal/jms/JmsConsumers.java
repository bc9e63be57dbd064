package dev.sbemu.amqp.internal.jms;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The links consuming from each JMS subscription (by its name, which holds the client id), over all connections: an
 * unshared subscription takes one consumer, a non-durable one is deleted with its last, and one with a consumer cannot
 * be unsubscribed (JMS-17, JMS-18). Any thread.
 */
public final class JmsConsumers {
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    /**
     * Counts one more JMS consumer link on {@code subscription}; false (and nothing counted) when the subscription
     * already has one and either it or the new one is {@code exclusive} (an unshared subscription takes one consumer,
     * and a shared consumer cannot join one an unshared consumer holds, nor the reverse, JMS-17). An exclusive holder
     * is kept as -1.
     */
    boolean add(String subscription, boolean exclusive) {
        boolean[] added = {true};
        counts.compute(subscription, (k, n) -> {
            if (n != null && (exclusive || n < 0)) {
                added[0] = false;
                return n;
            }
            return n == null ? (exclusive ? -1 : 1) : n + 1;
        });
        return added[0];
    }

    /** Counts one JMS consumer link less on {@code subscription}; returns how many are left. */
    int remove(String subscription) {
        Integer left = counts.computeIfPresent(subscription, (k, n) -> n <= 1 ? null : n - 1);
        return left == null ? 0 : left;
    }

    /** How many JMS consumer links {@code subscription} has now. */
    int count(String subscription) {
        return Math.abs(counts.getOrDefault(subscription, 0));
    }
}
