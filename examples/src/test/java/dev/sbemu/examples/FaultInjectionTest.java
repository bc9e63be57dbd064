package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults.Failure;
import dev.sbemu.core.Faults.Operation;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.sdk.EmulatorClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Production code meets Service Bus failures: a publisher that retries what the service reports as
 * transient, and a worker that survives losing a message's lock. The failures are scripted on the
 * namespace ({@code namespace.faults()}); the publisher's back-off runs on the virtual clock, so the
 * test waits for nothing.
 */
@ServiceBusEmulator(queues = @Queue(name = "orders"))
class FaultInjectionTest {

    /** Production code: sends an order, retrying transient failures with an exponential back-off. */
    static final class OrderPublisher {
        static final int MAX_ATTEMPTS = 4;
        private final ServiceBusSenderClient sender;
        private final Consumer<Duration> pause;

        /** @param pause how to wait between attempts: {@code d -> Thread.sleep(d.toMillis())} in production */
        OrderPublisher(ServiceBusSenderClient sender, Consumer<Duration> pause) {
            this.sender = sender;
            this.pause = pause;
        }

        void publish(String orderId) {
            Duration backOff = Duration.ofSeconds(1);
            for (int attempt = 1; ; attempt++) {
                try {
                    sender.sendMessage(new ServiceBusMessage(orderId).setMessageId(orderId));
                    return;
                } catch (ServiceBusException e) {
                    if (!e.isTransient() || attempt == MAX_ATTEMPTS) {
                        throw e;
                    }
                    pause.accept(backOff);
                    backOff = backOff.multipliedBy(2);
                }
            }
        }
    }

    /** Production code: ships each order and completes its message; a lost lock means it will come again. */
    static final class OrderWorker {
        private final ServiceBusReceiverClient receiver;
        /** Orders shipped (a database in production): shipping twice is harmless, it is a set. */
        final Set<String> shipped = new LinkedHashSet<>();

        OrderWorker(ServiceBusReceiverClient receiver) {
            this.receiver = receiver;
        }

        void processAvailable() {
            // waits a few seconds for what is there to cross the network (over AMQP the first receive also opens
            // the link, which a loaded machine takes its time over)
            for (ServiceBusReceivedMessage message : receiver.receiveMessages(10, Duration.ofSeconds(5))) {
                shipped.add(message.getMessageId());
                try {
                    receiver.complete(message);
                } catch (ServiceBusException e) {
                    if (e.getReason() != ServiceBusFailureReason.MESSAGE_LOCK_LOST) {
                        throw e;
                    }
                    // the lock was lost: the message will be delivered again, and shipping is idempotent
                }
            }
        }
    }

    @Test
    @DisplayName("FLT-2 a SERVICE_BUSY send is transient: the publisher backs off, retries, and the order arrives once")
    void serviceBusyIsRetried(
            @Entity("orders") ServiceBusSenderClient sender,
            @Entity("orders") ServiceBusReceiverClient receiver,
            Namespace namespace,
            VirtualClock clock) {
        // Over AMQP (sbemu.clients=amqp) the SDK's own retry policy absorbs transient faults, with its own
        // wall-clock back-off, before the publisher's loop sees them (FLT-6): this example is about the loop.
        assumeTrue(
                EmulatorClients.FULLY_QUALIFIED_NAMESPACE.equals(sender.getFullyQualifiedNamespace()),
                "the SDK retries SERVICE_BUSY itself when its clients talk to the AMQP endpoint");
        namespace.faults().on("orders").failNext(2, Operation.SEND, Failure.SERVICE_BUSY);
        List<Duration> pauses = new ArrayList<>();
        OrderPublisher publisher = new OrderPublisher(sender, pause -> {
            pauses.add(pause);
            clock.advance(pause);
        });

        publisher.publish("order-42");

        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), pauses);
        assertEquals(
                List.of("order-42"),
                receiver.peekMessages(10).stream().map(m -> m.getMessageId()).toList());
        assertEquals(
                2,
                namespace.journal().events().stream()
                        .filter(e -> e.type() == JournalEvent.Type.FAULT_INJECTED)
                        .count());
    }

    @Test
    @DisplayName("FLT-2 QUOTA_EXCEEDED is not transient: the publisher gives up at once")
    void quotaExceededIsNotRetried(@Entity("orders") ServiceBusSenderClient sender, Namespace namespace) {
        namespace.faults().on("orders").failNext(1, Operation.SEND, Failure.QUOTA_EXCEEDED);
        List<Duration> pauses = new ArrayList<>();
        OrderPublisher publisher = new OrderPublisher(sender, pauses::add);

        ServiceBusException e = assertThrows(ServiceBusException.class, () -> publisher.publish("order-43"));

        assertEquals(ServiceBusFailureReason.QUOTA_EXCEEDED, e.getReason());
        assertEquals(List.of(), pauses);
    }

    @Test
    @DisplayName("FLT-3 a lost lock: completing fails, the order comes again and is shipped once")
    void lockLossIsSurvived(
            @Entity("orders") ServiceBusSenderClient sender,
            @Entity("orders") ServiceBusReceiverClient receiver,
            Namespace namespace) {
        sender.sendMessage(new ServiceBusMessage("order-44").setMessageId("order-44"));
        namespace.faults().on("orders").failNext(1, Operation.SETTLE, Failure.MESSAGE_LOCK_LOST);
        OrderWorker worker = new OrderWorker(receiver);

        worker.processAvailable(); // ships, but completing fails: the lock is gone
        worker.processAvailable(); // the second delivery completes

        assertEquals(Set.of("order-44"), worker.shipped);
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }
}
