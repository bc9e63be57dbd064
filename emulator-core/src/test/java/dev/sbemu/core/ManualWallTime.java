package dev.sbemu.core;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** "Wall" time that only the test moves: a running clock built on it follows {@link #advance} deterministically. */
final class ManualWallTime implements VirtualClock.WallTime {
    private volatile long nanos = 1_000_000_000L;
    /** Counts advances; a waiter that read the time before the latest one does not wait. */
    private volatile long generation;

    private final ThreadLocal<Long> generationRead = ThreadLocal.withInitial(() -> -1L);
    private final Set<Object> waiting = ConcurrentHashMap.newKeySet();

    @Override
    public long nanoTime() {
        generationRead.set(generation);
        return nanos;
    }

    @Override
    public void await(Object monitor, long waitNanos) throws InterruptedException {
        // woken by a notify of the clock, or by advance: real time does not count here
        waiting.add(monitor);
        if (generation != generationRead.get()) {
            return; // the time moved after the caller read it (before advance knew this monitor)
        }
        monitor.wait();
    }

    /** Moves "wall" time and wakes the clocks' threads that wait for it. */
    void advance(Duration by) {
        synchronized (this) {
            nanos += by.toNanos();
            generation++;
        }
        for (Object monitor : waiting) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
    }
}
