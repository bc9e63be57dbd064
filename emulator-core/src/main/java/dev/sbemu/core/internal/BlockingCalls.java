package dev.sbemu.core.internal;

import dev.sbemu.core.Cancellation;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The blocking calls of one namespace (receive, accept a session), a part of the {@link Broker}
 * façade: each tries under the namespace's lock and, while its try gets nothing, waits in real time
 * up to its max wait on a condition of that lock that the events which can satisfy it signal (CLK-3).
 * Knows whether the virtual clock is in the middle of an advance.
 */
final class BlockingCalls {
    /** One try of a blocking call, under the namespace's lock. */
    interface Attempt<T> {
        /** What the try got, or null for nothing yet; it names the condition to wait on with {@link Wait#on}. */
        T tryOnce(Wait wait);
    }

    private final Services services;
    private final EntityRegistry registry;

    BlockingCalls(EntityRegistry registry) {
        this.services = registry.services;
        this.registry = registry;
    }

    /**
     * One blocking call in progress: its real-time deadline, the condition it waits on, whether its try is the
     * first, and the queue or subscription its wait keeps from being idle.
     */
    final class Wait {
        private final long deadline;
        private Condition condition;
        private boolean firstTry = true;
        private MessageSource receivingFrom;
        private MessageSource waitingOn;

        private Wait(Duration maxWait) {
            this.deadline = System.nanoTime() + Math.max(0, maxWait.toNanos());
        }

        /** The call waits on this condition when its try got nothing. */
        void on(Signal signal) {
            this.condition = signal.condition;
        }

        /**
         * Whether this is the call's first try. The call is one request: it counts as an access of its entity
         * once, when it is made (ADI-5); the tries after a wake-up (a clock advance, a send elsewhere) are the
         * broker looking again, not the client asking again.
         */
        boolean firstTry() {
            return firstTry;
        }

        /** A receive: while the call waits, it keeps {@code source} from being idle (ADI-5). */
        void receivesFrom(MessageSource source) {
            this.receivingFrom = source;
        }

        /**
         * Whether the try may take messages now: not while the clock is in the middle of an advance and
         * the call still has time left. A timer that the advance fired (an activation, a lock expiry)
         * signals waiting receivers at an intermediate instant; one that took messages then would lock
         * them at a time the same advance goes on to pass, and its locks would be lost or stale by the
         * time the advance returns (flaky MESSAGE_LOCK_LOST, commit b22dda0). So it waits for the
         * advance to end ({@link #wakeAll}) and takes at the final instant (CLK-2, CLK-3). A call whose
         * time is up takes what is there rather than return nothing for the advance's sake.
         */
        boolean mayTake() {
            return !services.advancing || deadline - System.nanoTime() <= 0;
        }
    }

    /**
     * Runs a blocking call on {@code what}: tries at once, and while a try gets nothing waits up to
     * {@code maxWait} and tries again; returns what a try got, or null when the time was up first. A
     * cancelled {@code cancellation} (nullable) ends the call with a {@link CancellationException}; an interrupt
     * while it waits, with an {@link InterruptedException}, even when it was signalled too.
     */
    <T> T call(Object what, Duration maxWait, Cancellation cancellation, Attempt<T> attempt)
            throws InterruptedException {
        Wait wait = new Wait(maxWait);
        Runnable unregister = cancellation == null ? () -> {} : cancellation.onCancel(this::wakeWaiters);
        services.lock.lock();
        try {
            while (true) {
                if (cancellation != null && cancellation.isCancelled()) {
                    throw new CancellationException("The call on '" + what + "' was cancelled: its client is closed.");
                }
                T got = attempt.tryOnce(wait);
                wait.firstTry = false;
                long remaining = wait.deadline - System.nanoTime();
                if (got != null || remaining <= 0) {
                    return got;
                }
                if (wait.waitingOn == null && wait.receivingFrom != null) {
                    wait.waitingOn = wait.receivingFrom;
                    wait.waitingOn.receiverWaits();
                }
                wait.condition.await(remaining, TimeUnit.NANOSECONDS);
                if (Thread.interrupted()) {
                    // signalled and interrupted at once, await returns normally with the flag set: an interrupted
                    // waiter must not take (a cancelled session accept would lock the session it was cancelled for)
                    throw new InterruptedException();
                }
            }
        } finally {
            if (wait.waitingOn != null) {
                wait.waitingOn.receiverStopped();
            }
            services.lock.unlock();
            unregister.run();
        }
    }

    /** The clock starts firing due timers (under the lock): receivers wait for the advance's end. */
    void advancing() {
        services.advancing = true;
    }

    /**
     * Wakes every blocked call so it re-checks (after a clock advance or on close); fires the receive-wait
     * callbacks of the stores that may have a message ready, or every one when {@code closing}.
     */
    void wakeAll(boolean closing) {
        services.locked(() -> {
            services.advancing = false;
            registry.signalAll(closing);
        });
    }

    /** Wakes every blocked call so that each re-checks its cancellation. */
    private void wakeWaiters() {
        services.locked(() -> registry.signalAll(false));
    }
}
