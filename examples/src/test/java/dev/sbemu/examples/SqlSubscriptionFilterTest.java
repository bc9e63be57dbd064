package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.junit.CorrelationFilter;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Rule;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A topic copies each message into every subscription whose rules match: here a SQL filter, a
 * correlation filter and the {@code $Default} rule that takes everything. Copies keep the topic's
 * sequence number.
 */
@ServiceBusEmulator(
        topics =
                @Topic(
                        name = "orders",
                        subscriptions = {
                            @Subscription(
                                    name = "big-orders",
                                    rules = @Rule(name = "big", sql = "total > 1000 AND region = 'EU'")),
                            @Subscription(
                                    name = "returns",
                                    rules =
                                            @Rule(
                                                    name = "returns",
                                                    correlation = @CorrelationFilter(subject = "return"))),
                            @Subscription(name = "audit")
                        }))
class SqlSubscriptionFilterTest {

    @Test
    @DisplayName("RUL-1 RUL-2 RUL-3 each subscription gets exactly the messages its rules match")
    void subscriptionsGetWhatTheirRulesMatch(
            @Entity("orders") ServiceBusSenderClient sender,
            @Entity(value = "orders", subscription = "big-orders") ServiceBusReceiverClient bigOrders,
            @Entity(value = "orders", subscription = "returns") ServiceBusReceiverClient returns,
            @Entity(value = "orders", subscription = "audit") ServiceBusReceiverClient audit) {
        ServiceBusMessage small = new ServiceBusMessage("small");
        small.getApplicationProperties().put("total", 20);
        small.getApplicationProperties().put("region", "EU");
        ServiceBusMessage big = new ServiceBusMessage("big");
        big.getApplicationProperties().put("total", 5000);
        big.getApplicationProperties().put("region", "EU");
        ServiceBusMessage giveBack = new ServiceBusMessage("give back").setSubject("return");

        sender.sendMessages(List.of(small, big, giveBack));

        List<ServiceBusReceivedMessage> bigOnes =
                bigOrders.receiveMessages(10, Duration.ofSeconds(5)).stream().toList();
        assertEquals(
                List.of("big"),
                bigOnes.stream().map(m -> m.getBody().toString()).toList());
        assertEquals(2, bigOnes.get(0).getSequenceNumber(), "the copy keeps the topic's sequence number");
        assertEquals(
                List.of("give back"),
                returns.receiveMessages(10, Duration.ofSeconds(5)).stream()
                        .map(m -> m.getBody().toString())
                        .toList());
        assertEquals(
                3, audit.receiveMessages(10, Duration.ofSeconds(5)).stream().count());
    }
}
