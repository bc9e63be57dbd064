package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.core.credential.TokenRequestContext;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.implementation.ServiceBusSharedKeyCredential;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnknownDescribedType;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Role;
import org.apache.qpid.proton.amqp.transport.SenderSettleMode;
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
        try (ServiceBusEmulatorServer server =
                ServiceBusEmulatorServer.builder(namespace).acceptAnyKey().start()) {
            for (String[] credentials : List.of(
                    new String[] {"RootManageSharedAccessKey", EMULATOR_KEY},
                    new String[] {"SomeOtherName", "another-key"})) {
                ServiceBusClientBuilder builder =
                        new ServiceBusClientBuilder().connectionString(withKey(server, credentials[0], credentials[1]));
                try (ServiceBusSenderClient sender =
                                builder.sender().queueName("orders").buildClient();
                        ServiceBusReceiverClient receiver = builder.receiver()
                                .queueName("orders")
                                .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                                .buildClient()) {
                    sender.sendMessage(new ServiceBusMessage("signed with " + credentials[1]));
                    List<ServiceBusReceivedMessage> received =
                            receiver.receiveMessages(1, Duration.ofSeconds(10)).stream()
                                    .toList();
                    assertEquals(1, received.size());
                    assertEquals(
                            "signed with " + credentials[1],
                            received.get(0).getBody().toString());
                }
            }
        }
    }

    @Test
    @DisplayName("AMQP-20 without acceptAnyKey a token signed with another key is refused as unauthorized, over AMQP "
            + "and HTTP")
    void otherKeyRefusedByDefault() throws Exception {
        namespace.createQueue("orders");
        try (ServiceBusEmulatorServer server =
                        ServiceBusEmulatorServer.builder(namespace).start();
                ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                        .connectionString(withKey(server, ServiceBusEmulatorServer.KEY_NAME, EMULATOR_KEY))
                        .sender()
                        .queueName("orders")
                        .buildClient()) {
            ServiceBusException e =
                    assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("x")));
            assertEquals(ServiceBusFailureReason.UNAUTHORIZED, e.getReason());
        }
        try (ServiceBusEmulatorServer server =
                        ServiceBusEmulatorServer.builder(namespace).start();
                ServiceBusEmulatorServer anyKey = ServiceBusEmulatorServer.builder(namespace)
                        .acceptAnyKey()
                        .start()) {
            assertEquals(401, getQueue(server));
            assertEquals(200, getQueue(anyKey));
        }
    }

    /** GET /orders with a token signed with {@link #EMULATOR_KEY}: the status. */
    private static int getQueue(ServiceBusEmulatorServer server) throws IOException, InterruptedException {
        String token = new ServiceBusSharedKeyCredential(
                        ServiceBusEmulatorServer.KEY_NAME, EMULATOR_KEY, Duration.ofHours(1))
                .getToken(new TokenRequestContext().addScopes("https://127.0.0.1/"))
                .block()
                .getToken();
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.httpUrl() + "/orders?api-version=2021-05"))
                .header("Authorization", token)
                .GET()
                .build();
        return HttpClient.newHttpClient()
                .send(request, HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    @Test
    @DisplayName("AMQP-21 a $cbs request without reply-to is answered on the reply link whose address is the request "
            + "link's, as the Python SDK pairs them")
    void requestWithoutReplyToAnsweredOnPairedLink() throws IOException {
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(namespace)
                        .sharedAccessKey("k")
                        .start();
                HostilePeer peer = HostilePeer.opened(server.port())) {
            peer.begin(0);
            peer.attachSender(0, 0, "python-cbs-requests", "$cbs");
            peer.expect(Attach.class, a -> a.getName().equals("python-cbs-requests"));
            // pyamqp's management link: the receiving half has the node's address as its target, here "$cbs"
            peer.attachReceiver(0, 1, "$cbs", "$cbs");
            var replies =
                    peer.expect(Attach.class, a -> a.getName().equals("$cbs")).getHandle();
            peer.flow(0, 1, 100);
            assertEquals("answered", peer.cbsRequest("k", null, replies));
        }
    }

    @Test
    @DisplayName("AMQP-6 a session filter sent as a described value (the Go SDK's) locks that session and is echoed "
            + "in the same form")
    void describedSessionFilter() throws IOException {
        namespace.createQueue(
                "carts", QueueOptions.builder().requiresSession(true).build());
        namespace.send(
                "carts", Message.builder().body("one").sessionId("cart-7").build());
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(namespace)
                        .sharedAccessKey("k")
                        .start();
                HostilePeer peer = HostilePeer.opened(server.port())) {
            peer.begin(0);
            peer.putToken("k");
            Attach attach = new Attach();
            attach.setName("go-session-receiver");
            attach.setHandle(UnsignedInteger.valueOf(5));
            attach.setRole(Role.RECEIVER);
            attach.setSndSettleMode(SenderSettleMode.UNSETTLED);
            Source source = new Source();
            source.setAddress("carts");
            source.setFilter(Map.of(
                    Symbol.valueOf("com.microsoft:session-filter"),
                    new UnknownDescribedType(UnsignedLong.valueOf(0x137000000CL), "cart-7")));
            attach.setSource(source);
            Target target = new Target();
            target.setAddress("go-session-receiver");
            attach.setTarget(target);
            peer.frame(0, attach, null);
            Attach answer = peer.expect(Attach.class, a -> a.getName().equals("go-session-receiver"));
            Object echoed =
                    ((Source) answer.getSource()).getFilter().get(Symbol.valueOf("com.microsoft:session-filter"));
            assertEquals("cart-7", ((DescribedType) echoed).getDescribed(), String.valueOf(echoed));
            assertEquals(UnsignedLong.valueOf(0x137000000CL), ((DescribedType) echoed).getDescriptor());
        }
    }
}
