package com.example.orders;

import com.azure.spring.messaging.servicebus.implementation.core.annotation.ServiceBusListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/**
 * Ships orders from the {@code fulfilment} subscription. An order it cannot ship throws, so Service Bus
 * redelivers it, and after the subscription's maximum delivery count moves it to the dead-letter queue.
 */
@Component
public class Fulfilment {
    private final List<String> shipped = new CopyOnWriteArrayList<>();

    @ServiceBusListener(destination = OrderService.TOPIC, group = "fulfilment")
    public void ship(Order order) {
        if (order.quantity() <= 0) {
            throw new IllegalArgumentException("order " + order.id() + " has no items");
        }
        shipped.add(order.id());
    }

    /** The ids of the orders shipped so far. */
    public List<String> shipped() {
        return List.copyOf(shipped);
    }
}
