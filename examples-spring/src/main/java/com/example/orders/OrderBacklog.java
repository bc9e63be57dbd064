package com.example.orders;

import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Reports how many express orders wait for the courier, with the application's own administration client: built
 * from Spring Cloud Azure's connection string where one is configured, else from the namespace and the environment's
 * credential (production). No test seam: in tests the connection string is the emulator's.
 */
@Component
public class OrderBacklog {
    private final ServiceBusAdministrationClient admin;

    public OrderBacklog(
            @Value("${spring.cloud.azure.servicebus.connection-string:}") String connectionString,
            @Value("${spring.cloud.azure.servicebus.namespace:}") String namespace) {
        ServiceBusAdministrationClientBuilder builder = new ServiceBusAdministrationClientBuilder();
        if (connectionString.isBlank()) {
            builder.credential(namespace + ".servicebus.windows.net", new DefaultAzureCredentialBuilder().build());
        } else {
            builder.connectionString(connectionString);
        }
        this.admin = builder.buildClient();
    }

    /** Express orders published and not yet collected by the courier. */
    public long awaitingCourier() {
        return admin.getSubscriptionRuntimeProperties(OrderService.TOPIC, "express")
                .getActiveMessageCount();
    }
}
