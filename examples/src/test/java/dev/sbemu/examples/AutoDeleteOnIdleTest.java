package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Temporary entities: with autoDeleteOnIdle, a queue, topic or subscription that nobody uses for
 * that long is deleted, messages and all. Sends, receives, peeks, updates and pending scheduled
 * messages count as use; a queue that forwards its messages is never idle.
 */
@ServiceBusEmulator(
        queues = {
            @Queue(name = "scratch", autoDeleteOnIdle = "PT10M"),
            @Queue(name = "archive"),
            @Queue(name = "relay", autoDeleteOnIdle = "PT10M", forwardTo = "archive")
        },
        topics =
                @Topic(
                        name = "events",
                        autoDeleteOnIdle = "PT1H",
                        subscriptions = @Subscription(name = "probe", autoDeleteOnIdle = "PT10M")))
class AutoDeleteOnIdleTest {

    @Test
    @DisplayName("ADI-1 an idle queue is deleted after its autoDeleteOnIdle")
    void idleQueueIsDeleted(ServiceBusAdministrationClient admin, VirtualClock clock) {
        clock.advance(Duration.ofMinutes(9));
        assertTrue(admin.getQueueExists("scratch"));

        clock.advance(Duration.ofMinutes(1));
        assertFalse(admin.getQueueExists("scratch"));
    }

    @Test
    @DisplayName("ADI-3 a peek counts as use and restarts the idle time")
    void peekKeepsTheQueueAlive(
            @Entity("scratch") ServiceBusReceiverClient receiver,
            ServiceBusAdministrationClient admin,
            VirtualClock clock) {
        clock.advance(Duration.ofMinutes(8));
        receiver.peekMessage();

        clock.advance(Duration.ofMinutes(8));
        assertTrue(admin.getQueueExists("scratch"));

        clock.advance(Duration.ofMinutes(2));
        assertFalse(admin.getQueueExists("scratch"));
    }

    @Test
    @DisplayName("ADI-3 a pending scheduled message keeps the queue alive")
    void scheduledMessageKeepsTheQueueAlive(
            @Entity("scratch") ServiceBusSenderClient sender,
            ServiceBusAdministrationClient admin,
            VirtualClock clock) {
        sender.scheduleMessage(
                new ServiceBusMessage("later"), OffsetDateTime.now(clock).plusMinutes(30));

        clock.advance(Duration.ofMinutes(25));
        assertTrue(admin.getQueueExists("scratch"));
    }

    @Test
    @DisplayName("ADI-4 a queue with auto-forwarding is never idle")
    void forwardingQueueIsNeverIdle(ServiceBusAdministrationClient admin, VirtualClock clock) {
        clock.advance(Duration.ofHours(3));

        assertTrue(admin.getQueueExists("relay"));
    }

    @Test
    @DisplayName("ADI-1 ADI-3 an idle subscription is deleted; its topic stays while it is used")
    void idleSubscriptionIsDeleted(
            @Entity("events") ServiceBusSenderClient sender, ServiceBusAdministrationClient admin, VirtualClock clock) {
        clock.advance(Duration.ofMinutes(5));
        sender.sendMessage(new ServiceBusMessage("ping"));

        clock.advance(Duration.ofMinutes(5));

        assertFalse(admin.getSubscriptionExists("events", "probe"), "nobody received from it for 10 minutes");
        assertTrue(admin.getTopicExists("events"));
        assertEquals(0, admin.getTopicRuntimeProperties("events").getSubscriptionCount());
    }

    @Test
    @DisplayName("ADI-1 an idle topic is deleted with its subscriptions")
    void idleTopicIsDeleted(ServiceBusAdministrationClient admin, VirtualClock clock) {
        clock.advance(Duration.ofHours(1));

        assertFalse(admin.getTopicExists("events"));
    }
}
