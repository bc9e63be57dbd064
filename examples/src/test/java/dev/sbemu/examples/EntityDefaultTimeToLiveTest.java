package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every queue and topic has a default time-to-live. It applies to messages sent without one, and it
 * caps longer ones. For a subscription, the smaller of the topic's and the subscription's default wins.
 */
@ServiceBusEmulator(
        queues = @Queue(name = "telemetry", defaultMessageTimeToLive = "PT5M"),
        topics =
                @Topic(
                        name = "prices",
                        defaultMessageTimeToLive = "PT2M",
                        subscriptions = @Subscription(name = "dashboard", defaultMessageTimeToLive = "PT30M")))
class EntityDefaultTimeToLiveTest {

    @Test
    @DisplayName("TTL-6 a message without a TTL gets the queue's default")
    void defaultApplies(
            @Entity("telemetry") ServiceBusSenderClient sender,
            @Entity("telemetry") ServiceBusReceiverClient receiver) {
        sender.sendMessage(new ServiceBusMessage("reading"));

        ServiceBusReceivedMessage received =
                receiver.receiveMessages(1).iterator().next();

        assertEquals(Duration.ofMinutes(5), received.getTimeToLive());
        assertEquals(received.getEnqueuedTime().plusMinutes(5), received.getExpiresAt());
    }

    @Test
    @DisplayName("TTL-6 a longer message TTL is lowered to the queue's default")
    void defaultCapsALongerTtl(
            @Entity("telemetry") ServiceBusSenderClient sender,
            @Entity("telemetry") ServiceBusReceiverClient receiver) {
        sender.sendMessage(new ServiceBusMessage("reading").setTimeToLive(Duration.ofHours(1)));

        ServiceBusReceivedMessage received =
                receiver.receiveMessages(1).iterator().next();

        assertEquals(Duration.ofMinutes(5), received.getTimeToLive());
    }

    @Test
    @DisplayName("TTL-8 the topic's lower default wins over the subscription's")
    void topicTtlLowerThanSubscriptionWins(
            @Entity("prices") ServiceBusSenderClient sender,
            @Entity(value = "prices", subscription = "dashboard") ServiceBusReceiverClient dashboard) {
        sender.sendMessage(new ServiceBusMessage("EUR/USD 1.09"));

        ServiceBusReceivedMessage received =
                dashboard.receiveMessages(1).iterator().next();

        assertEquals(Duration.ofMinutes(2), received.getTimeToLive());
    }
}
