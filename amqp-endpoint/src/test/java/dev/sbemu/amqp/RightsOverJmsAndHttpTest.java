package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.Namespace;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** SASL PLAIN in each key mode (Qpid JMS), and the control API with and without a key (raw HTTP). */
class RightsOverJmsAndHttpTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static ServiceBusEmulatorServer start(Namespace namespace, boolean anyKey) {
        ServiceBusEmulatorServer.Builder builder = ServiceBusEmulatorServer.builder(namespace);
        return (anyKey ? builder.acceptAnyKey() : builder.sharedAccessKey("root-key")).start();
    }

    private static Namespace namespace() {
        Namespace namespace = Namespace.create();
        namespace.createQueue("orders");
        namespace.authorizationRules(List.of(
                AuthorizationRule.of("SendOnly", "send-key", AccessRight.SEND),
                AuthorizationRule.of("ListenOnly", "listen-key", AccessRight.LISTEN)));
        return namespace;
    }

    private static Connection connect(ServiceBusEmulatorServer server, String user, String password)
            throws JMSException {
        Connection connection = new JmsConnectionFactory(
                        user, password, "amqp://127.0.0.1:" + server.port() + "?jms.connectTimeout=30000")
                .createConnection();
        connection.start();
        return connection;
    }

    private static void sendAndReceive(ServiceBusEmulatorServer server, String user, String password)
            throws JMSException {
        Connection connection = connect(server, user, password);
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue("orders")).send(session.createTextMessage("hi " + user));
            TextMessage got = (TextMessage)
                    session.createConsumer(session.createQueue("orders")).receive(WAIT.toMillis());
            assertNotNull(got);
            assertEquals("hi " + user, got.getText());
        } finally {
            connection.close();
        }
    }

    @Test
    @DisplayName("SEC-8 accepting any key, SASL PLAIN takes any key name and key as the SDK clients' tokens are taken;"
            + " a declared policy's name has its rights")
    void anyKeyOverSaslPlain() throws Exception {
        try (Namespace namespace = namespace();
                ServiceBusEmulatorServer server = start(namespace, true)) {
            sendAndReceive(server, "RootManageSharedAccessKey", "SAS_KEY_VALUE");
            sendAndReceive(server, "someone", "any-key-at-all");
            Connection listenOnly = connect(server, "ListenOnly", "whatever");
            try {
                Session session = listenOnly.createSession(false, Session.AUTO_ACKNOWLEDGE);
                assertThrows(JMSSecurityException.class, () -> session.createProducer(session.createQueue("orders")));
            } finally {
                listenOnly.close();
            }
        }
    }

    @Test
    @DisplayName("SEC-8 with a key, SASL PLAIN takes only a policy's key name and key, with that policy's rights")
    void keyOverSaslPlain() throws Exception {
        try (Namespace namespace = namespace();
                ServiceBusEmulatorServer server = start(namespace, false)) {
            sendAndReceive(server, ServiceBusEmulatorServer.KEY_NAME, "root-key");
            assertThrows(JMSSecurityException.class, () -> connect(server, "SendOnly", "wrong"));
            assertThrows(JMSSecurityException.class, () -> connect(server, "someone", "root-key"));
            Connection sendOnly = connect(server, "SendOnly", "send-key");
            try {
                Session session = sendOnly.createSession(false, Session.AUTO_ACKNOWLEDGE);
                session.createProducer(session.createQueue("orders")).send(session.createTextMessage("x"));
                assertThrows(JMSSecurityException.class, () -> session.createConsumer(session.createQueue("orders")));
            } finally {
                sendOnly.close();
            }
        }
    }

    @Test
    @DisplayName("CON-12 with a key, a Listen token reads the control API (the console's views) and changes nothing; "
            + "a Manage token does both; GET /__admin/rights says which")
    void readOnlyWithoutManage() throws Exception {
        try (Namespace namespace = namespace();
                ServiceBusEmulatorServer server = start(namespace, false)) {
            String resource = "sb://127.0.0.1:" + server.port() + "/";
            Instant hour = Instant.now().plus(Duration.ofHours(1));
            String listen = RightsOverAmqpTest.token(resource, "ListenOnly", "listen-key", hour);
            String root = RightsOverAmqpTest.token(resource, ServiceBusEmulatorServer.KEY_NAME, "root-key", hour);
            String send = RightsOverAmqpTest.token(resource, "SendOnly", "send-key", hour);
            for (String read : List.of(
                    "/__admin/clock",
                    "/__admin/clock/timers",
                    "/__admin/journal?after=-1&type=SENT",
                    "/__admin/connections",
                    "/__admin/entities",
                    "/__admin/faults",
                    "/__admin/messages?entity=orders",
                    "/__admin/namespaces/default/connections")) {
                assertEquals(200, get(server, read, listen).statusCode(), read);
                assertEquals(401, get(server, read, send).statusCode(), read);
            }
            assertEquals(
                    "{\"read\":true,\"manage\":false}",
                    get(server, "/__admin/rights", listen).body());
            assertEquals(
                    "{\"read\":true,\"manage\":true}",
                    get(server, "/__admin/rights", root).body());
            assertEquals(401, get(server, "/__admin/rights", send).statusCode());
            assertEquals(401, get(server, "/__admin/rights", null).statusCode());
            Instant before = namespace.clock().instant();
            for (String[] change : List.of(
                    new String[] {"POST", "/__admin/clock/advance"},
                    new String[] {"POST", "/__admin/clock/advance-to-next"},
                    new String[] {"POST", "/__admin/faults"},
                    new String[] {"DELETE", "/__admin/faults"},
                    new String[] {"DELETE", "/__admin/messages?entity=orders"},
                    new String[] {"POST", "/__admin/messages?entity=orders"},
                    new String[] {"POST", "/__admin/reset"},
                    new String[] {"POST", "/__admin/namespaces/default/clock/advance-to-next"},
                    new String[] {"GET", "/__admin/namespaces"},
                    new String[] {"GET", "/__admin/namespaces/default"})) {
                HttpResponse<String> refused = call(server, change[0], change[1], listen);
                assertEquals(401, refused.statusCode(), change[1]);
                assertTrue(refused.body().contains("Manage"), refused.body());
            }
            assertEquals(before, namespace.clock().instant());
            assertEquals(200, get(server, "/__admin/namespaces", root).statusCode());
        }
    }

    private HttpResponse<String> get(ServiceBusEmulatorServer server, String path, String authorization)
            throws Exception {
        return call(server, "GET", path, authorization);
    }

    private HttpResponse<String> call(ServiceBusEmulatorServer server, String method, String path, String authorization)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.httpUrl() + path))
                .timeout(WAIT)
                .method(method, HttpRequest.BodyPublishers.ofString(method.equals("GET") ? "" : "{}"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @DisplayName("SEC-7 with a key the control API needs a token of a Manage policy; /health stays open; accepting "
            + "any key it is open to whoever reaches the port")
    void controlApi() throws Exception {
        try (Namespace namespace = namespace();
                ServiceBusEmulatorServer server = start(namespace, false)) {
            String resource = "sb://127.0.0.1:" + server.port() + "/";
            Instant hour = Instant.now().plus(Duration.ofHours(1));
            assertEquals(401, get(server, "/__admin/clock", null).statusCode());
            HttpResponse<String> wrong = get(
                    server,
                    "/__admin/clock",
                    RightsOverAmqpTest.token(resource, ServiceBusEmulatorServer.KEY_NAME, "guess", hour));
            assertEquals(401, wrong.statusCode());
            HttpResponse<String> sendOnly =
                    get(server, "/__admin/clock", RightsOverAmqpTest.token(resource, "SendOnly", "send-key", hour));
            assertEquals(401, sendOnly.statusCode());
            assertTrue(sendOnly.body().contains("Manage"), sendOnly.body());
            assertEquals(
                    200,
                    get(
                                    server,
                                    "/__admin/clock",
                                    RightsOverAmqpTest.token(
                                            resource, ServiceBusEmulatorServer.KEY_NAME, "root-key", hour))
                            .statusCode());
            assertEquals(200, get(server, "/health", null).statusCode());
            // CON-4: the console's files are open (the page asks for the key); the API it calls is not
            assertEquals(200, get(server, "/__admin/console/", null).statusCode());
            assertEquals(401, get(server, "/__admin/entities", null).statusCode());
        }
        try (Namespace namespace = namespace();
                ServiceBusEmulatorServer server = start(namespace, true)) {
            assertEquals(200, get(server, "/__admin/clock", null).statusCode());
        }
    }
}
