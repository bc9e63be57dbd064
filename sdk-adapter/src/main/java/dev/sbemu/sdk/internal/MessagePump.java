package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.sdk.ProcessorOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The message loop both processors run on their threads, one {@link #turn} at a time, as the SDK's message
 * pump does: the handler gets a real {@code ServiceBusReceivedMessageContext}; a handler exception is reported to
 * the error handler as a {@code USER_CALLBACK} {@link ServiceBusException}; with auto-complete (peek-lock only)
 * the message is completed after the handler returns, abandoned when it threw (failures of that are ignored, as
 * in the SDK). An entity processor renews each message's lock on the virtual clock while the handler runs, up to
 * {@code maxAutoLockRenewDuration}; a session processor renews the session lock instead ({@link SessionSlot}).
 * A receive error goes to the error handler; what follows it is the processor's choice.
 */
final class MessagePump {
    /** How a turn ended. */
    enum Turn {
        /** Messages were taken and handled (or handed back when the thread stopped meanwhile). */
        TOOK,
        /** Nothing was taken: none arrived in time, or the thread is stopped. */
        NOTHING,
        /** The receive failed; the error handler has been told. */
        FAILED,
        /** The receiver was closed under the receive. */
        CLOSED
    }

    private final ProcessorOptions options;
    private final ClientInfo info;
    private final LockRenewals renewals;
    private final boolean autoComplete;
    private final boolean renewMessageLocks;

    MessagePump(ProcessorOptions options, ClientInfo info, LockRenewals renewals) {
        this.options = options;
        this.info = info;
        this.renewals = renewals;
        boolean peekLock = options.receiveMode() == ServiceBusReceiveMode.PEEK_LOCK;
        this.autoComplete = options.autoComplete() && peekLock;
        this.renewMessageLocks = peekLock && !options.sessionEnabled();
    }

    /**
     * One turn of a processor thread's loop: receives up to {@code maxMessages}, waiting up to {@code wait} while
     * {@code thread} may be interrupted by its stop, and hands each message to the handler (on {@code handlers}, in
     * parallel, when given and more than one was taken, waiting for all), or back to the entity once the thread is
     * stopped.
     */
    Turn turn(
            WorkerThread thread,
            ReceiverAsyncClientImpl receiver,
            ServiceBusReceiverAsyncClient client,
            int maxMessages,
            Duration wait,
            ExecutorService handlers) {
        if (!thread.enterBlocking()) {
            return Turn.NOTHING;
        }
        List<BrokeredMessage> taken;
        try {
            taken = receiver.receiveBatch(maxMessages, wait);
        } catch (CancellationException closed) {
            thread.leaveBlocking();
            return Turn.CLOSED;
        } catch (RuntimeException e) {
            thread.leaveBlocking();
            notifyError(ErrorMapper.map(e, ServiceBusErrorSource.RECEIVE, info));
            return Turn.FAILED;
        }
        thread.leaveBlocking();
        if (taken.isEmpty()) {
            return Turn.NOTHING;
        }
        if (handlers == null || taken.size() == 1) {
            for (BrokeredMessage m : taken) { // a loop, not forEach: no lambda per turn on the one-message path
                handle(thread, m, receiver, client);
            }
            return Turn.TOOK;
        }
        List<Future<?>> running = new ArrayList<>(taken.size());
        taken.forEach(m -> running.add(handlers.submit(() -> handle(thread, m, receiver, client))));
        for (Future<?> f : running) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException e) {
                // handle() reports handler failures itself
            }
        }
        return Turn.TOOK;
    }

    private void handle(
            WorkerThread thread,
            BrokeredMessage brokered,
            ReceiverAsyncClientImpl receiver,
            ServiceBusReceiverAsyncClient client) {
        if (thread.isStopped()) {
            receiver.handBack(brokered);
            return;
        }
        LockRenewals.Renewal renewal = null;
        if (renewMessageLocks && brokered.lockToken() != null) {
            // the lock check and the renewal's start are one step against clock advances: a lock that
            // lapsed since the receive means the message may be with another worker already
            renewal = renewals.startIfHeld(
                    brokered.lockedUntil(),
                    options.maxAutoLockRenewDuration(),
                    () -> receiver.binding().renewLock(brokered.lockToken()),
                    e -> {},
                    () -> {});
            if (renewal == null) {
                return;
            }
        }
        ServiceBusReceivedMessage message = WireCodec.toReceivedFromLink(brokered);
        Exception error = null;
        try {
            options.processMessage().accept(SdkAccess.receivedMessageContext(client, message));
        } catch (Exception e) {
            error = e;
            notifyError(new ServiceBusException(e, ServiceBusErrorSource.USER_CALLBACK));
        }
        if (autoComplete && !SdkAccess.isSettled(message)) {
            try {
                (error == null ? client.complete(message) : client.abandon(message)).block();
            } catch (RuntimeException ignored) {
                // the SDK logs and ignores a failed auto-completion
            }
        }
        if (renewal != null) {
            renewal.cancel();
        }
    }

    /** Tells the error handler; the SDK ignores exceptions thrown by the error handler. */
    void notifyError(Throwable error) {
        try {
            options.processError()
                    .accept(SdkAccess.errorContext(error, info.fullyQualifiedNamespace(), info.entityPath()));
        } catch (RuntimeException ignored) {
            // as the SDK
        }
    }
}
