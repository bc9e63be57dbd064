package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.Queue;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application that builds its own administration client from Spring Cloud Azure's connection string (a bean of
 * its own, used at start-up to create a queue) reaches the emulated namespace with no test-only code (spec ADM-1).
 */
@SpringBootTest(
        classes = {TestApplication.class, OwnAdministrationClientTest.Administration.class},
        properties = {
            "spring.cloud.azure.servicebus.entity-name=orders",
            "spring.cloud.azure.servicebus.entity-type=queue"
        })
@SpringServiceBusEmulator(queues = @Queue(name = "orders"))
@DisplayName("ADM-1 Spring: the application's own administration client bean reaches the emulated namespace")
class OwnAdministrationClientTest {

    /** Application configuration, as production code has it: no sbemu, no test seam. */
    @Configuration(proxyBeanMethods = false)
    static class Administration {
        @Bean
        ServiceBusAdministrationClient serviceBusAdministrationClient(
                @Value("${spring.cloud.azure.servicebus.connection-string}") String connectionString) {
            return new ServiceBusAdministrationClientBuilder()
                    .connectionString(connectionString)
                    .buildClient();
        }

        @Bean
        AuditQueue auditQueue(ServiceBusAdministrationClient admin) {
            return new AuditQueue(admin);
        }

        /** Creates the audit queue at start-up (the context fails to start if that call fails). */
        @Bean
        ApplicationRunner createAuditQueue(AuditQueue auditQueue) {
            return arguments -> auditQueue.ensure();
        }
    }

    /** Application code: makes sure the audit queue exists. */
    static final class AuditQueue {
        private final ServiceBusAdministrationClient admin;

        AuditQueue(ServiceBusAdministrationClient admin) {
            this.admin = admin;
        }

        void ensure() {
            if (!admin.getQueueExists("audit")) {
                admin.createQueue("audit");
            }
        }
    }

    @Autowired
    ServiceBusAdministrationClient admin;

    @Autowired
    ServiceBusSenderClient sender;

    @Autowired
    EmulatedServiceBus emulator;

    @Test
    void theApplicationsAdministrationClientReachesTheNamespace(
            @Autowired Namespace namespace, @Autowired AuditQueue auditQueue) {
        assertSame(emulator.namespace(), namespace);
        // each test starts on a fresh namespace with the declared entities (SPRING-2): what the application
        // created at start-up went with the first one, so it creates the queue again, as a restart would
        auditQueue.ensure();
        assertTrue(namespace.queueExists("audit"));

        sender.sendMessage(new ServiceBusMessage("order-42"));

        assertEquals(1, admin.getQueueRuntimeProperties("orders").getActiveMessageCount());
    }
}
