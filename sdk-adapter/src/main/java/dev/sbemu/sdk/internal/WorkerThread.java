package dev.sbemu.sdk.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A processor's worker: a daemon thread that blocks in the core (receive, accept session) and still
 * stops promptly, because {@link #stop()} interrupts it only while it blocks, never inside a handler.
 */
abstract class WorkerThread implements Runnable {
    private volatile Thread thread;
    private boolean stopped;
    private boolean blocking;

    /** Starts the worker on a new daemon thread named {@code name}. */
    final void start(String name) {
        Thread t = new Thread(this, name);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    final String threadName() {
        return thread.getName();
    }

    /** Marks the start of a blocking core call; false when the worker was stopped meanwhile. */
    final synchronized boolean enterBlocking() {
        if (stopped) {
            return false;
        }
        blocking = true;
        return true;
    }

    final synchronized void leaveBlocking() {
        blocking = false;
        Thread.interrupted(); // an interrupt from stop() must not reach a handler
    }

    final synchronized boolean isStopped() {
        return stopped;
    }

    final synchronized void stop() {
        stopped = true;
        if (blocking && thread != null) {
            thread.interrupt();
        }
        notifyAll();
    }

    /** Waits {@code pause} (the SDK's retry back-off) or until stopped. */
    final synchronized void backOff(Duration pause) {
        long deadline = System.nanoTime() + pause.toNanos();
        long left;
        while (!stopped && (left = deadline - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                stopped = true;
            }
        }
    }

    /** Stops the workers and waits up to {@code timeout} for their threads; a worker stopping itself is not awaited. */
    static void stopAll(List<? extends WorkerThread> workers, Duration timeout) {
        workers.forEach(WorkerThread::stop);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (WorkerThread worker : workers) {
            if (worker.thread == Thread.currentThread()) {
                continue; // stopped from within a handler: the worker ends when the handler returns
            }
            try {
                worker.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
