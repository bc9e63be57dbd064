package dev.sbemu.core;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** "Wall" time that only the test moves: a running clock built on it follows {@link #advance} deterministically. */
final class ManualWallTime implements VirtualClock.WallTime {
    private volatile long nanos = 1_000_000_000L;
    private final Set<Object> waiting = ConcurrentHashMap.newKeySet();

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public void await(Object monitor, long waitNanos) throws InterruptedException {
        // woken by a notify of the clock, or by advance: real time does not count here
        waiting.add(monitor);
        monitor.wait();
    }

    /** Moves "wall" time and wakes the clocks' threads that wait for it. */
    void advance(Duration by) {
        synchronized (this) {
            nanos += by.toNanos();
        }
        for (Object monitor : waiting) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
    }
}
