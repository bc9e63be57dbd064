package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.SessionLock;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.core.filter.SqlFilter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;

/** The control API's additions for the console (spec CON), and the console's files, over real HTTP. */
class ConsoleApiTest {
    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    @DisplayName("CON-1 GET /__admin/entities lists queues, topics and subscriptions with counts, properties and rules")
    void entities(Namespace ns) throws Exception {
        ns.createQueue(
                "orders",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(1))
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        ns.createTopic("events");
        ns.createSubscription("events", "audit");
        ns.createRule("events", "audit", "red", SqlFilter.parse("color = 'red'"), null);
        ns.send("orders", Message.ofText("one"));
        ns.send("orders", Message.ofText("two"));
        ns.clock().advance(Duration.ofMinutes(2));
        ns.send("orders", Message.ofText("three"));

        HttpResponse<String> answer = call("GET", "/__admin/entities", null);

        assertEquals(200, answer.statusCode());
        String json = answer.body();
        assertTrue(
                json.contains("\"name\":\"orders\",\"kind\":\"queue\",\"counts\":{\"active\":1,\"scheduled\":0,"
                        + "\"deferred\":0,\"deadLetter\":2,\"transferDeadLetter\":0,\"total\":3}"),
                json);
        assertTrue(json.contains("\"defaultMessageTimeToLive\":\"PT1M\""), json);
        assertTrue(json.contains("\"name\":\"events\",\"kind\":\"topic\""), json);
        assertTrue(json.contains("\"name\":\"audit\",\"kind\":\"subscription\""), json);
        assertTrue(json.contains("{\"name\":\"red\",\"filterType\":\"sql\",\"filter\":\"color = 'red'\""), json);
        assertFalse(json.contains("authorizationRules"), json);
    }

    @Test
    @DisplayName("CON-2 GET /__admin/sessions names each session's holder, lock end, ready messages and state")
    void sessions(Namespace ns) throws Exception {
        ns.createQueue("jobs", QueueOptions.builder().requiresSession(true).build());
        ns.send("jobs", Message.builder().body("a").sessionId("s-1").build());
        ns.send("jobs", Message.builder().body("b").sessionId("s-2").build());
        SessionLock lock = ns.acceptSession(EntityPath.queue("jobs"), "s-1", Duration.ZERO);
        ns.setSessionState(lock, "step-2".getBytes(StandardCharsets.UTF_8));

        String json = call("GET", "/__admin/sessions?entity=jobs", null).body();

        assertTrue(
                json.contains("{\"sessionId\":\"s-1\",\"held\":true,\"holder\":\"" + lock.token()
                        + "\",\"lockedUntil\":\"" + lock.lockedUntil() + "\",\"readyMessages\":1,\"state\":\"step-2\""),
                json);
        assertTrue(
                json.contains("{\"sessionId\":\"s-2\",\"held\":false,\"holder\":null,\"lockedUntil\":null,"
                        + "\"readyMessages\":1,\"state\":null}"),
                json);
        assertEquals(400, call("GET", "/__admin/sessions", null).statusCode());
    }

    @Test
    @DisplayName("CON-3 POST /__admin/messages sends a message; POST messages/resubmit moves a dead-lettered one back")
    void sendAndResubmit(Namespace ns) throws Exception {
        ns.createQueue("orders", QueueOptions.builder().maxDeliveryCount(1).build());

        HttpResponse<String> sent = call(
                "POST",
                "/__admin/messages?entity=orders",
                "{\"body\":\"{\\\"id\\\":42}\",\"messageId\":\"m-1\",\"contentType\":\"application/json\","
                        + "\"timeToLive\":\"PT5M\",\"applicationProperties\":{\"color\":\"red\"}}");
        assertEquals(201, sent.statusCode(), sent.body());
        BrokeredMessage taken =
                ns.receive(EntityPath.queue("orders"), ReceiveMode.PEEK_LOCK, 1).get(0);
        assertEquals("m-1", taken.message().messageId());
        assertEquals("{\"id\":42}", taken.bodyAsString());
        assertEquals(Duration.ofMinutes(5), taken.message().timeToLive());
        assertEquals("red", taken.message().applicationProperties().get("color"));
        ns.deadLetter(EntityPath.queue("orders"), taken.lockToken(), "Bad", "bad order", java.util.Map.of());

        HttpResponse<String> resubmitted =
                call("POST", "/__admin/messages/resubmit?entity=orders&sequenceNumber=" + taken.sequenceNumber(), null);

        assertEquals(200, resubmitted.statusCode(), resubmitted.body());
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("orders")).deadLetterMessageCount());
        List<BrokeredMessage> back = ns.peek(EntityPath.queue("orders"), 0, 10);
        assertEquals(1, back.size());
        assertEquals("m-1", back.get(0).message().messageId());
        assertEquals(null, back.get(0).deadLetterReason());
        assertEquals("red", back.get(0).message().applicationProperties().get("color"));
        assertEquals(
                404,
                call("POST", "/__admin/messages/resubmit?entity=orders&sequenceNumber=999", null)
                        .statusCode());
    }

    @Test
    @DisplayName("CON-10 each namespace lists its own connections: /__admin/namespaces/{name}/connections")
    void connectionsPerNamespace(Namespace ns) throws Exception {
        Namespace teamA = endpoint.server().addNamespace("team-a", NamespaceSettings.defaults());
        ns.createQueue("orders");
        teamA.createQueue("jobs");
        String teamACs = endpoint.server().getConnectionString("127.0.0.1", "team-a");
        try (ServiceBusSenderClient sender = new ServiceBusClientBuilder()
                .connectionString(teamACs)
                .sender()
                .queueName("jobs")
                .buildClient()) {
            sender.sendMessage(new ServiceBusMessage("for team a"));

            String teamAs =
                    call("GET", "/__admin/namespaces/team-a/connections", null).body();
            String defaults = call("GET", "/__admin/connections", null).body();

            assertTrue(teamAs.contains("\"role\":\"sender\",\"address\":\"jobs\""), teamAs);
            assertFalse(defaults.contains("jobs"), defaults);
            assertEquals(
                    404,
                    call("GET", "/__admin/namespaces/team-b/connections", null).statusCode());
            assertEquals(
                    "{\"read\":true,\"manage\":true}",
                    call("GET", "/__admin/namespaces/team-a/rights", null).body());
            assertEquals(
                    404, call("GET", "/__admin/namespaces/team-b/rights", null).statusCode());
        }
    }

    @Test
    @DisplayName("CON-4 GET /__admin/console/ serves the console's page, script and style from the jar")
    void consoleFiles() throws Exception {
        HttpResponse<String> page = call("GET", "/__admin/console/", null);
        assertEquals(200, page.statusCode());
        assertEquals(
                "text/html; charset=utf-8",
                page.headers().firstValue("Content-Type").orElse(""));
        assertTrue(page.body().contains("/__admin/console/console.js"), page.body());
        assertEquals(200, call("GET", "/__admin/console", null).statusCode());
        HttpResponse<String> script = call("GET", "/__admin/console/console.js", null);
        assertEquals(
                "text/javascript; charset=utf-8",
                script.headers().firstValue("Content-Type").orElse(""));
        assertFalse(script.body().contains("http://") || script.body().contains("https://"), "nothing from outside");
        assertEquals(200, call("GET", "/__admin/console/console.css", null).statusCode());
        assertEquals(404, call("GET", "/__admin/console/other.js", null).statusCode());
        assertEquals(405, call("POST", "/__admin/console/", "").statusCode());
    }

    @Test
    @DisplayName(
            "CON-8 GET /__admin/clock/timers lists the next due timers; POST clock/advance-to-next fires the first")
    void timers(Namespace ns) throws Exception {
        Instant t0 = ns.clock().instant();
        ns.createQueue(
                "orders",
                QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        ns.send(
                "orders",
                Message.builder()
                        .body("a")
                        .messageId("m-1")
                        .timeToLive(Duration.ofMinutes(10))
                        .build());
        ns.schedule("orders", Message.builder().body("b").messageId("m-2").build(), t0.plus(Duration.ofMinutes(5)));

        String json = call("GET", "/__admin/clock/timers", null).body();

        assertTrue(
                json.contains("\"timers\":[{\"due\":\"" + t0.plus(Duration.ofMinutes(5))
                        + "\",\"kind\":\"SCHEDULED_ACTIVATION\",\"entity\":\"orders\",\"sequenceNumber\":2,"
                        + "\"messageId\":\"m-2\"},{\"due\":\"" + t0.plus(Duration.ofMinutes(10))
                        + "\",\"kind\":\"MESSAGE_EXPIRY\",\"entity\":\"orders\",\"sequenceNumber\":1,"
                        + "\"messageId\":\"m-1\"}]"),
                json);
        assertFalse(call("GET", "/__admin/clock/timers?max=1", null).body().contains("MESSAGE_EXPIRY"));
        assertEquals(400, call("GET", "/__admin/clock/timers?max=0", null).statusCode());
        assertEquals(400, call("GET", "/__admin/clock/timers?max=1001", null).statusCode());

        HttpResponse<String> next = call("POST", "/__admin/clock/advance-to-next", null);

        assertEquals(200, next.statusCode(), next.body());
        assertEquals(t0.plus(Duration.ofMinutes(5)), ns.clock().instant());
        assertTrue(next.body().contains("\"fired\":{\"due\":\"" + t0.plus(Duration.ofMinutes(5))), next.body());
        assertEquals(2, ns.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        call("POST", "/__admin/clock/advance-to-next", null);
        HttpResponse<String> none = call("POST", "/__admin/clock/advance-to-next", null);
        assertEquals(409, none.statusCode(), none.body());
        assertTrue(none.body().contains("NoPendingTimer"), none.body());
        assertEquals(405, call("GET", "/__admin/clock/advance-to-next", null).statusCode());
    }

    @Test
    @DisplayName("CON-9 GET /__admin/journal?after= follows the journal as a cursor; entity= and type= filter it")
    void journalCursorAndFilters(Namespace ns) throws Exception {
        ns.createQueue("orders");
        ns.createQueue("other");
        ns.send("orders", Message.builder().body("a").messageId("m-1").build());
        ns.send("other", Message.builder().body("b").build());

        String all = call("GET", "/__admin/journal", null).body();
        assertTrue(all.endsWith("\"next\":4,\"dropped\":0,\"last\":3}"), all);

        ns.send("orders", Message.builder().body("c").messageId("m-3").build());
        String since = call("GET", "/__admin/journal?after=3", null).body();
        assertTrue(since.startsWith("{\"events\":[{\"index\":4,"), since);
        assertTrue(since.endsWith("\"next\":5,\"dropped\":0,\"last\":4}"), since);
        assertEquals(since, call("GET", "/__admin/journal?from=4", null).body());
        assertTrue(call("GET", "/__admin/journal?after=4", null).body().startsWith("{\"events\":[],"));

        String orders =
                call("GET", "/__admin/journal?entity=ORDERS&type=sent", null).body();
        assertTrue(orders.contains("\"messageId\":\"m-1\""), orders);
        assertTrue(orders.contains("\"messageId\":\"m-3\""), orders);
        assertFalse(orders.contains("\"entity\":\"other\""), orders);
        assertFalse(orders.contains("ENTITY_CREATED"), orders);
        String created = call("GET", "/__admin/journal?type=ENTITY_CREATED,SENT&entity=other", null)
                .body();
        assertTrue(created.contains("ENTITY_CREATED") && created.contains("\"type\":\"SENT\""), created);

        HttpResponse<String> unknownType = call("GET", "/__admin/journal?type=SENT,SHIPPED", null);
        assertEquals(400, unknownType.statusCode());
        assertTrue(unknownType.body().contains("SHIPPED"), unknownType.body());
        assertEquals(400, call("GET", "/__admin/journal?after=1&from=2", null).statusCode());
        assertEquals(400, call("GET", "/__admin/journal?after=-2", null).statusCode());
    }

    @Test
    @DisplayName("CON-10 GET /__admin/connections lists the open connections and their links: address, role, receive "
            + "mode, credit and unsettled deliveries")
    void connections(Namespace ns, @EndpointExtension.ConnectionString String connectionString) throws Exception {
        ns.createQueue("orders");
        assertEquals(
                "{\"connections\":[],\"truncated\":false}",
                call("GET", "/__admin/connections", null).body());
        ServiceBusClientBuilder clients = new ServiceBusClientBuilder().connectionString(connectionString);
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverAsyncClient receiver = clients.receiver()
                        .queueName("orders")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildAsyncClient()) {
            sender.sendMessage(new ServiceBusMessage("one"));
            Disposable receiving = receiver.receiveMessages().subscribe(m -> {}); // the link stays open
            try {
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () -> call("GET", "/__admin/connections", null).body(),
                                body -> body.contains("\"role\":\"receiver\",\"address\":\"orders\","
                                                + "\"receiveMode\":\"RECEIVE_AND_DELETE\",\"sessionId\":null,"
                                                + "\"credit\":")
                                        && body.contains("\"role\":\"sender\",\"address\":\"orders\"")
                                        && ns.runtimeInfo(EntityPath.queue("orders"))
                                                        .activeMessageCount()
                                                == 0);
                String json = call("GET", "/__admin/connections", null).body();
                assertTrue(json.contains("\"client\":\"/127.0.0.1:"), json);
                assertTrue(json.contains("\"authorized\":true"), json);
                assertTrue(json.contains("\"unsettled\":0"), json);
                assertEquals(405, call("POST", "/__admin/connections", "").statusCode());
            } finally {
                receiving.dispose();
            }
        }
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(endpoint.server().httpUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                // the endpoint checks its key, so the control API needs a Manage token (SEC-7)
                .header("Authorization", endpoint.server().controlAuthorization())
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
