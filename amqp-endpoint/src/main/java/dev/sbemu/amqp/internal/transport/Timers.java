package dev.sbemu.amqp.internal.transport;

import java.util.Collection;
import java.util.Comparator;
import java.util.PriorityQueue;

/** One connection's timers on the loop's clock (a session accept's timeout), soonest first; loop thread only. */
public final class Timers {
    private final PriorityQueue<Timer> due = new PriorityQueue<>(Comparator.comparingLong(Timer::at));

    /** A timer: runs its action on the loop thread once the loop's clock reaches {@code at}. */
    public record Timer(long at, Runnable action, Collection<Timer> in) {
        /** Loop thread: the action will not run. */
        public void cancel() {
            in.remove(this);
        }
    }

    /** Adds a timer that runs {@code action} at {@code at} (loop clock, milliseconds). */
    Timer at(long at, Runnable action) {
        Timer timer = new Timer(at, action, due);
        due.add(timer);
        return timer;
    }

    /** Runs the timers due at {@code now}; the next one's deadline, or {@code Long.MAX_VALUE}. */
    long runDue(long now) {
        Timer next;
        while ((next = due.peek()) != null && next.at() <= now) {
            due.poll();
            next.action().run();
        }
        return next == null ? Long.MAX_VALUE : next.at();
    }
}
