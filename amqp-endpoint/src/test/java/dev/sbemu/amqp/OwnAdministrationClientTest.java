package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An endpoint started by hand: the application's own administration client, built from the endpoint's connection
 * string with the SDK's ordinary builder, reaches the endpoint's namespace while the endpoint runs (spec ADM-1, ADM-2).
 */
class OwnAdministrationClientTest {

    /** Application code, no sbemu in it: creates its queue at start-up, reports its backlog. */
    static final class Inventory {
        private final String connectionString;
        private final ServiceBusAdministrationClient admin;

        Inventory(String connectionString) {
            this.connectionString = connectionString;
            this.admin = new ServiceBusAdministrationClientBuilder()
                    .connectionString(connectionString)
                    .buildClient();
            if (!admin.getQueueExists("stock")) {
                admin.createQueue("stock");
            }
        }

        void publish(String item) {
            try (ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                    .connectionString(connectionString)
                    .sender()
                    .queueName("stock")
                    .buildClient()) {
                sender.sendMessage(new ServiceBusMessage(item));
            }
        }

        long backlog() {
            return admin.getQueueRuntimeProperties("stock").getActiveMessageCount();
        }
    }

    @Test
    @DisplayName("ADM-1 an endpoint started by hand: the application's own administration client reaches it")
    void ownAdministrationClient() {
        try (Namespace namespace = Namespace.create();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            Inventory inventory = new Inventory(server.getConnectionString());
            inventory.publish("apples");

            assertTrue(namespace.queueExists("stock"));
            assertEquals(1, inventory.backlog());
            assertEquals(1, new Inventory(server.getConnectionString()).backlog(), "the queue exists already");
        }
    }

    @Test
    @DisplayName("ADM-1 two endpoints in one JVM: each connection string's administration client reaches its own")
    void twoEndpoints() {
        try (Namespace first = Namespace.create();
                Namespace second = Namespace.create();
                ServiceBusEmulatorServer one = ServiceBusEmulatorServer.start(first);
                ServiceBusEmulatorServer two = ServiceBusEmulatorServer.start(second)) {
            Inventory a = new Inventory(one.getConnectionString());
            Inventory b = new Inventory(two.getConnectionString());
            a.publish("apples");
            a.publish("pears");
            b.publish("plums");

            assertEquals(2, a.backlog());
            assertEquals(1, b.backlog());
            assertEquals(2, first.runtimeInfo(EntityPath.queue("stock")).activeMessageCount());
        }
    }

    @Test
    @DisplayName("ADM-1 after replaceNamespace the administration client reaches the namespace now served")
    void followsReplacedNamespace() {
        try (Namespace first = Namespace.create();
                Namespace next = Namespace.create();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(first)) {
            ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                    .connectionString(server.getConnectionString())
                    .buildClient();
            server.replaceNamespace(next);

            admin.createQueue("after");

            assertTrue(next.queueExists("after"));
            assertFalse(first.queueExists("after"));
        }
    }

    @Test
    @DisplayName("ADM-2 the connection string of a closed endpoint fails at once with what to change")
    void closedEndpoint() {
        String connectionString;
        try (Namespace namespace = Namespace.create();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            connectionString = server.getConnectionString();
        }
        ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                .connectionString(connectionString)
                .buildClient();

        ClientAuthenticationException e =
                assertThrows(ClientAuthenticationException.class, () -> admin.getQueueExists("stock"));
        assertTrue(e.getMessage().contains("not one of an endpoint already closed"), e.getMessage());
    }

    @Test
    @DisplayName("ADM-2 two running endpoints sharing a key: the administration client fails at once, naming the fix")
    void endpointsSharingAKey() {
        try (Namespace first = Namespace.create();
                Namespace second = Namespace.create();
                ServiceBusEmulatorServer one = ServiceBusEmulatorServer.builder(first)
                        .sharedAccessKey("same")
                        .start();
                ServiceBusEmulatorServer two = ServiceBusEmulatorServer.builder(second)
                        .sharedAccessKey("same")
                        .start()) {
            ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                    .connectionString(one.getConnectionString())
                    .buildClient();

            ClientAuthenticationException e =
                    assertThrows(ClientAuthenticationException.class, () -> admin.createQueue("stock"));
            assertTrue(e.getMessage().contains("share the key"), e.getMessage());
            assertTrue(e.getMessage().contains("sharedAccessKey unset"), e.getMessage());
            assertFalse(first.queueExists("stock") || second.queueExists("stock"));
        }
    }

    @Test
    @DisplayName("ADM-1 NS-2 the administration client built from another namespace's connection string reaches that "
            + "namespace, with the endpoint's key or its own")
    void otherNamespaces() throws Exception {
        try (Namespace namespace = Namespace.create();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            Namespace teamA = server.addNamespace("team-a", NamespaceSettings.defaults());
            HttpResponse<String> created = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(server.httpUrl() + "/__admin/namespaces"))
                                    .header("Authorization", server.controlAuthorization())
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "{\"name\":\"team-b\",\"key\":\"team-b-own-key\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            Namespace teamB = server.namespace("team-b");
            String teamBConnectionString = server.getConnectionString("127.0.0.1", "team-b");
            assertTrue(teamBConnectionString.contains("SharedAccessKey=team-b-own-key;"), teamBConnectionString);

            new Inventory(server.getConnectionString("127.0.0.1", "team-a")).publish("apples");
            Inventory b = new Inventory(teamBConnectionString);
            b.publish("plums");
            b.publish("pears");

            assertTrue(teamA.queueExists("stock"));
            assertEquals(1, teamA.runtimeInfo(EntityPath.queue("stock")).activeMessageCount());
            assertEquals(2, b.backlog());
            assertEquals(2, teamB.runtimeInfo(EntityPath.queue("stock")).activeMessageCount());
            assertFalse(namespace.queueExists("stock"));

            // a key name choosing team-b, signed with the endpoint's key instead of team-b's own: not routed
            String endpointKey = server.getConnectionString().replaceAll(".*SharedAccessKey=([^;]*);.*", "$1");
            ServiceBusAdministrationClient wrongKey = new ServiceBusAdministrationClientBuilder()
                    .connectionString(teamBConnectionString.replace("team-b-own-key", endpointKey))
                    .buildClient();
            assertThrows(ClientAuthenticationException.class, () -> wrongKey.getQueueExists("stock"));
        }
    }
}
