package dev.sbemu.sdk.internal;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Cancellation;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import reactor.core.scheduler.Schedulers;

/**
 * PAR-5: the credit a synchronous receive-and-delete receiver of the SDK leaves on its link. The SDK's
 * {@code SynchronousReceiver} feeds every {@code receiveMessages(n, maxWait)} from one {@code WindowedSubscriber}
 * over the link's message stream: a window raises the stream's outstanding demand to {@code n} (it requests
 * {@code n} minus what is still outstanding, azure-core-amqp 2.12.1 {@code WindowedSubscriber.initWorkOnce}), and
 * when the window closes with fewer than {@code n} messages (its wait ran out) that demand stays out as link
 * credit. The service keeps delivering against it: in receive-and-delete each such message is deleted from the
 * entity when it is sent, waits in the subscriber's queue (no releaser: that is only for peek-lock without
 * prefetch, {@code SynchronousReceiver.createSubscriber}) and is the first of the next window.
 *
 * <p>So here: after a window, the credit left is taken by a background receive from the core, with a cancellation
 * of its own; the next window first stops it (waiting for it to hand over what it took), then takes from what it
 * took before it asks the core. A failure of the background receive is raised by the next window. Closing the
 * receiver ends the background receive; what it took is lost, as in the SDK.
 */
final class LeftoverCredit {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long STOP_TIMEOUT_SECONDS = 10;

    private final ReceiverAsyncClientImpl receiver;
    /** One window at a time, as the SDK's subscriber serves them in order. */
    private final ReentrantLock windows = new ReentrantLock();
    /** Messages taken against the credit, for the next windows. Guarded by {@code this}. */
    private final Deque<BrokeredMessage> taken = new ArrayDeque<>();
    /** The link credit outstanding. Guarded by {@code this}. */
    private int credit;
    /** What ended the background receive, raised by the next window. Guarded by {@code this}. */
    private RuntimeException failure;
    /** The background receive, or null. Touched by the window holding {@code windows} only. */
    private Take take;

    LeftoverCredit(ReceiverAsyncClientImpl receiver) {
        this.receiver = receiver;
    }

    /** One window: up to {@code n} messages, what LOCK-3 gives; leaves the credit not used out. */
    List<BrokeredMessage> receive(int n, Duration maxWait) {
        windows.lock();
        try {
            stopTake();
            List<BrokeredMessage> window = new ArrayList<>();
            synchronized (this) {
                if (failure != null) {
                    RuntimeException e = failure;
                    failure = null;
                    throw e;
                }
                credit = Math.max(credit, n);
                while (window.size() < n && !taken.isEmpty()) {
                    window.add(taken.poll());
                }
            }
            if (window.size() < n) {
                // nothing taken yet: wait for a first message; else only what is there now (LOCK-3)
                List<BrokeredMessage> more =
                        receiver.receiveBatch(n - window.size(), window.isEmpty() ? maxWait : Duration.ZERO);
                synchronized (this) {
                    credit -= more.size();
                }
                window.addAll(more);
            }
            startTake();
            return window;
        } finally {
            windows.unlock();
        }
    }

    private void startTake() {
        synchronized (this) {
            if (credit <= 0 || receiver.isClosed()) {
                return;
            }
        }
        take = new Take();
        Schedulers.boundedElastic().schedule(take);
    }

    private void stopTake() {
        Take running = take;
        take = null;
        if (running == null) {
            return;
        }
        running.cancellation.cancel();
        try {
            running.done.await(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The background receive of the credit left. */
    private final class Take implements Runnable {
        final Cancellation cancellation = new Cancellation();
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public void run() {
            try {
                while (!cancellation.isCancelled()) {
                    int want;
                    synchronized (LeftoverCredit.this) {
                        want = credit;
                    }
                    if (want <= 0) {
                        return;
                    }
                    List<BrokeredMessage> got = receiver.receiveBatch(want, WAIT, cancellation);
                    synchronized (LeftoverCredit.this) {
                        taken.addAll(got);
                        credit -= got.size();
                    }
                }
            } catch (CancellationException stopped) {
                // the next window, or closing, stopped it: nothing was taken by the cancelled receive
            } catch (RuntimeException e) {
                synchronized (LeftoverCredit.this) {
                    failure = e;
                }
            } finally {
                done.countDown();
            }
        }
    }
}
