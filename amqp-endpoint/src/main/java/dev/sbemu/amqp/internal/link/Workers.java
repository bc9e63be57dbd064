package dev.sbemu.amqp.internal.link;

import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The worker threads that wait in the broker on a link's behalf (a pump or a held call while a delay is scripted, a
 * session accept with a delay scripted) so the loop thread never blocks. Bounded: work past the limit is refused
 * ({@link java.util.concurrent.RejectedExecutionException}), never queued without end (AMQP-19).
 */
public final class Workers implements AutoCloseable {
    private final ThreadPoolExecutor pool;

    /** @param name the endpoint's name, the threads' prefix */
    public Workers(int threads, String name) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread t = new Thread(runnable, name + "-worker-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.pool = new ThreadPoolExecutor(
                0,
                threads,
                60,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                factory,
                new ThreadPoolExecutor.AbortPolicy());
    }

    /**
     * Runs a task that may block in the broker; never on the loop thread.
     *
     * @throws java.util.concurrent.RejectedExecutionException when every worker thread is busy (AMQP-19)
     */
    public void execute(Runnable task) {
        pool.execute(task);
    }

    /** The number of worker threads alive (for tests and diagnostics). */
    public int count() {
        return pool.getPoolSize();
    }

    @Override
    public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
