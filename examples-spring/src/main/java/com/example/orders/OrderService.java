package com.example.orders;

import com.azure.spring.messaging.servicebus.core.ServiceBusTemplate;
import com.azure.spring.messaging.servicebus.support.ServiceBusMessageHeaders;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.stereotype.Service;

/** Publishes orders and schedules their payment reminders on the {@code orders} topic. */
@Service
public class OrderService {
    /** The topic every order event goes to. */
    public static final String TOPIC = "orders";
    /** An order nobody picked up within this time is stale: Service Bus expires it. */
    public static final Duration ORDER_TIME_TO_LIVE = Duration.ofMinutes(30);
    /** When the customer is reminded to pay. */
    public static final Duration REMINDER_DELAY = Duration.ofHours(24);

    private final ServiceBusTemplate template;

    public OrderService(ServiceBusTemplate template) {
        this.template = template;
    }

    /** Publishes {@code order} and schedules its payment reminder. */
    public void place(Order order) {
        template.sendAsync(
                        TOPIC,
                        MessageBuilder.withPayload(order)
                                .setHeader(ServiceBusMessageHeaders.MESSAGE_ID, order.id())
                                .setHeader(ServiceBusMessageHeaders.TIME_TO_LIVE, ORDER_TIME_TO_LIVE)
                                .setHeader("type", "order")
                                .setHeader("express", order.express())
                                .build())
                .block();
        template.sendAsync(
                        TOPIC,
                        MessageBuilder.withPayload(order.id())
                                .setHeader(ServiceBusMessageHeaders.MESSAGE_ID, order.id() + "-reminder")
                                .setHeader(
                                        ServiceBusMessageHeaders.SCHEDULED_ENQUEUE_TIME,
                                        OffsetDateTime.now(ZoneOffset.UTC).plus(REMINDER_DELAY))
                                .setHeader("type", "payment-reminder")
                                .build())
                .block();
    }
}
