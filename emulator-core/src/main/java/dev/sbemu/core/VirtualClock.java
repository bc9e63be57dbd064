package dev.sbemu.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The emulator's clock (SPEC CLK-1..3). It starts frozen and moves only when a test calls
 * {@link #advance(Duration)} or {@link #advanceTo(Instant)}. Advancing fires every timer of the
 * namespaces that use this clock in due-time order, each seeing the clock at its own due instant.
 *
 * <p>Being a {@link Clock}, it can also be handed to the code under test, so both see the same time.
 * Thread-safe: any thread may read it; advances are serialised.
 */
public final class VirtualClock extends Clock {

    /** Fires the timers of one namespace; implemented by the broker. */
    public interface TimerDriver {
        /** The due instant of the earliest pending timer, or {@code null} when none is pending. */
        Instant nextDue();

        /** Fires every timer due at or before {@code now}, in due-time order. */
        void fireDue(Instant now);
    }

    /**
     * The earliest instant the clock can show: .NET's {@code DateTimeOffset.MinValue}, the start of the
     * range in which the service keeps its times (CLK-4).
     */
    public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    /**
     * The latest instant the clock can reach: .NET's {@code DateTimeOffset.MaxValue} to the millisecond
     * (AMQP timestamps carry milliseconds), the end of the range in which the service keeps its times
     * (CLK-4). An expiry that would fall after it never happens.
     */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    private final ZoneId zone;
    private final Shared shared;

    private static final class Shared {
        volatile Instant now;
        final Object advanceLock = new Object();
        final CopyOnWriteArrayList<TimerDriver> drivers = new CopyOnWriteArrayList<>();
        final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

        Shared(Instant start) {
            this.now = start;
        }
    }

    private VirtualClock(Shared shared, ZoneId zone) {
        this.shared = shared;
        this.zone = zone;
    }

    /** A clock frozen at the wall-clock instant of this call, truncated to milliseconds (CLK-1). */
    public static VirtualClock startingNow() {
        return startingAt(Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * A clock frozen at {@code start}.
     *
     * @throws IllegalArgumentException if {@code start} is before {@link #EARLIEST} or after {@link #LATEST}
     */
    public static VirtualClock startingAt(Instant start) {
        Objects.requireNonNull(start, "start");
        if (start.isBefore(EARLIEST) || start.isAfter(LATEST)) {
            throw new IllegalArgumentException("the virtual clock cannot start at " + start + ": it runs from "
                    + EARLIEST + " to " + LATEST + ", the range of the service's times");
        }
        return new VirtualClock(new Shared(start), ZoneOffset.UTC);
    }

    @Override
    public Instant instant() {
        return shared.now;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** The same virtual time seen in another zone; advancing either moves both. */
    @Override
    public VirtualClock withZone(ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        return zone.equals(this.zone) ? this : new VirtualClock(shared, zone);
    }

    /**
     * Moves the clock forward by {@code duration}, firing every timer that falls due on the way.
     *
     * @throws IllegalArgumentException if the duration is negative, or would take the clock past {@link #LATEST}
     */
    public void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative, was " + duration);
        }
        synchronized (shared.advanceLock) {
            if (duration.compareTo(untilLatest(shared.now)) > 0) {
                throw pastLatest("advance " + duration + " from " + shared.now);
            }
            advanceToLocked(shared.now.plus(duration));
        }
    }

    /**
     * The span from {@code now} to {@link #LATEST}. Not {@code Duration.between(now, LATEST)}: a span of centuries
     * overflows a long of nanoseconds, and {@code Duration.between} throws and catches an {@code ArithmeticException}
     * inside to fall back to seconds (as {@link Durations#plusOrNever} explains); seconds and nanos cannot overflow.
     */
    private static Duration untilLatest(Instant now) {
        return Duration.ofSeconds(LATEST.getEpochSecond() - now.getEpochSecond(), LATEST.getNano() - now.getNano());
    }

    private static IllegalArgumentException pastLatest(String what) {
        return new IllegalArgumentException("the virtual clock cannot " + what + ": it cannot go past " + LATEST
                + ", the latest instant the service represents (.NET DateTimeOffset.MaxValue)");
    }

    /**
     * Moves the clock forward to {@code target}, firing every timer that falls due on the way.
     *
     * @throws IllegalArgumentException if {@code target} is before the current instant or after {@link #LATEST}
     */
    public void advanceTo(Instant target) {
        Objects.requireNonNull(target, "target");
        if (target.isAfter(LATEST)) {
            throw pastLatest("advance to " + target);
        }
        synchronized (shared.advanceLock) {
            if (target.isBefore(shared.now)) {
                throw new IllegalArgumentException(
                        "the virtual clock cannot go back: now is " + shared.now + ", target was " + target);
            }
            advanceToLocked(target);
        }
    }

    private void advanceToLocked(Instant target) {
        while (true) {
            TimerDriver next = null;
            Instant nextDue = null;
            for (TimerDriver driver : shared.drivers) {
                Instant due = driver.nextDue();
                if (due != null && !due.isAfter(target) && (nextDue == null || due.isBefore(nextDue))) {
                    next = driver;
                    nextDue = due;
                }
            }
            if (next == null) {
                break;
            }
            if (nextDue.isAfter(shared.now)) {
                shared.now = nextDue;
            }
            next.fireDue(shared.now);
        }
        shared.now = target;
        shared.listeners.forEach(Runnable::run);
    }

    /**
     * Runs {@code action} while the clock stands still: no advance is under way while it runs and none
     * starts before it returns, so a timer that is not due at the instant it reads cannot fire meanwhile.
     * For clients whose work runs on virtual time and must check and act in one step (the SDK adapter
     * checks that a lock is still held and registers its renewal, so a concurrent advance cannot expire
     * the lock in between). {@code action} may advance the clock itself, but must not wait for another
     * thread that does.
     */
    public <T> T whileStill(Supplier<T> action) {
        Objects.requireNonNull(action, "action");
        synchronized (shared.advanceLock) {
            return action.get();
        }
    }

    /**
     * Registers timers with this clock: each advance fires them in due-time order together with the
     * namespaces' own timers (CLK-2). Used by {@link Namespace}, and by clients whose work runs on
     * virtual time (the SDK adapter's automatic lock renewal).
     */
    public void register(TimerDriver driver) {
        shared.drivers.add(Objects.requireNonNull(driver, "driver"));
    }

    /** Stops firing {@code driver}'s timers. */
    public void unregister(TimerDriver driver) {
        shared.drivers.remove(driver);
    }

    /** Runs {@code listener} after each advance (used to wake blocked receivers). */
    void onAdvance(Runnable listener) {
        shared.listeners.add(listener);
    }

    void removeOnAdvance(Runnable listener) {
        shared.listeners.remove(listener);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VirtualClock that && that.shared == shared && that.zone.equals(zone);
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(shared) * 31 + zone.hashCode();
    }

    @Override
    public String toString() {
        return "VirtualClock[" + shared.now + ", " + zone + "]";
    }
}
