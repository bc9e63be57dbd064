package com.example.orders;

import com.azure.spring.messaging.servicebus.implementation.core.annotation.ServiceBusListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** Reminds customers to pay when the scheduled reminder arrives on the {@code reminders} subscription. */
@Component
public class PaymentReminders {
    private final List<String> reminded = new CopyOnWriteArrayList<>();

    @ServiceBusListener(destination = OrderService.TOPIC, group = "reminders")
    public void remind(String orderId) {
        reminded.add(orderId);
    }

    /** The ids of the orders whose customers were reminded. */
    public List<String> reminded() {
        return List.copyOf(reminded);
    }
}
