package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.HttpResponseException;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import dev.sbemu.amqp.internal.security.Authorizer;
import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One endpoint, several namespaces: chosen by the connection string alone, each as isolated as its own server. */
class NamespacesTest extends EndpointFixture {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpResponse<String> call(String method, String path, String json) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(server.httpUrl() + path)).timeout(Duration.ofSeconds(30));
        request.method(
                method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        request.header("Authorization", server.controlAuthorization()); // SPEC SEC-7
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        assertTrue(m.find(), () -> name + " in " + json);
        return m.group(1);
    }

    private static ServiceBusReceivedMessage receiveOne(ServiceBusReceiverClient receiver) {
        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(1, Duration.ofSeconds(30)).stream().toList();
        assertEquals(1, got.size());
        return got.get(0);
    }

    @Test
    @DisplayName(
            "NS-1 NS-2 two namespaces on one endpoint hold entities of the same names; the SDK's connection string "
                    + "chooses one, and messages, sequence numbers, clocks and faults stay in it")
    void isolatedOverAmqp() throws Exception {
        Namespace teamA = server.addNamespace("team-a", NamespaceSettings.defaults());
        namespace.createQueue("orders");
        teamA.createQueue("orders");
        String defaultCs = server.getConnectionString();
        String teamACs = server.getConnectionString("127.0.0.1", "team-a");
        assertTrue(teamACs.contains("SharedAccessKeyName=team-a/RootManageSharedAccessKey;"), teamACs);

        // clocks move apart: one namespace's advance moves it alone (NS-5's per-namespace route)
        Instant defaultBefore = namespace.clock().instant();
        assertEquals(
                200,
                call("POST", "/__admin/namespaces/team-a/clock/advance", "{\"duration\":\"PT5H\"}")
                        .statusCode());
        assertEquals(defaultBefore, namespace.clock().instant());
        assertEquals(
                Duration.ofHours(5),
                Duration.between(defaultBefore, teamA.clock().instant()).withNanos(0));

        try (ServiceBusSenderClient toDefault =
                        clients(defaultCs).sender().queueName("orders").buildClient();
                ServiceBusSenderClient toTeamA =
                        clients(teamACs).sender().queueName("orders").buildClient();
                ServiceBusReceiverClient fromDefault =
                        clients(defaultCs).receiver().queueName("orders").buildClient();
                ServiceBusReceiverClient fromTeamA =
                        clients(teamACs).receiver().queueName("orders").buildClient()) {
            toTeamA.sendMessage(new ServiceBusMessage("for team a"));
            toDefault.sendMessage(new ServiceBusMessage("for the default"));
            ServiceBusReceivedMessage a = receiveOne(fromTeamA);
            ServiceBusReceivedMessage d = receiveOne(fromDefault);
            assertEquals("for team a", a.getBody().toString());
            assertEquals("for the default", d.getBody().toString());
            // each namespace numbers its own messages
            assertEquals(1, a.getSequenceNumber());
            assertEquals(1, d.getSequenceNumber());
            // each message was stamped by its own namespace's clock
            assertEquals(teamA.clock().instant(), a.getEnqueuedTime().toInstant());
            assertEquals(namespace.clock().instant(), d.getEnqueuedTime().toInstant());
            fromTeamA.complete(a);
            fromDefault.complete(d);

            // a fault scripted on one namespace's "orders" acts there only
            assertEquals(
                    201,
                    call(
                                    "POST",
                                    "/__admin/namespaces/team-a/faults",
                                    "{\"entity\":\"orders\",\"action\":\"failNext\",\"count\":1,"
                                            + "\"operation\":\"SEND\",\"failure\":\"QUOTA_EXCEEDED\"}")
                            .statusCode());
            toDefault.sendMessage(new ServiceBusMessage("unhurt"));
            ServiceBusException e =
                    assertThrows(ServiceBusException.class, () -> toTeamA.sendMessage(new ServiceBusMessage("hurt")));
            assertEquals(ServiceBusFailureReason.QUOTA_EXCEEDED, e.getReason(), e.toString());
            assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            assertEquals(0, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        }
        // the default namespace's control routes see the default's faults only
        assertEquals(
                "{\"faults\":[]}", call("GET", "/__admin/faults", null).body().replaceAll("\\s", ""));
    }

    @Test
    @DisplayName("NS-1 a transaction declared before the connection chose its namespace (the SDK attaches the "
            + "coordinator without a token) is begun in the namespace its operations go to")
    void transactionDeclaredFirst() {
        Namespace teamA = server.addNamespace("team-a", NamespaceSettings.defaults());
        namespace.createQueue("orders");
        teamA.createQueue("orders");
        try (ServiceBusSenderClient sender = clients(server.getConnectionString("127.0.0.1", "team-a"))
                .sender()
                .queueName("orders")
                .buildClient()) {
            ServiceBusTransactionContext tx = sender.createTransaction();
            sender.sendMessage(new ServiceBusMessage("in a transaction"), tx);
            assertEquals(0, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            sender.commitTransaction(tx);
            ServiceBusTransactionContext rolledBack = sender.createTransaction();
            sender.sendMessage(new ServiceBusMessage("rolled back"), rolledBack);
            sender.rollbackTransaction(rolledBack);
        }
        assertEquals(1, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }

    @Test
    @DisplayName("NS-2 an entity of one namespace is not found through another's connection string")
    void entityOfAnotherNamespaceIsNotFound() {
        server.addNamespace("team-b", NamespaceSettings.defaults());
        namespace.createQueue("only-default");
        try (ServiceBusSenderClient sender = clients(server.getConnectionString("127.0.0.1", "team-b"))
                .sender()
                .queueName("only-default")
                .buildClient()) {
            ServiceBusException e =
                    assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("lost")));
            assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_NOT_FOUND, e.getReason(), e.toString());
        }
    }

    @Test
    @DisplayName("NS-2 NS-3 the administration client over HTTP manages the namespace its connection string chooses")
    void administrationClientOverHttp() {
        Namespace teamA = server.addNamespace("team-a", NamespaceSettings.defaults());
        ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                .connectionString(server.getConnectionString("127.0.0.1", "team-a"))
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
        admin.createQueue("invoices");
        assertTrue(admin.getQueueExists("invoices"));
        assertTrue(teamA.queueExists("invoices"));
        assertFalse(namespace.queueExists("invoices"));
        namespace.createQueue("only-default");
        assertFalse(admin.getQueueExists("only-default"));
    }

    @Test
    @DisplayName("NS-2 JMS: the SASL PLAIN user name <namespace>/<key name> chooses the namespace")
    void jmsChoosesByUserName() throws Exception {
        Namespace teamA = server.addNamespace("team-a", NamespaceSettings.defaults());
        namespace.createQueue("orders");
        teamA.createQueue("orders");
        String cs = server.getConnectionString();
        int at = cs.indexOf("SharedAccessKey=") + "SharedAccessKey=".length();
        String key = cs.substring(at, cs.indexOf(';', at));
        Connection connection = new JmsConnectionFactory(
                        "team-a/" + ServiceBusEmulatorServer.KEY_NAME, key, "amqp://127.0.0.1:" + server.port())
                .createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue("orders")).send(session.createTextMessage("jms for a"));
            assertEquals(1, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            MessageConsumer consumer = session.createConsumer(session.createQueue("orders"));
            assertEquals("jms for a", ((TextMessage) consumer.receive(30_000)).getText());
        } finally {
            connection.close();
        }
    }

    @Test
    @DisplayName("NS-5 NS-6 the control API creates a namespace and answers its connection string, lists it and "
            + "deletes it; a client still connected then fails")
    void createListDelete() throws Exception {
        HttpResponse<String> created = call(
                "POST",
                "/__admin/namespaces",
                "{\"name\":\"ci-job-17\",\"clock\":\"frozen\"," + "\"startAt\":\"2030-01-01T00:00:00Z\"}");
        assertEquals(201, created.statusCode(), created.body());
        String cs = field(created.body(), "connectionString");
        assertTrue(cs.startsWith("Endpoint=sb://127.0.0.1:" + server.port() + ";"), cs);
        Namespace made = server.namespace("ci-job-17");
        assertNotNull(made);
        assertEquals(Instant.parse("2030-01-01T00:00:00Z"), made.clock().instant());
        assertEquals(ClockMode.FROZEN, made.clock().mode());

        made.createQueue("work");
        ServiceBusSenderClient sender = clients(cs).sender().queueName("work").buildClient();
        try (ServiceBusReceiverClient receiver =
                clients(cs).receiver().queueName("work").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("job"));
            ServiceBusReceivedMessage got = receiveOne(receiver);
            assertEquals(
                    Instant.parse("2030-01-01T00:00:00Z"), got.getEnqueuedTime().toInstant());
            receiver.complete(got);
        }

        String list = call("GET", "/__admin/namespaces", null).body();
        assertTrue(list.contains("\"name\":\"default\"") && list.contains("\"name\":\"ci-job-17\""), list);
        assertEquals(
                409,
                call("POST", "/__admin/namespaces", "{\"name\":\"ci-job-17\"}").statusCode());
        assertEquals(
                400,
                call("POST", "/__admin/namespaces", "{\"name\":\"no spaces\"}").statusCode());
        assertEquals(
                400,
                call("POST", "/__admin/namespaces", "{\"name\":\"x\",\"tire\":\"basic\"}")
                        .statusCode());
        assertEquals(409, call("DELETE", "/__admin/namespaces/default", null).statusCode());

        AtomicBoolean closed = new AtomicBoolean();
        made.onClose(() -> closed.set(true));
        assertEquals(200, call("DELETE", "/__admin/namespaces/ci-job-17", null).statusCode());
        assertNull(server.namespace("ci-job-17"));
        assertTrue(closed.get());
        assertEquals(404, call("GET", "/__admin/namespaces/ci-job-17", null).statusCode());
        assertEquals(
                404,
                call("POST", "/__admin/namespaces/ci-job-17/clock/freeze", null).statusCode());
        assertFalse(call("GET", "/__admin/namespaces", null).body().contains("ci-job-17"));
        // NS-6: the sender still connected to the deleted namespace fails; nothing reaches another namespace
        try {
            assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("too late")));
        } finally {
            sender.close();
        }
        assertFalse(namespace.queueExists("work"));
    }

    @Test
    @DisplayName("NS-2 a token whose key name chooses a namespace the server does not serve is refused")
    void unknownNamespaceIsRefused() {
        String cs = server.getConnectionString().replace("SharedAccessKeyName=", "SharedAccessKeyName=nowhere/");
        namespace.createQueue("orders");
        try (ServiceBusSenderClient sender =
                clients(cs).sender().queueName("orders").buildClient()) {
            ServiceBusException e =
                    assertThrows(ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("lost")));
            assertEquals(ServiceBusFailureReason.UNAUTHORIZED, e.getReason(), e.toString());
        }
    }

    @Test
    @DisplayName("NS-2 a key name encoded twice in the token (the Python SDK's quote_plus, then urlencode) chooses the "
            + "same namespace")
    void keyNameEncodedTwice() {
        NamespaceKeys keys = new NamespaceKeys() {
            @Override
            public String defaultName() {
                return "default";
            }

            @Override
            public Authorizer of(String name) {
                return null;
            }
        };
        String once = "SharedAccessSignature sr=x&sig=y&se=1&skn=py-own%2FRootManageSharedAccessKey";
        String twice = "SharedAccessSignature sr=x&sig=y&se=1&skn=py-own%252FRootManageSharedAccessKey";
        String raw = "SharedAccessSignature sr=x&sig=y&se=1&skn=py-own/RootManageSharedAccessKey";
        for (String token : List.of(once, twice, raw)) {
            assertEquals("py-own", keys.namespaceOfToken(token), token);
        }
        assertEquals("default", keys.namespaceOfToken("SharedAccessSignature sr=x&sig=y&se=1&skn=Root"));
    }

    @Test
    @DisplayName("NS-7 a reset of a running clock leaves it running at the wall clock, not put back to its start")
    void resetOfRunningClock() throws Exception {
        Namespace running =
                server.addNamespace("runner", NamespaceSettings.defaults().withClockMode(ClockMode.RUNNING));
        Instant handedOver = running.clock().instant();
        Instant wallBefore = Instant.now();
        assertTrue(wallBefore.isAfter(handedOver) || wallBefore.equals(handedOver));
        assertEquals(200, call("POST", "/__admin/namespaces/runner/reset", null).statusCode());
        Namespace fresh = server.namespace("runner");
        assertEquals(ClockMode.RUNNING, fresh.clock().mode());
        assertFalse(
                fresh.clock().instant().isBefore(wallBefore),
                () -> fresh.clock().instant() + " < " + wallBefore);
    }

    @Test
    @DisplayName("NS-9 NS-5 a namespace created through the control API with its own maxQueuesAndTopics holds that "
            + "many; the default namespace and other namespaces keep their tier's")
    void ownLimitThroughControlApi() throws Exception {
        HttpResponse<String> created =
                call("POST", "/__admin/namespaces", "{\"name\":\"small\",\"maxQueuesAndTopics\":1}");
        assertEquals(201, created.statusCode(), created.body());
        assertTrue(created.body().contains("\"maxQueuesAndTopics\":1"), created.body());
        String cs = field(created.body(), "connectionString");
        ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                .connectionString(cs)
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
        admin.createQueue("first");
        HttpResponseException refused = assertThrows(HttpResponseException.class, () -> admin.createQueue("second"));
        assertEquals(403, refused.getResponse().getStatusCode(), refused.getMessage());
        assertFalse(server.namespace("small").queueExists("second"));
        // the default namespace, and one created without a limit, keep their tier's
        namespace.createQueue("first");
        namespace.createQueue("second");
        assertEquals(10_000, namespace.maxQueuesAndTopics());
        assertEquals(
                201, call("POST", "/__admin/namespaces", "{\"name\":\"roomy\"}").statusCode());
        assertEquals(10_000, server.namespace("roomy").maxQueuesAndTopics());
        // bad values are refused with what to send
        HttpResponse<String> zero = call("POST", "/__admin/namespaces", "{\"name\":\"zero\",\"maxQueuesAndTopics\":0}");
        assertEquals(400, zero.statusCode());
        assertTrue(zero.body().contains("at least 1"), zero.body());
        assertEquals(
                400,
                call("POST", "/__admin/namespaces", "{\"name\":\"text\",\"maxQueuesAndTopics\":\"many\"}")
                        .statusCode());
        // a reset keeps the namespace's own limit (NS-7)
        assertEquals(200, call("POST", "/__admin/namespaces/small/reset", null).statusCode());
        assertEquals(1, server.namespace("small").maxQueuesAndTopics());
    }

    @Test
    @DisplayName("NS-3 on an endpoint that takes any key, a namespace created with a key of its own takes that key "
            + "only; one created without takes any, as the endpoint does")
    void ownKeyOnAnyKeyEndpoint() throws Exception {
        try (Namespace base = Namespace.create();
                ServiceBusEmulatorServer anyKey =
                        ServiceBusEmulatorServer.builder(base).acceptAnyKey().start()) {
            Namespace locked = anyKey.addNamespace("open", NamespaceSettings.defaults());
            HttpResponse<String> created = http.send(
                    HttpRequest.newBuilder(URI.create(anyKey.httpUrl() + "/__admin/namespaces"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"locked\",\"key\":\"mine\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            String own = field(created.body(), "connectionString");
            anyKey.namespace("locked").createQueue("orders");
            locked.createQueue("orders");
            try (ServiceBusSenderClient sender =
                    clients(own).sender().queueName("orders").buildClient()) {
                sender.sendMessage(new ServiceBusMessage("with its key"));
            }
            assertEquals(
                    1,
                    anyKey.namespace("locked")
                            .runtimeInfo(EntityPath.queue("orders"))
                            .activeMessageCount());
            try (ServiceBusSenderClient sender = clients(own.replace("SharedAccessKey=mine;", "SharedAccessKey=other;"))
                    .sender()
                    .queueName("orders")
                    .buildClient()) {
                ServiceBusException e = assertThrows(
                        ServiceBusException.class, () -> sender.sendMessage(new ServiceBusMessage("other key")));
                assertEquals(ServiceBusFailureReason.UNAUTHORIZED, e.getReason(), e.toString());
            }
            String open = anyKey.getConnectionString("127.0.0.1", "open")
                    .replaceAll("SharedAccessKey=[^;]*;", "SharedAccessKey=anything;");
            try (ServiceBusSenderClient sender =
                    clients(open).sender().queueName("orders").buildClient()) {
                sender.sendMessage(new ServiceBusMessage("any key"));
            }
            assertEquals(1, locked.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        }
    }
}
