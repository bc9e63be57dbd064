package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.EventLoop;
import dev.sbemu.core.Namespace;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * One link's broker calls that a scripted delay ({@code namespace.faults().on(..).delayNext(..)}) may hold: a delay
 * holds the calling thread until the virtual clock gets there, and the loop thread must not be held, or every other
 * link of every connection would stop with it. While no delay is scripted and no earlier call of the link is still
 * out, a call runs right here on the loop thread (the fast path); otherwise it runs on a worker, the link's calls one
 * at a time in arrival order, and its result is applied back on the loop thread.
 *
 * <p>{@link #run} is for the loop thread only; the call must not touch proton objects (read what it needs from the
 * delivery first), and the result's application, on the loop thread, may.
 */
public final class HeldCalls {
    private static final Logger LOG = Logger.getLogger(HeldCalls.class.getName());

    private final ServedNamespace namespace;
    private final Workers workers;
    private final EventLoop loop;
    /** Loop thread only: calls handed to the worker whose results are not applied yet. */
    private int out;
    /** The calls waiting for the worker; guarded by itself, as is {@link #draining}. */
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

    private boolean draining;

    HeldCalls(ServedNamespace namespace, Workers workers, EventLoop loop) {
        this.namespace = namespace;
        this.workers = workers;
        this.loop = loop;
    }

    /** Loop thread: whether calls handed to the worker are still out (the link grants no credit meanwhile). */
    boolean busy() {
        return out > 0;
    }

    /**
     * Runs {@code call} and hands its result to {@code apply} on the loop thread: now, or once a worker ran it; when
     * every worker is busy, {@code apply} gets {@code refused}'s answer to {@code amqp:resource-limit-exceeded}.
     */
    public <T> void run(Supplier<T> call, Consumer<T> apply, Function<ErrorCondition, T> refused) {
        if (out == 0 && !mayBeHeld(namespace.get())) {
            apply.accept(call.get());
            return;
        }
        out++;
        boolean queued = enqueue(() -> {
            T result = call.get();
            loop.execute(() -> {
                out--;
                try {
                    apply.accept(result);
                } catch (RuntimeException e) {
                    // the link or its connection closed while the call was out: nobody is left to tell
                    LOG.log(Level.FINE, "sbemu AMQP endpoint: the result of a held call found its link gone", e);
                }
            });
        });
        if (!queued) {
            out--;
            apply.accept(refused.apply(AmqpErrors.of(new RejectedExecutionException("no worker for the call"))));
        }
    }

    private static boolean mayBeHeld(Namespace namespace) {
        return namespace.faults().delaysScripted();
    }

    /** Queues {@code task} for the link's worker; false when no worker thread is free to take it. */
    private boolean enqueue(Runnable task) {
        synchronized (queue) {
            queue.add(task);
            if (draining) {
                return true;
            }
            draining = true;
        }
        try {
            workers.execute(this::drain);
            return true;
        } catch (RejectedExecutionException e) {
            synchronized (queue) {
                queue.remove(task);
                draining = false;
            }
            return false;
        }
    }

    private void drain() {
        while (true) {
            Runnable task;
            synchronized (queue) {
                task = queue.poll();
                if (task == null) {
                    draining = false;
                    return;
                }
            }
            task.run();
        }
    }
}
