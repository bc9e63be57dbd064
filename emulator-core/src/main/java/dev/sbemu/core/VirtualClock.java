package dev.sbemu.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The emulator's clock (SPEC CLK-1..3, CLK-6..8). It starts frozen and moves only when a test calls
 * {@link #advance(Duration)} or {@link #advanceTo(Instant)}. Advancing fires every timer of the
 * namespaces that use this clock in due-time order, each seeing the clock at its own due instant.
 *
 * <p>{@link #run()} makes it follow the wall clock from where it stands, at rate 1: every timer then falls due
 * as real time passes, in the same order and seeing the same instants as an advance would give it, and the
 * clock never shows an instant past a timer that has not fired yet (CLK-6). One daemon thread per running
 * clock with registered timers fires them, woken for the earliest due instant and by nothing else; it ends
 * when the clock is frozen again or its last namespace closes (CLK-7). {@link #advance}
 * and {@link #advanceTo} still jump ahead while it runs; {@link #freeze()} stops it where it stands.
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

    /** The longest a running clock's thread waits in one go (a due instant further away is waited for in steps). */
    private static final long MAX_WAIT_NANOS = TimeUnit.HOURS.toNanos(1);

    private static final AtomicLong THREADS = new AtomicLong();

    /** What a clock change was, for the namespaces' listeners (the journal, blocked receivers). */
    enum Change {
        /** An {@code advance} or {@code advanceTo} (a jump, also while running). */
        JUMPED,
        /** A running clock fired the timers that real time brought due. */
        TICKED,
        /** {@link #run()}. */
        RAN,
        /** {@link #freeze()}. */
        FROZE
    }

    /** Listens to clock changes (package-private: the namespace journals them and wakes blocked receivers). */
    interface Listener {
        void changed(Change change, Instant now);
    }

    /**
     * The real time a running clock follows: {@link System#nanoTime()} and timed waits on a monitor. Injectable
     * (package-private) so tests can move "wall" time by hand.
     */
    interface WallTime {
        long nanoTime();

        /** Waits on {@code monitor} (held by the caller) until notified or {@code nanos} of this time passed. */
        void await(Object monitor, long nanos) throws InterruptedException;

        WallTime SYSTEM = new WallTime() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void await(Object monitor, long nanos) throws InterruptedException {
                TimeUnit.NANOSECONDS.timedWait(monitor, nanos);
            }
        };
    }

    /**
     * A running clock's anchor: it showed {@code from} at wall time {@code atNanos}; past {@code maxElapsed} wall
     * nanos it shows {@link #LATEST}.
     */
    private record Running(Instant from, long atNanos, long maxElapsed) {
        Running(Instant from, long atNanos) {
            this(
                    from,
                    atNanos,
                    untilLatest(from).compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0
                            ? Long.MAX_VALUE
                            : untilLatest(from).toNanos());
        }

        /** On the hot path of a running namespace (every "now"): one allocation, no Duration. */
        Instant at(long nanos) {
            long elapsed = nanos - atNanos;
            if (elapsed <= 0) {
                return from;
            }
            return elapsed >= maxElapsed
                    ? LATEST
                    : Instant.ofEpochSecond(from.getEpochSecond(), from.getNano() + elapsed);
        }

        /** Wall nanos until this anchor shows {@code due} (at most {@link #MAX_WAIT_NANOS}); 0 or less: due. */
        long nanosUntil(Instant due, long nanos) {
            Duration ahead =
                    Duration.ofSeconds(due.getEpochSecond() - from.getEpochSecond(), due.getNano() - from.getNano());
            if (ahead.compareTo(Duration.ofNanos(MAX_WAIT_NANOS)) > 0) {
                return MAX_WAIT_NANOS;
            }
            return ahead.toNanos() - (nanos - atNanos);
        }
    }

    private final ZoneId zone;
    private final Shared shared;

    private static final class Shared {
        /** Frozen: the time. Running: the least the clock shows (the latest instant it showed). Only raised. */
        final AtomicReference<Instant> now;

        final WallTime wall;
        /** Non-null while running. */
        volatile Running running;
        /** Timers are firing: the clock shows {@link #now}, the instant of the timer that fires. */
        volatile boolean advancing;
        /**
         * Running: an instant no later than any pending timer's due instant; the clock shows no later than it, so
         * time never passes a timer before it has fired (CLK-6). Lowered by {@link #timerScheduled}, raised by the
         * scheduler thread once it has read the drivers' next due instants.
         */
        volatile Instant horizon = LATEST;

        final Object advanceLock = new Object();
        final CopyOnWriteArrayList<TimerDriver> drivers = new CopyOnWriteArrayList<>();
        final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();
        /** Guards {@link #scheduledSince} and {@link #scheduler}, and the horizon's updates; the thread waits on it. */
        final Object sched = new Object();
        /** Held while the horizon is read from the drivers: one reading at a time uses {@link #scheduledSince}. */
        final Object refresh = new Object();
        /** The earliest due instant scheduled since the current reading of the drivers began. */
        Instant scheduledSince = LATEST;
        /** A reading of the drivers is under way ({@link #refreshHorizon}): every new timer must be recorded. */
        volatile boolean reading;

        Thread scheduler;

        Shared(Instant start, WallTime wall) {
            this.now = new AtomicReference<>(start);
            this.wall = wall;
        }

        void raiseNow(Instant to) {
            now.accumulateAndGet(to, (a, b) -> b.isAfter(a) ? b : a);
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
        return startingAt(start, WallTime.SYSTEM);
    }

    /** A clock frozen at {@code start} that, when running, follows {@code wall} (tests move it by hand). */
    static VirtualClock startingAt(Instant start, WallTime wall) {
        Objects.requireNonNull(start, "start");
        if (start.isBefore(EARLIEST) || start.isAfter(LATEST)) {
            throw new IllegalArgumentException("the virtual clock cannot start at " + start + ": it runs from "
                    + EARLIEST + " to " + LATEST + ", the range of the service's times");
        }
        return new VirtualClock(new Shared(start, Objects.requireNonNull(wall, "wall")), ZoneOffset.UTC);
    }

    @Override
    public Instant instant() {
        Shared s = shared;
        Running running = s.running;
        if (running == null || s.advancing) {
            return s.now.get();
        }
        // horizon before now: timerScheduled raises now before it lowers the horizon
        Instant horizon = s.horizon;
        Instant floor = s.now.get();
        Instant wall = running.at(s.wall.nanoTime());
        Instant shown = wall.isBefore(horizon) ? wall : horizon;
        if (!shown.isAfter(floor)) {
            return floor;
        }
        // what one reader saw is the least any later reader sees, whatever freezes, jumps or fires meanwhile
        return s.now.accumulateAndGet(shown, (a, b) -> b.isAfter(a) ? b : a);
    }

    /** Whether the clock stands still ({@link ClockMode#FROZEN}, the default) or follows the wall clock. */
    public ClockMode mode() {
        return shared.running != null ? ClockMode.RUNNING : ClockMode.FROZEN;
    }

    /**
     * Makes the clock follow the wall clock from the instant it shows, at rate 1 (CLK-6): timers fall due as real
     * time passes, fired by a daemon thread of this clock (CLK-7). The journal of each namespace on it records
     * {@code CLOCK_RUNNING}. Does nothing when it runs already.
     */
    public void run() {
        Shared s = shared;
        synchronized (s.advanceLock) {
            if (s.running != null) {
                return;
            }
            Instant from = s.now.get();
            synchronized (s.sched) {
                // until the scheduler thread has read the drivers' next due instants, the clock stays where it is
                s.horizon = s.drivers.isEmpty() ? LATEST : from;
                s.running = new Running(from, s.wall.nanoTime());
                ensureScheduler();
                s.sched.notifyAll();
            }
            refreshHorizon();
            notifyListeners(Change.RAN);
        }
    }

    /**
     * Stops the clock at the instant it shows; from then on only {@link #advance} and {@link #advanceTo} move it.
     * Its thread ends. The journal of each namespace on it records {@code CLOCK_FROZEN}. Does nothing when it is
     * frozen already.
     */
    public void freeze() {
        Shared s = shared;
        synchronized (s.advanceLock) {
            if (s.running == null) {
                return;
            }
            s.raiseNow(instant());
            synchronized (s.sched) {
                s.running = null;
                s.horizon = LATEST;
                s.sched.notifyAll();
            }
            notifyListeners(Change.FROZE);
        }
    }

    /**
     * Tells a running clock that one of its registered {@link TimerDriver}s has a new timer due at {@code due}, so
     * that it fires on time (the namespaces' own timers tell it themselves). A driver calls it after adding the
     * timer. Cheap, and nothing to do, on a frozen clock.
     */
    public void timerScheduled(Instant due) {
        Shared s = shared;
        if (s.running == null) {
            return;
        }
        if (!s.reading && !due.isBefore(s.horizon)) {
            return; // nothing to wake for, and no reading of the drivers under way that could miss it
        }
        synchronized (s.sched) {
            if (due.isBefore(s.scheduledSince)) {
                s.scheduledSince = due; // a reading of the drivers under way may have missed it
            }
            if (due.isBefore(s.horizon)) {
                s.raiseNow(instant()); // what readers may have seen stays the least the clock shows
                s.horizon = due;
                s.sched.notifyAll();
            }
        }
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
            Instant from = instant();
            if (duration.compareTo(untilLatest(from)) > 0) {
                throw pastLatest("advance " + duration + " from " + from);
            }
            advanceToLocked(from.plus(duration), Change.JUMPED);
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
            Instant from = instant();
            if (target.isBefore(from)) {
                throw new IllegalArgumentException(
                        "the virtual clock cannot go back: now is " + from + ", target was " + target);
            }
            advanceToLocked(target, Change.JUMPED);
        }
    }

    /** Fires every timer due up to {@code target} in due-time order, then shows {@code target}; advanceLock held. */
    private void advanceToLocked(Instant target, Change change) {
        Shared s = shared;
        s.raiseNow(instant()); // a running clock: from what it shows (no later than any pending timer)
        s.advancing = true;
        try {
            while (true) {
                TimerDriver next = null;
                Instant nextDue = null;
                for (TimerDriver driver : s.drivers) {
                    Instant due = driver.nextDue();
                    if (due != null && !due.isAfter(target) && (nextDue == null || due.isBefore(nextDue))) {
                        next = driver;
                        nextDue = due;
                    }
                }
                if (next == null) {
                    break;
                }
                s.raiseNow(nextDue);
                next.fireDue(s.now.get());
            }
            s.raiseNow(target);
            if (s.running != null && change == Change.JUMPED) {
                s.running = new Running(s.now.get(), s.wall.nanoTime()); // a jump: follow the wall clock from there
            }
        } finally {
            s.advancing = false;
        }
        if (s.running != null && change == Change.JUMPED) {
            synchronized (s.sched) {
                s.sched.notifyAll(); // a new anchor: the thread waits anew
            }
            refreshHorizon();
        }
        notifyListeners(change);
    }

    private void notifyListeners(Change change) {
        Instant now = instant();
        shared.listeners.forEach(l -> l.changed(change, now));
    }

    /** Starts the scheduler thread when the clock runs and has drivers and none is running; sched held. */
    private void ensureScheduler() {
        Shared s = shared;
        if (s.running != null && !s.drivers.isEmpty() && s.scheduler == null) {
            Thread thread = new Thread(this::schedule, "sbemu-clock-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            s.scheduler = thread;
            thread.start();
        }
    }

    /**
     * The running clock's thread: reads the earliest due instant of the registered drivers, waits until the
     * wall clock reaches it (or a change wakes it), and fires what is due as an advance would. Ends when the
     * clock freezes or has no drivers left.
     */
    private void schedule() {
        Shared s = shared;
        Thread self = Thread.currentThread();
        while (true) {
            refreshHorizon();
            synchronized (s.sched) {
                if (s.scheduler != self) {
                    return;
                }
                Running running = s.running;
                if (running == null || s.drivers.isEmpty()) {
                    s.scheduler = null;
                    if (s.drivers.isEmpty()) {
                        s.horizon = LATEST;
                    }
                    return;
                }
                // the horizon as it is now: a timer scheduled since the reading lowered it (and its notify came
                // while this thread was not waiting yet)
                Instant next = s.horizon;
                long wait = next.equals(LATEST) ? MAX_WAIT_NANOS : running.nanosUntil(next, s.wall.nanoTime());
                if (wait > 0) {
                    try {
                        s.wall.await(s.sched, wait);
                    } catch (InterruptedException e) {
                        // not ours to end: the clock ends its thread by freezing or losing its drivers
                    }
                    continue;
                }
            }
            try {
                synchronized (s.advanceLock) {
                    Running running = s.running;
                    if (running != null) {
                        Instant wallNow = running.at(s.wall.nanoTime());
                        advanceToLocked(wallNow.isAfter(LATEST) ? LATEST : wallNow, Change.TICKED);
                    }
                }
            } catch (RuntimeException | Error e) {
                Thread.UncaughtExceptionHandler handler = self.getUncaughtExceptionHandler();
                handler.uncaughtException(self, e); // report, and go on firing the other timers
            }
        }
    }

    /**
     * Sets a running clock's horizon to the drivers' earliest due instant, or to an earlier one scheduled while it
     * read them. Called by the thread before each wait, and at once by run, register and jumps, so the clock does
     * not stand still until the thread gets to it. One reading at a time.
     */
    private void refreshHorizon() {
        Shared s = shared;
        synchronized (s.refresh) {
            synchronized (s.sched) {
                if (s.running == null) {
                    return;
                }
                s.scheduledSince = LATEST;
                s.reading = true;
            }
            Instant next = null;
            boolean read = false;
            try {
                next = earliestDue();
                read = true;
            } finally {
                synchronized (s.sched) {
                    if (read && s.running != null) {
                        Instant since = s.scheduledSince;
                        Instant horizon = next == null ? LATEST : next;
                        s.horizon = since.isBefore(horizon) ? since : horizon;
                    }
                    s.reading = false; // after the horizon: a schedule that sees false sees the horizon too
                }
            }
        }
    }

    /** The earliest due instant of all drivers, or null. */
    private Instant earliestDue() {
        Instant earliest = null;
        for (TimerDriver driver : shared.drivers) {
            Instant due = driver.nextDue();
            if (due != null && (earliest == null || due.isBefore(earliest))) {
                earliest = due;
            }
        }
        return earliest;
    }

    /** Whether this clock's scheduler thread is alive (for tests: a frozen clock, or one without drivers, has none). */
    boolean hasSchedulerThread() {
        synchronized (shared.sched) {
            return shared.scheduler != null && shared.scheduler.isAlive();
        }
    }

    /** The scheduler thread, or null (for tests). */
    Thread schedulerThread() {
        synchronized (shared.sched) {
            return shared.scheduler;
        }
    }

    /**
     * Runs {@code action} while no timer fires: no advance is under way while it runs and none starts
     * before it returns (nor does a running clock fire timers, though the instant it shows goes on up to
     * the next pending timer), so a timer that is not due at the instant it reads cannot fire meanwhile.
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
     * namespaces' own timers (CLK-2), and so does a running clock as real time passes (tell it about new timers
     * with {@link #timerScheduled}). Used by {@link Namespace}, and by clients whose work runs on virtual time
     * (the SDK adapter's automatic lock renewal).
     */
    public void register(TimerDriver driver) {
        shared.drivers.add(Objects.requireNonNull(driver, "driver"));
        Shared s = shared;
        synchronized (s.sched) {
            if (s.running != null) {
                // its timers are unknown until the thread reads them: the clock waits for that where it is
                s.raiseNow(instant());
                s.horizon = s.now.get();
                ensureScheduler();
                s.sched.notifyAll();
            }
        }
        refreshHorizon();
    }

    /** Stops firing {@code driver}'s timers. A running clock's thread ends with its last driver. */
    public void unregister(TimerDriver driver) {
        shared.drivers.remove(driver);
        synchronized (shared.sched) {
            shared.sched.notifyAll();
        }
    }

    /** Runs {@code listener} after each change: advances (jumps and a running clock's firing), run, freeze. */
    void onChange(Listener listener) {
        shared.listeners.add(listener);
    }

    void removeOnChange(Listener listener) {
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
        return "VirtualClock[" + instant() + ", " + zone + (shared.running != null ? ", running" : "") + "]";
    }
}
