package com.example.orders;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop's order pipeline on Azure Service Bus through Spring Cloud Azure: orders are published to the
 * {@code orders} topic with a time-to-live, fulfilment consumes them from a subscription, express orders are
 * also picked up by a courier system from a filtered subscription, and a payment reminder is scheduled a day
 * ahead. Everything Service Bus here is auto-configured from {@code spring.cloud.azure.servicebus.*}.
 */
@SpringBootApplication
public class OrdersApplication {
    public static void main(String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }
}
