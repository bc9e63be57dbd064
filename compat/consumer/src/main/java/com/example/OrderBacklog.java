package com.example;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;

/**
 * Production code with no test seam: it builds its own administration client from the connection string it is
 * configured with, creates its queue at start-up and reports the queue's backlog.
 */
public class OrderBacklog {
    private final ServiceBusAdministrationClient admin;

    public OrderBacklog(String connectionString) {
        admin = new ServiceBusAdministrationClientBuilder().connectionString(connectionString).buildClient();
        if (!admin.getQueueExists("backlog")) {
            admin.createQueue("backlog");
        }
    }

    public long pending(String queue) {
        return admin.getQueueRuntimeProperties(queue).getActiveMessageCount();
    }
}
