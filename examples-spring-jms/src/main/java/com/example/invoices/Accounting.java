package com.example.invoices;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

/**
 * Books every invoice billing announces, from a durable subscription of the {@code billing-events} topic (the
 * starter's {@code topicJmsListenerContainerFactory}: durable, with {@code spring.jms.servicebus.topic-client-id}
 * as the JMS client id), so announcements made while accounting is down wait for it.
 */
@Component
public class Accounting {
    /** The durable subscription's name. */
    public static final String SUBSCRIPTION = "accounting";

    private final List<String> ledger = new CopyOnWriteArrayList<>();

    @JmsListener(
            destination = Billing.EVENTS,
            containerFactory = "topicJmsListenerContainerFactory",
            subscription = SUBSCRIPTION)
    public void onEvent(String event) {
        ledger.add(event);
    }

    /** The announcements booked so far. */
    public List<String> ledger() {
        return List.copyOf(ledger);
    }
}
