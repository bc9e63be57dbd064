package dev.sbemu.sdk.internal;

import dev.sbemu.core.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Automatic lock renewal on the virtual clock: the SDK's {@code LockRenewalOperation} schedule
 * (renew when the lock has {@code min(remaining / 2, 10 s)} left, at once when under 400 ms; stop
 * after {@code maxLockRenewalDuration}), with each renewal a timer that the clock fires in due-time
 * order among the broker's own timers, so a lock is renewed before it would expire however far a test
 * advances the clock. One instance per clock user; register it with the clock, close it to detach.
 */
public final class LockRenewals implements VirtualClock.TimerDriver, AutoCloseable {
    private static final Duration MAX_BUFFER = Duration.ofSeconds(10);
    private static final Duration RENEW_AT_ONCE = Duration.ofMillis(400);

    private final VirtualClock clock;
    private final Set<Renewal> renewals = new LinkedHashSet<>();

    public LockRenewals(VirtualClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        clock.register(this);
    }

    /**
     * Starts renewing a lock until {@code now + maxDuration}.
     *
     * @param lockedUntil the lock's current end (the first renewal is due before it)
     * @param renew renews the lock and returns its new end; throws when the lock is lost
     * @param onError called (once) with the exception that ended the renewals
     * @param onComplete called when the renewals ended because {@code maxDuration} passed
     */
    public Renewal start(
            Instant lockedUntil,
            Duration maxDuration,
            Supplier<Instant> renew,
            Consumer<RuntimeException> onError,
            Runnable onComplete) {
        Instant now = clock.instant();
        Renewal r = new Renewal(now.plus(maxDuration), nextRenewal(now, lockedUntil), renew, onError, onComplete);
        synchronized (renewals) {
            renewals.add(r);
        }
        clock.timerScheduled(r.due()); // a running clock wakes for it (CLK-7)
        return r;
    }

    /**
     * Starts renewing a lock that must still be held, in one step with respect to clock advances: when
     * the clock has reached {@code lockedUntil} (an advance on another thread expired the lock after it
     * was taken), starts nothing and returns null; otherwise the first renewal is registered before any
     * advance can reach the lock's end, so the lock cannot lapse before a renewal has run. A
     * {@code maxDuration} of zero or less only checks: it returns a renewal that never renews.
     */
    public Renewal startIfHeld(
            Instant lockedUntil,
            Duration maxDuration,
            Supplier<Instant> renew,
            Consumer<RuntimeException> onError,
            Runnable onComplete) {
        Duration renewFor = maxDuration.isNegative() ? Duration.ZERO : maxDuration;
        return clock.whileStill(() -> clock.instant().isBefore(lockedUntil)
                ? start(lockedUntil, renewFor, renew, onError, onComplete)
                : null);
    }

    /** The clock's now. */
    public Instant now() {
        return clock.instant();
    }

    /** When the SDK renews a lock that ends at {@code lockedUntil}. */
    static Instant nextRenewal(Instant now, Instant lockedUntil) {
        Duration remaining = Duration.between(now, lockedUntil);
        if (remaining.compareTo(RENEW_AT_ONCE) < 0) {
            return now;
        }
        Duration half = remaining.dividedBy(2);
        return lockedUntil.minus(half.compareTo(MAX_BUFFER) < 0 ? half : MAX_BUFFER);
    }

    @Override
    public Instant nextDue() {
        synchronized (renewals) {
            Instant next = null;
            for (Renewal r : renewals) {
                Instant due = r.due();
                if (next == null || due.isBefore(next)) {
                    next = due;
                }
            }
            return next;
        }
    }

    @Override
    public void fireDue(Instant now) {
        List<Renewal> due = new ArrayList<>();
        synchronized (renewals) {
            for (Renewal r : renewals) {
                if (!r.due().isAfter(now)) {
                    due.add(r);
                }
            }
        }
        for (Renewal r : due) {
            r.fire(now);
        }
    }

    /** Stops every renewal and detaches from the clock. */
    @Override
    public void close() {
        clock.unregister(this);
        synchronized (renewals) {
            renewals.clear();
        }
    }

    /** One lock being renewed. */
    public final class Renewal {
        private final Instant renewUntil;
        private final Supplier<Instant> renew;
        private final Consumer<RuntimeException> onError;
        private final Runnable onComplete;
        private volatile Instant nextRenewal;

        private Renewal(
                Instant renewUntil,
                Instant nextRenewal,
                Supplier<Instant> renew,
                Consumer<RuntimeException> onError,
                Runnable onComplete) {
            this.renewUntil = renewUntil;
            this.nextRenewal = nextRenewal;
            this.renew = renew;
            this.onError = onError;
            this.onComplete = onComplete;
        }

        Instant due() {
            Instant next = nextRenewal;
            return next.isBefore(renewUntil) ? next : renewUntil;
        }

        private void fire(Instant now) {
            if (!now.isBefore(renewUntil)) {
                if (remove()) {
                    onComplete.run();
                }
                return;
            }
            try {
                Instant lockedUntil = renew.get();
                nextRenewal = nextRenewal(now, lockedUntil).isAfter(now)
                        ? nextRenewal(now, lockedUntil)
                        : now.plus(RENEW_AT_ONCE);
            } catch (RuntimeException e) {
                if (remove()) {
                    onError.accept(e);
                }
            }
        }

        /** Stops renewing; returns false when it had stopped already. */
        public boolean cancel() {
            return remove();
        }

        private boolean remove() {
            synchronized (renewals) {
                return renewals.remove(this);
            }
        }
    }
}
