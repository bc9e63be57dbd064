package com.example.orders;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.spring.SpringServiceBusEmulator;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The same declaration as {@link OrderPipelineTest}, so Spring runs both on one cached context: the
 * application's listeners and connections are shared, the messages and clock moves of the other class are not.
 */
@SpringBootTest
@SpringServiceBusEmulator(config = "classpath:servicebus/Config.json")
@DisplayName("SPRING-2 the scheduled payment reminder; no other test's messages or clock moves")
class PaymentReminderTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    OrderService orders;

    @Autowired
    Fulfilment fulfilment;

    @Autowired
    PaymentReminders reminders;

    @Autowired
    Namespace namespace;

    @Autowired
    VirtualClock clock;

    @Autowired
    ServiceBusAdministrationClient admin;

    @Test
    void theScheduledPaymentReminderArrivesADayLater() {
        Order order = new Order(OrderPipelineTest.id(), "dave", 1, false);
        orders.place(order);
        await().atMost(WAIT).until(() -> fulfilment.shipped().contains(order.id()));
        // a scheduled message waits in the topic until it is due, then the subscriptions' filters take it
        assertEquals(1, admin.getTopicRuntimeProperties("orders").getScheduledMessageCount());
        assertFalse(reminders.reminded().contains(order.id()));

        clock.advance(OrderService.REMINDER_DELAY.plusMinutes(1));

        await().atMost(WAIT).until(() -> reminders.reminded().contains(order.id()));
    }

    @Test
    void eachTestStartsWithNoMessagesAndAClockNoOtherTestMoved() {
        // another test of this context advanced the clock by a day; this test's clock starts now
        assertTrue(
                clock.instant().isBefore(Instant.now().plus(Duration.ofHours(1))),
                clock.instant().toString());
        for (String subscription : namespace.subscriptionNames("orders")) {
            EntityRuntimeInfo info = namespace.runtimeInfo(EntityPath.subscription("orders", subscription));
            assertEquals(0, info.totalMessageCount(), subscription);
        }
    }
}
