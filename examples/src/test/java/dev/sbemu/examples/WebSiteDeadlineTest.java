package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The pattern from the TTL articles: a web site hands each request to a work queue with a deadline
 * (its TTL). During a load spike the workers fall behind; requests whose deadline passes surface in
 * the dead-letter queue, and the site tells those users "this takes longer than usual" instead of
 * leaving them waiting.
 */
@ServiceBusEmulator(queues = @Queue(name = "checkout-work", deadLetteringOnMessageExpiration = true))
class WebSiteDeadlineTest {

    /** The application under test: the web front end. */
    static final class CheckoutSite {
        static final Duration DEADLINE = Duration.ofSeconds(30);
        private final ServiceBusSenderClient work;
        private final ServiceBusReceiverClient missedDeadlines;

        CheckoutSite(ServiceBusSenderClient work, ServiceBusReceiverClient missedDeadlines) {
            this.work = work;
            this.missedDeadlines = missedDeadlines;
        }

        void submit(String orderId) {
            work.sendMessage(
                    new ServiceBusMessage(orderId).setMessageId(orderId).setTimeToLive(DEADLINE));
        }

        List<String> noticesForSlowOrders() {
            List<String> notices = new ArrayList<>();
            // what is there, waiting for it to cross the network (the first receive also opens the link, which a
            // loaded machine takes its time over); the receive returns soon after what is there has come
            for (ServiceBusReceivedMessage missed : missedDeadlines.receiveMessages(100, Duration.ofSeconds(30))) {
                notices.add("Order " + missed.getMessageId() + ": this takes longer than usual");
                missedDeadlines.complete(missed);
            }
            return notices;
        }
    }

    @Test
    @DisplayName("TTL-1 TTL-9 requests that miss their deadline during a spike surface in the dead-letter queue")
    void spikeLeavesSlowRequestsInTheDeadLetterQueue(
            @Entity("checkout-work") ServiceBusSenderClient work,
            @Entity("checkout-work") ServiceBusReceiverClient worker,
            @Entity(value = "checkout-work", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient missed,
            VirtualClock clock) {
        CheckoutSite site = new CheckoutSite(work, missed);
        for (int order = 1; order <= 5; order++) {
            site.submit("order-" + order);
        }

        // the spike: the only worker handles two requests within the deadline ...
        for (ServiceBusReceivedMessage request : worker.receiveMessages(2)) {
            worker.complete(request);
        }
        // ... and the rest wait past it
        clock.advance(CheckoutSite.DEADLINE);

        assertEquals(
                List.of(
                        "Order order-3: this takes longer than usual",
                        "Order order-4: this takes longer than usual",
                        "Order order-5: this takes longer than usual"),
                site.noticesForSlowOrders());
        assertEquals(
                0, worker.receiveMessages(10, Duration.ofMillis(50)).stream().count());
    }
}
