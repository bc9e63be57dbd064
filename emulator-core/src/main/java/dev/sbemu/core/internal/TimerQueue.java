package dev.sbemu.core.internal;

import dev.sbemu.core.PendingTimer;
import dev.sbemu.core.PendingTimer.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Every time-based transition of one namespace, ordered by due instant and then by creation order
 * (SPEC CLK-2). Cancelling is O(log n), so completed messages leave no timers behind.
 * Not thread-safe: guarded by the namespace's lock.
 */
public final class TimerQueue {

    /** A pending transition. */
    public static final class Timer implements Comparable<Timer> {
        private final Instant due;
        private final long order;
        private final Runnable action;
        private final Label label;

        private Timer(Instant due, long order, Runnable action, Label label) {
            this.due = due;
            this.order = order;
            this.action = action;
            this.label = label;
        }

        PendingTimer view() {
            return new PendingTimer(due, label.kind, label.entity, label.sequenceNumber, label.messageId, label.detail);
        }

        public Instant due() {
            return due;
        }

        @Override
        public int compareTo(Timer other) {
            int byDue = due.compareTo(other.due);
            return byDue != 0 ? byDue : Long.compare(order, other.order);
        }
    }

    /**
     * What a timer is for: its kind, the entity, the message (sequence number, id) or a detail; shown by {@link
     * #pending(int)}.
     */
    public record Label(Kind kind, String entity, long sequenceNumber, String messageId, String detail) {
        /** A timer of one message of {@code entity}. */
        public static Label message(Kind kind, String entity, StoredMessage m) {
            return new Label(kind, entity, m.sequenceNumber, m.messageId(), "");
        }

        /** A timer of no one message. */
        public static Label of(Kind kind, String entity, String detail) {
            return new Label(kind, entity, -1, null, detail);
        }
    }

    private final TreeSet<Timer> timers = new TreeSet<>();
    private final Consumer<Instant> onSchedule;
    private long nextOrder;

    public TimerQueue() {
        this(due -> {});
    }

    /** A queue that tells {@code onSchedule} each new timer's due instant (a running clock wakes for it, CLK-7). */
    public TimerQueue(Consumer<Instant> onSchedule) {
        this.onSchedule = onSchedule;
    }

    /** Schedules {@code action} at {@code due}; {@code label} says what it is for. */
    public Timer schedule(Instant due, Label label, Runnable action) {
        Timer timer = new Timer(due, nextOrder++, action, label);
        timers.add(timer);
        onSchedule.accept(due);
        return timer;
    }

    /** Removes a pending timer; null and fired timers are ignored. */
    public void cancel(Timer timer) {
        if (timer != null) {
            timers.remove(timer);
        }
    }

    /** The earliest due instant, or null. */
    public Instant nextDue() {
        return timers.isEmpty() ? null : timers.first().due;
    }

    /** Runs, in order, every timer due at or before {@code now}, including timers those timers add. */
    public void fireDue(Instant now) {
        Timer next;
        while ((next = timers.pollFirst()) != null) {
            if (next.due.isAfter(now)) {
                timers.add(next);
                return;
            }
            next.action.run();
        }
    }

    /** The {@code max} earliest pending timers, in the order they fire. */
    public List<PendingTimer> pending(int max) {
        List<PendingTimer> out = new ArrayList<>(Math.min(max, timers.size()));
        for (Timer timer : timers) {
            if (out.size() >= max) {
                break;
            }
            out.add(timer.view());
        }
        return out;
    }

    public int size() {
        return timers.size();
    }
}
