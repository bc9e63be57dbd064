package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What clients written for Microsoft's emulator, and SDKs of other languages, rely on (AMQP-20, AMQP-21). */
class EmulatorConventionsTest {
    /** The key in the connection strings Microsoft's emulator documents. */
    private static final String EMULATOR_KEY = "SAS_KEY_VALUE";

    private final Namespace namespace = Namespace.create();

    @AfterEach
    void close() {
        namespace.close();
    }

    private static String withKey(ServiceBusEmulatorServer server, String keyName, String key) {
        return "Endpoint=sb://127.0.0.1:" + server.port() + ";SharedAccessKeyName=" + keyName + ";SharedAccessKey="
                + key + ";UseDevelopmentEmulator=true;";
    }

    @Test
    @DisplayName("AMQP-20 with acceptAnyKey a connection string with any key and key name (Microsoft's emulator's "
            + "SAS_KEY_VALUE) sends and receives")
    void anyKeyAccepted() {
        namespace.createQueue("orders");
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(namespace).acceptAnyKey().start()) {
            for (String[] credentials : List.of(new String[] {"RootManageSharedAccessKey", EMULATOR_KEY},
                    new String[] {"SomeOtherName", "another-key"})) {
                ServiceBusClientBuilder builder = new ServiceBusClientBuilder()
                        .connectionString(withKey(server, credentials[0], credentials[1]));
                try (ServiceBusSenderClient sender = builder.sender().queueName("orders").buildClient();
                     ServiceBusReceiverClient receiver = builder.receiver().queueName("orders")
                             .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE).buildClient()) {
                    sender.sendMessage(new ServiceBusMessage("signed with " + credentials[1]));
                    List<ServiceBusReceivedMessage> received = receiver.receiveMessages(1, Duration.ofSeconds(10))
                            .stream().toList();
                    assertEquals(1, received.size());
                    assertEquals("signed with " + credentials[1], received.get(0).getBody().toString());
                }
            }
        }
    }

    @Test
    @DisplayName("AMQP-20 without acceptAnyKey a token signed with another key is refused as unauthorized, over AMQP "
            + "and HTTP")
    void otherKeyRefusedByDefault() throws Exception {
        namespace.createQueue("orders");
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(namespace).start();
             ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                     .connectionString(withKey(server, ServiceBusEmulatorServer.KEY_NAME, EMULATOR_KEY))
                     .sender().queueName("orders").buildClient()) {
            ServiceBusException e = assertThrows(ServiceBusException.class,
                    () -> sender.sendMessage(new ServiceBusMessage("x")));
            assertEquals(ServiceBusFailureReason.UNAUTHORIZED, e.getReason());
        }
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(namespace).start();
             ServiceBusEmulatorServer anyKey = ServiceBusEmulatorServer.builder(namespace).acceptAnyKey().start()) {
            assertEquals(401, getQueue(server));
            assertEquals(200, getQueue(anyKey));
        }
    }

    /** GET /orders with a token signed with {@link #EMULATOR_KEY}: the status. */
    private static int getQueue(ServiceBusEmulatorServer server) throws IOException, InterruptedException {
        String token = new com.azure.messaging.servicebus.implementation.ServiceBusSharedKeyCredential(
                ServiceBusEmulatorServer.KEY_NAME, EMULATOR_KEY, Duration.ofHours(1))
                .getToken(new com.azure.core.credential.TokenRequestContext().addScopes("https://127.0.0.1/"))
                .block().getToken();
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.httpUrl() + "/orders?api-version=2021-05"))
                .header("Authorization", token).GET().build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    @DisplayName("AMQP-21 a $cbs request without reply-to is answered on the reply link whose address is the request "
            + "link's, as the Python SDK pairs them")
    void requestWithoutReplyToAnsweredOnPairedLink() throws IOException {
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(namespace).sharedAccessKey("k").start();
             HostilePeer peer = HostilePeer.opened(server.port())) {
            peer.begin(0);
            peer.attachSender(0, 0, "python-cbs-requests", "$cbs");
            peer.expect(Attach.class, a -> a.getName().equals("python-cbs-requests"));
            // pyamqp's management link: the receiving half has the node's address as its target, here "$cbs"
            peer.attachReceiver(0, 1, "$cbs", "$cbs");
            var replies = peer.expect(Attach.class, a -> a.getName().equals("$cbs")).getHandle();
            peer.flow(0, 1, 100);
            assertEquals("answered", peer.cbsRequest("k", null, replies));
        }
    }
}
