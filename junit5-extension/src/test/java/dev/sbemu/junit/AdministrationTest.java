package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.fixtures.AdminFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** The application's own administration client, built from the injected connection string (spec ADM-1). */
@ServiceBusEmulator(queues = @Queue(name = "orders"))
class AdministrationTest {

    @Test
    @DisplayName("ADM-1 an administration client the code builds from @ConnectionString reaches the test's namespace")
    void ownAdministrationClient(@ConnectionString String connectionString, Namespace ns) {
        ns.send("orders", Message.ofText("order-42"));
        ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                .connectionString(connectionString)
                .buildClient();

        assertEquals(1, admin.getQueueRuntimeProperties("orders").getActiveMessageCount());
    }

    @Test
    @DisplayName("ADM-1 test classes run in parallel: each one's administration client reaches its own namespace")
    void parallelClasses() {
        EngineExecutionResults results = Kit.runInParallel(AdminFixtures.ClassA.class, AdminFixtures.ClassB.class);

        results.testEvents().assertStatistics(s -> s.started(6).succeeded(6));
    }
}
