package dev.sbemu.core.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a store signals when a message may have become ready there (a send, an activation, an unlock, a lock
 * expiry, a clock advance, a deletion, the namespace's close): the blocked receive calls waiting on its
 * {@link #condition}, and the one-shot callbacks of receivers that wait without a thread of their own
 * ({@link Broker#whenReceivable}, AMQP-11). Guarded by the namespace's lock.
 */
final class Signal {
    private static final Logger LOG = Logger.getLogger(Signal.class.getName());

    final Condition condition;
    private final Services services;
    private final Set<Waiter> waiters = new LinkedHashSet<>();

    Signal(Services services) {
        this.services = services;
        this.condition = services.newCondition();
    }

    /** Wakes the blocked calls and fires the registered callbacks (not in the middle of a clock advance, CLK-3). */
    void signalAll() {
        condition.signalAll();
        fire();
    }

    /** Fires the registered callbacks (not in the middle of a clock advance). */
    void fire() {
        if (waiters.isEmpty() || services.advancing) {
            return;     // an advance fires them at its end (BlockingCalls#wakeAll), at the final instant
        }
        List<Waiter> toFire = new ArrayList<>(waiters);
        waiters.clear();
        toFire.forEach(Waiter::fired);
    }

    /** One registered callback: fired once, or cancelled; while registered it keeps its source in use (ADI-5). */
    final class Waiter {
        private final MessageSource source;
        private final Runnable callback;
        private boolean done;

        Waiter(MessageSource source, Runnable callback) {
            this.source = source;
            this.callback = callback;
            source.receiverWaits();
            waiters.add(this);
        }

        void fired() {
            if (done) {
                return;
            }
            waiters.remove(this);
            done = true;
            source.receiverStopped();
            try {
                callback.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "sbemu: a receive-wait callback failed", e);
            }
        }

        /** Whether this removed the registration (false: it had fired or was cancelled already). */
        boolean cancel() {
            if (done) {
                return false;
            }
            done = true;
            waiters.remove(this);
            source.receiverStopped();
            return true;
        }
    }
}
