package com.example.invoices;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A billing service on Azure Service Bus through JMS (Spring Cloud Azure's
 * {@code spring-cloud-azure-starter-servicebus-jms}):
 * invoices are issued to the {@code invoices} queue with the auto-configured {@code JmsTemplate}; a
 * {@code @JmsListener} bills them, hands each to the {@code payments-due} queue with the payment term as its
 * time-to-live (an unpaid invoice expires to that queue's dead-letter queue, where collections pick it up) and
 * announces it on the {@code billing-events} topic, which accounting reads through a durable subscription. The
 * connection factory and listener containers are auto-configured from {@code spring.jms.servicebus.*}.
 */
@SpringBootApplication
public class BillingApplication {
    public static void main(String[] args) {
        SpringApplication.run(BillingApplication.class, args);
    }
}
