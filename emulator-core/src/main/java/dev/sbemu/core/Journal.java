package dev.sbemu.core;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened on the bus, as a ring of the last N events: appending is cheap and the memory is
 * bounded, so long runs neither grow the heap nor slow down. Thread-safe.
 */
public final class Journal {
    private final JournalEvent[] ring;
    private long appended;

    Journal(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("journal capacity must be at least 1, was " + capacity);
        }
        this.ring = new JournalEvent[capacity];
    }

    synchronized void append(JournalEvent event) {
        ring[(int) (appended % ring.length)] = event;
        appended++;
    }

    /** The events still held, oldest first. */
    public synchronized List<JournalEvent> events() {
        int held = (int) Math.min(appended, ring.length);
        List<JournalEvent> events = new ArrayList<>(held);
        for (long i = appended - held; i < appended; i++) {
            events.add(ring[(int) (i % ring.length)]);
        }
        return events;
    }

    /** The most events the ring holds (the namespace's journal capacity). */
    public int capacity() {
        return ring.length;
    }

    /** How many events were ever appended, including those the ring has dropped. */
    public synchronized long totalEvents() {
        return appended;
    }

    /** The events as text, one line each, with a header when older events were dropped. */
    public String format() {
        List<JournalEvent> events = events();
        StringBuilder text = new StringBuilder();
        long dropped = totalEvents() - events.size();
        if (dropped > 0) {
            text.append("(").append(dropped).append(" earlier events dropped)\n");
        }
        for (JournalEvent event : events) {
            text.append(event.format()).append('\n');
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return format();
    }
}
