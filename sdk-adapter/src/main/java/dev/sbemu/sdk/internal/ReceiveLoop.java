package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import dev.sbemu.core.BrokeredMessage;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Schedulers;

/**
 * The endless {@code receiveMessages()} stream: a loop on a bounded-elastic thread that takes one
 * message from the core per unit of downstream demand (the SDK requests one at a time), blocking in
 * the core receive until one is available. Cancelling, disposing or {@link #stop()} ends it promptly:
 * a receive blocked in the core is interrupted; a message taken after the end is handed back.
 */
final class ReceiveLoop implements Runnable {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final FluxSink<ServiceBusReceivedMessage> sink;
    private final Function<Duration, List<BrokeredMessage>> receiveOne;
    private final Consumer<BrokeredMessage> handBack;
    private final Function<RuntimeException, RuntimeException> mapError;
    private final Runnable onEnd;
    private long demand;
    private boolean stopped;
    private boolean inReceive;
    private Thread thread;

    private ReceiveLoop(
            FluxSink<ServiceBusReceivedMessage> sink,
            Function<Duration, List<BrokeredMessage>> receiveOne,
            Consumer<BrokeredMessage> handBack,
            Function<RuntimeException, RuntimeException> mapError,
            Runnable onEnd) {
        this.sink = sink;
        this.receiveOne = receiveOne;
        this.handBack = handBack;
        this.mapError = mapError;
        this.onEnd = onEnd;
    }

    /**
     * The stream. {@code register} is given each running loop (so the client can stop it on close),
     * and {@code onEnd} of that loop when it ends.
     */
    static Flux<ServiceBusReceivedMessage> flux(
            Function<Duration, List<BrokeredMessage>> receiveOne,
            Consumer<BrokeredMessage> handBack,
            Function<RuntimeException, RuntimeException> mapError,
            Consumer<ReceiveLoop> register,
            Consumer<ReceiveLoop> unregister) {
        return Flux.create(sink -> {
            ReceiveLoop[] self = new ReceiveLoop[1];
            ReceiveLoop loop = new ReceiveLoop(sink, receiveOne, handBack, mapError, () -> unregister.accept(self[0]));
            self[0] = loop;
            register.accept(loop);
            sink.onRequest(loop::request);
            sink.onDispose(loop::stop);
            Schedulers.boundedElastic().schedule(loop);
        });
    }

    private synchronized void request(long n) {
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        notifyAll();
    }

    /** Ends the stream (completing it if still open) and wakes a blocked receive. */
    synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (inReceive && thread != null) {
            thread.interrupt();
        }
        notifyAll();
    }

    /** Completes the stream, as closing the client does. */
    void complete() {
        stop();
        sink.complete();
    }

    @Override
    public void run() {
        try {
            while (awaitDemand()) {
                List<BrokeredMessage> taken;
                try {
                    taken = receiveOne.apply(WAIT);
                } finally {
                    leaveReceive();
                }
                for (BrokeredMessage m : taken) {
                    if (isStopped()) {
                        handBack.accept(m);
                        continue;
                    }
                    synchronized (this) {
                        demand--;
                    }
                    sink.next(WireCodec.toReceivedFromLink(m));
                }
            }
        } catch (RuntimeException e) {
            if (!isStopped()) {
                sink.error(mapError.apply(e));
            }
        } finally {
            onEnd.run();
        }
    }

    /** Waits for demand; then marks this thread as in a receive (interruptible by stop). */
    private synchronized boolean awaitDemand() {
        while (!stopped && demand == 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                stopped = true;
            }
        }
        if (stopped) {
            return false;
        }
        thread = Thread.currentThread();
        inReceive = true;
        return true;
    }

    private synchronized void leaveReceive() {
        inReceive = false;
        Thread.interrupted(); // an interrupt from stop() must not leak into the pooled thread
    }

    private synchronized boolean isStopped() {
        return stopped;
    }
}
