package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.HttpResponseException;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.config.NamespaceSettings;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Shared access policies with rights, token scopes and expiry through the Java SDK's own clients. */
class RightsOverAmqpTest {
    private static final String ROOT_KEY = "root-key";

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.sharedAccessKey(ROOT_KEY));

    private Namespace namespace;
    private ServiceBusEmulatorServer server;

    @BeforeEach
    void policies(Namespace namespace, ServiceBusEmulatorServer server) {
        this.namespace = namespace;
        this.server = server;
        namespace.createQueue(
                "basic",
                QueueOptions.builder()
                        .authorizationRules(List.of(
                                AuthorizationRule.of("BasicOnly", "basic-key", AccessRight.SEND, AccessRight.LISTEN)))
                        .build());
        namespace.createQueue("secret");
        namespace.authorizationRules(List.of(
                AuthorizationRule.of("SendOnly", "send-key", AccessRight.SEND),
                AuthorizationRule.of("ListenOnly", "listen-key", AccessRight.LISTEN),
                AuthorizationRule.of("NoManage", "no-manage-key", AccessRight.SEND, AccessRight.LISTEN)));
    }

    private String withKey(String keyName, String key) {
        return "Endpoint=sb://127.0.0.1:" + server.port() + ";SharedAccessKeyName=" + keyName + ";SharedAccessKey="
                + key + ";UseDevelopmentEmulator=true;";
    }

    private String withSignature(String token) {
        return "Endpoint=sb://127.0.0.1:" + server.port() + ";SharedAccessSignature=" + token
                + ";UseDevelopmentEmulator=true;";
    }

    /** A token as the SDKs sign one: HMAC-SHA256 of the URL-encoded resource, a newline and the expiry. */
    static String token(String resource, String keyName, String key, Instant expiry) throws Exception {
        String sr = URLEncoder.encode(resource, StandardCharsets.UTF_8);
        String se = Long.toString(expiry.getEpochSecond());
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String sig = Base64.getEncoder().encodeToString(mac.doFinal((sr + "\n" + se).getBytes(StandardCharsets.UTF_8)));
        return "SharedAccessSignature sr=" + sr + "&sig=" + URLEncoder.encode(sig, StandardCharsets.UTF_8) + "&se=" + se
                + "&skn=" + keyName;
    }

    private static void send(String connectionString, String queue) {
        try (ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                .connectionString(connectionString)
                .sender()
                .queueName(queue)
                .buildClient()) {
            sender.sendMessage(new ServiceBusMessage("hello"));
        }
    }

    private static Throwable receiveFailure(String connectionString, String queue) {
        try (ServiceBusReceiverAsyncClient receiver = new ServiceBusClientBuilder()
                .connectionString(connectionString)
                .receiver()
                .queueName(queue)
                .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                .buildAsyncClient()) {
            return assertThrows(
                    RuntimeException.class, () -> receiver.receiveMessages().blockFirst(Duration.ofMinutes(2)));
        }
    }

    private static String received(String connectionString, String queue) {
        try (ServiceBusReceiverAsyncClient receiver = new ServiceBusClientBuilder()
                .connectionString(connectionString)
                .receiver()
                .queueName(queue)
                .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                .buildAsyncClient()) {
            return receiver.receiveMessages()
                    .blockFirst(Duration.ofMinutes(2))
                    .getBody()
                    .toString();
        }
    }

    private static void assertUnauthorized(Throwable failure, String text) {
        ServiceBusException e = failure instanceof ServiceBusException sb ? sb : assertInstanceOfCause(failure);
        assertEquals(ServiceBusFailureReason.UNAUTHORIZED, e.getReason(), e.toString());
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    private static ServiceBusException assertInstanceOfCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ServiceBusException sb) {
                return sb;
            }
        }
        throw new AssertionError("not a ServiceBusException: " + failure, failure);
    }

    @Test
    @DisplayName("SEC-3 a Listen-only key cannot send and a Send-only key cannot receive: amqp:unauthorized-access "
            + "with the service's text; each does what its right allows")
    void rightsOfAKey() {
        ServiceBusException sendRefused =
                assertThrows(ServiceBusException.class, () -> send(withKey("ListenOnly", "listen-key"), "basic"));
        assertUnauthorized(sendRefused, "Unauthorized access. 'Send' claim(s) are required to perform this operation");
        assertUnauthorized(
                receiveFailure(withKey("SendOnly", "send-key"), "basic"),
                "Unauthorized access. 'Listen' claim(s) are required to perform this operation");

        send(withKey("SendOnly", "send-key"), "basic");
        assertEquals("hello", received(withKey("ListenOnly", "listen-key"), "basic"));
        // SPEC SEC-1: the endpoint's key (Manage) and a Send-and-Listen policy do both
        send(server.getConnectionString(), "basic");
        assertEquals("hello", received(server.getConnectionString(), "basic"));
        send(withKey("NoManage", "no-manage-key"), "basic");
        assertEquals("hello", received(withKey("NoManage", "no-manage-key"), "basic"));
    }

    @Test
    @DisplayName("SEC-3 $management operations need their right: a Send-only key schedules but cannot peek")
    void managementOperations() {
        ServiceBusClientBuilder sendOnly =
                new ServiceBusClientBuilder().connectionString(withKey("SendOnly", "send-key"));
        try (ServiceBusSenderClient sender =
                        sendOnly.sender().queueName("basic").buildClient();
                ServiceBusReceiverClient receiver =
                        sendOnly.receiver().queueName("basic").buildClient()) {
            sender.scheduleMessage(
                    new ServiceBusMessage("later"), OffsetDateTime.now().plusHours(1));
            ServiceBusException e = assertThrows(ServiceBusException.class, receiver::peekMessage);
            assertUnauthorized(e, "'Listen' claim(s) are required");
        }
    }

    @Test
    @DisplayName("SEC-2 a policy of an entity works on that entity only")
    void entityPolicy() {
        send(withKey("BasicOnly", "basic-key"), "basic");
        assertEquals("hello", received(withKey("BasicOnly", "basic-key"), "basic"));
        assertThrows(ServiceBusException.class, () -> send(withKey("BasicOnly", "basic-key"), "secret"));
        assertThrows(RuntimeException.class, () -> received(withKey("BasicOnly", "basic-key"), "secret"));
    }

    @Test
    @DisplayName("SEC-4 a token is valid for its sr only: one signed with the key for queue basic sends to basic "
            + "but cannot read queue secret")
    void tokenScope() throws Exception {
        namespace.send("secret", dev.sbemu.core.Message.ofText("classified"));
        String basic = token(
                "sb://127.0.0.1:" + server.port() + "/basic",
                ServiceBusEmulatorServer.KEY_NAME,
                ROOT_KEY,
                Instant.now().plus(Duration.ofHours(1)));
        send(withSignature(basic), "basic");
        assertUnauthorized(receiveFailure(withSignature(basic), "secret"), "secret");
        assertEquals(1, namespace.peek(EntityPath.queue("secret"), 0, 10).size());
    }

    @Test
    @DisplayName("SEC-5 an expired token is refused at put-token with 401 and the service's ExpiredToken text")
    void expiredToken() throws Exception {
        String expired = token(
                "sb://127.0.0.1:" + server.port() + "/basic",
                ServiceBusEmulatorServer.KEY_NAME,
                ROOT_KEY,
                Instant.now().minus(Duration.ofMinutes(10)));
        ServiceBusException e = assertThrows(ServiceBusException.class, () -> send(withSignature(expired), "basic"));
        assertUnauthorized(e, "ExpiredToken: The token is expired. Expiration time:");
    }

    @Test
    @DisplayName("SEC-6 a key without Manage gets 401 from the administration client with the service's text; a "
            + "Manage key manages")
    void administrationNeedsManage() {
        ServiceBusAdministrationClient noManage = new ServiceBusAdministrationClientBuilder()
                .connectionString(withKey("NoManage", "no-manage-key"))
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
        HttpResponseException read = assertThrows(HttpResponseException.class, () -> noManage.getQueue("basic"));
        assertEquals(401, read.getResponse().getStatusCode());
        assertTrue(
                read.getMessage().contains("Manage,EntityRead claims required for this operation"), read.getMessage());
        HttpResponseException create =
                assertThrows(HttpResponseException.class, () -> noManage.createQueue("canneverbecreated"));
        assertEquals(401, create.getResponse().getStatusCode());
        assertTrue(create.getMessage().contains("Manage,EntityWrite"), create.getMessage());

        ServiceBusAdministrationClient manage = new ServiceBusAdministrationClientBuilder()
                .connectionString(server.getConnectionString())
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
        assertEquals("basic", manage.getQueue("basic").getName());
    }

    @Test
    @DisplayName(
            "SEC-3 NS-2 rights apply per namespace: a second namespace's SendOnly policy, named <namespace>/SendOnly"
                    + " on the wire, sends there and cannot receive; the default namespace's policies do not reach it")
    void rightsPerNamespace() {
        Namespace teamB = server.addNamespace("team-b", NamespaceSettings.defaults());
        teamB.createQueue("orders");
        teamB.authorizationRules(List.of(AuthorizationRule.of("SendOnly", "b-send-key", AccessRight.SEND)));
        String sendOnly = withKey("team-b/SendOnly", "b-send-key");
        send(sendOnly, "orders");
        assertUnauthorized(receiveFailure(sendOnly, "orders"), "'Listen' claim(s) are required");
        // the default namespace's SendOnly key is not team-b's
        assertThrows(ServiceBusException.class, () -> send(withKey("team-b/SendOnly", "send-key"), "orders"));
        // team-b's own key still reaches everything there
        assertEquals("hello", received(server.getConnectionString("127.0.0.1", "team-b"), "orders"));
    }
}
