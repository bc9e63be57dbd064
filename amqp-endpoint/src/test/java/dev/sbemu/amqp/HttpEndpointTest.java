package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Faults;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.ReceiveMode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The endpoint's HTTP side through real HTTP (java.net.http): management, /health and the control API. */
class HttpEndpointTest {
    private static final Instant START = Instant.parse("2026-01-01T10:00:00Z");
    private static final String KEY = "c2JlbXUtdGVzdC1rZXk=";
    private static final String QUEUE_XML =
            "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">"
                    + "<QueueDescription xmlns=\"http://schemas.microsoft.com/netservices/2010/10/servicebus/connect\">"
                    + "<LockDuration>PT45S</LockDuration></QueueDescription></content></entry>";

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private String base;

    @BeforeEach
    void start() {
        namespace = Namespace.builder().startingAt(START).build();
        namespace.createQueue(
                "orders", QueueOptions.builder().maxDeliveryCount(1).build());
        server = ServiceBusEmulatorServer.builder(namespace)
                .sharedAccessKey(KEY)
                .httpPort(0)
                .start();
        base = "http://127.0.0.1:" + server.httpPort();
    }

    @AfterEach
    void stop() {
        server.namespace().close();
        server.close();
        namespace.close();
    }

    // ---- management -------------------------------------------------------------------------------------------

    @Test
    @DisplayName(
            "HTTP-1 management over HTTP: PUT creates (201), again 409, GET 200, unknown 404, If-Match: * updates, "
                    + "listing with $top, $namespaceinfo, paths case-insensitive, any api-version")
    void management() throws Exception {
        HttpResponse<String> created = send("PUT", "/invoices?api-version=2021-05", QUEUE_XML, token(KEY), null);
        assertEquals(201, created.statusCode(), created.body());
        assertTrue(created.body().contains("PT45S"), created.body());
        assertEquals(Duration.ofSeconds(45), namespace.getQueue("invoices").lockDuration());

        assertEquals(
                409,
                send("PUT", "/invoices?api-version=2017-04", QUEUE_XML, token(KEY), null)
                        .statusCode());
        assertEquals(
                200,
                send("GET", "/INVOICES?api-version=1999-01&enrich=true", null, token(KEY), null)
                        .statusCode());
        assertEquals(
                404,
                send("GET", "/missing?api-version=2021-05", null, token(KEY), null)
                        .statusCode());

        HttpResponse<String> updated =
                send("PUT", "/invoices?api-version=2021-05", QUEUE_XML.replace("PT45S", "PT50S"), token(KEY), "*");
        assertEquals(200, updated.statusCode(), updated.body());
        assertEquals(Duration.ofSeconds(50), namespace.getQueue("invoices").lockDuration());

        HttpResponse<String> listed =
                send("GET", "/$resources/QUEUES?$skip=0&$top=1&api-version=2021-05", null, token(KEY), null);
        assertEquals(200, listed.statusCode());
        assertTrue(listed.body().contains("invoices") ^ listed.body().contains("orders"), listed.body());

        HttpResponse<String> info = send("GET", "/$namespaceinfo?api-version=2021-05", null, token(KEY), null);
        assertEquals(200, info.statusCode());
        assertTrue(info.body().contains("NamespaceInfo"), info.body());

        assertEquals(
                400,
                send("PUT", "/bad?api-version=2021-05", "<not-an-entry/>", token(KEY), null)
                        .statusCode());
        assertEquals(
                200,
                send("DELETE", "/invoices?api-version=2021-05", null, token(KEY), null)
                        .statusCode());
        assertFalse(namespace.queueExists("invoices"));
    }

    @Test
    @DisplayName(
            "HTTP-2 a management request without a SharedAccessSignature of the endpoint's key is refused with 401")
    void unauthorized() throws Exception {
        HttpResponse<String> none = send("GET", "/orders", null, null, null);
        assertEquals(401, none.statusCode());
        assertTrue(none.body().contains("Authorization"), none.body());
        HttpResponse<String> wrongKey = send("GET", "/orders", null, token("b3RoZXIta2V5"), null);
        assertEquals(401, wrongKey.statusCode());
        assertTrue(wrongKey.body().contains("signature does not match"), wrongKey.body());
    }

    // ---- health -----------------------------------------------------------------------------------------------

    @Test
    @DisplayName(
            "HTTP-3 GET /health answers Microsoft's emulator's shape: 200 while a namespace is served, 503 once it "
                    + "is closed under the endpoint, 200 again after a reset")
    void health() throws Exception {
        HttpResponse<String> health = send("GET", "/health", null, null, null);
        assertEquals(200, health.statusCode());
        assertEquals("{\"status\":\"healthy\",\"message\":\"Service is healthy.\"}", health.body());
        assertTrue(health.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));

        namespace.close();
        HttpResponse<String> closed = send("GET", "/health", null, null, null);
        assertEquals(503, closed.statusCode());
        assertEquals("{\"status\":\"unhealthy\",\"message\":\"Service is not ready.\"}", closed.body());

        post("/__admin/reset", "");
        assertEquals(200, send("GET", "/health", null, null, null).statusCode());
    }

    // ---- control ----------------------------------------------------------------------------------------------

    @Test
    @DisplayName("HTTP-4 the clock through /__admin/: read, advance by a duration, advance to an instant, freeze, run; "
            + "a bad duration and a clock moved backwards are 400 with a JSON message")
    void clock() throws Exception {
        assertEquals(
                "{\"now\":\"2026-01-01T10:00:00Z\",\"mode\":\"FROZEN\"}",
                get("/__admin/clock").body());
        HttpResponse<String> advanced = post("/__admin/clock/advance", "{\"duration\":\"PT11M\"}");
        assertEquals(200, advanced.statusCode());
        assertEquals("{\"now\":\"2026-01-01T10:11:00Z\",\"mode\":\"FROZEN\"}", advanced.body());
        assertEquals(START.plusSeconds(660), namespace.clock().instant());

        assertEquals(
                "{\"now\":\"2026-01-01T12:00:00Z\",\"mode\":\"FROZEN\"}",
                post("/__admin/clock/advance-to", "{\"instant\":\"2026-01-01T12:00:00Z\"}")
                        .body());

        HttpResponse<String> backwards = post("/__admin/clock/advance-to", "{\"instant\":\"2026-01-01T11:00:00Z\"}");
        assertEquals(400, backwards.statusCode());
        assertTrue(backwards.body().contains("cannot move backwards"), backwards.body());
        HttpResponse<String> badDuration = post("/__admin/clock/advance", "{\"duration\":\"11 minutes\"}");
        assertEquals(400, badDuration.statusCode());
        assertTrue(
                badDuration.body().startsWith("{\"error\":\"BadRequest\",\"message\":\"'duration' is not an ISO-8601"),
                badDuration.body());
        assertEquals(400, post("/__admin/clock/advance", "not json").statusCode());

        assertTrue(post("/__admin/clock/run", "").body().contains("\"mode\":\"RUNNING\""));
        assertEquals(ClockMode.RUNNING, namespace.clock().mode());
        assertTrue(post("/__admin/clock/freeze", "").body().contains("\"mode\":\"FROZEN\""));
        assertEquals(ClockMode.FROZEN, namespace.clock().mode());

        assertEquals(404, get("/__admin/clock/backwards").statusCode());
        assertEquals(405, send("DELETE", "/__admin/clock", null, null, null).statusCode());
    }

    @Test
    @DisplayName("HTTP-5 the journal through /__admin/journal from a cursor: only what happened since the last look")
    void journal() throws Exception {
        namespace.send("orders", text("m1", "one"));
        HttpResponse<String> first = get("/__admin/journal");
        assertEquals(200, first.statusCode());
        assertTrue(first.body().contains("\"type\":\"SENT\""), first.body());
        assertTrue(first.body().contains("\"messageId\":\"m1\""), first.body());
        long next = namespace.journal().totalEvents();
        assertTrue(first.body().contains("\"next\":" + next + ",\"dropped\":0"), first.body());

        namespace.send("orders", text("m2", "two"));
        String since = get("/__admin/journal?from=" + next).body();
        assertFalse(since.contains("\"m1\""), since);
        assertTrue(since.contains("\"messageId\":\"m2\""), since);
        assertEquals(400, get("/__admin/journal?from=minus").statusCode());
    }

    @Test
    @DisplayName("HTTP-6 an entity's messages through /__admin/messages without consuming them (active, scheduled, "
            + "dead-letter), a purge, and an unknown entity 404")
    void messages() throws Exception {
        namespace.send("orders", text("m1", "hello"));
        namespace.schedule("orders", text("later", "soon"), START.plusSeconds(3600));
        namespace.send("orders", text("dead", "x"));
        var received = namespace.receive(EntityPath.queue("orders"), ReceiveMode.PEEK_LOCK, 1);
        assertEquals("m1", received.get(0).message().messageId());
        namespace.deadLetter(EntityPath.queue("orders"), received.get(0).lockToken());

        String active = get("/__admin/messages?entity=orders").body();
        assertTrue(active.contains("\"messageId\":\"later\",\"state\":\"SCHEDULED\""), active);
        assertTrue(active.contains("\"messageId\":\"dead\",\"state\":\"ACTIVE\""), active);
        assertFalse(active.contains("\"m1\""), active);
        String dlq = get("/__admin/messages?entity=orders&subQueue=deadletter").body();
        assertTrue(dlq.contains("\"messageId\":\"m1\""), dlq);
        assertTrue(dlq.contains("\"body\":\"hello\""), dlq);
        assertEquals(
                2,
                namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount()
                        + namespace.runtimeInfo(EntityPath.queue("orders")).scheduledMessageCount());

        HttpResponse<String> purged = send("DELETE", "/__admin/messages?entity=orders", null, null, null);
        assertEquals("{\"entity\":\"orders\",\"purged\":2}", purged.body());
        assertTrue(namespace.peek(EntityPath.queue("orders"), 0, 10).isEmpty());
        assertEquals(
                1,
                namespace.peek(EntityPath.queue("orders").deadLetter(), 0, 10).size());

        HttpResponse<String> unknown = get("/__admin/messages?entity=nope");
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.body().startsWith("{\"error\":\"EntityNotFound\""), unknown.body());
        assertEquals(400, get("/__admin/messages").statusCode());
    }

    @Test
    @DisplayName("HTTP-6 a purge takes the deferred messages it can and skips one that is locked (DLQ-7 would fail "
            + "the batch)")
    void purgeSkipsLockedDeferred() throws Exception {
        namespace.send("orders", text("d1", "x"));
        namespace.send("orders", text("d2", "y"));
        EntityPath orders = EntityPath.queue("orders");
        var received = namespace.receive(orders, ReceiveMode.PEEK_LOCK, 2);
        namespace.defer(orders, received.get(0).lockToken());
        namespace.defer(orders, received.get(1).lockToken());
        // the first deferred message received again by its number: locked, so no receive by number takes it now
        namespace.receiveDeferred(
                orders, ReceiveMode.PEEK_LOCK, List.of(received.get(0).sequenceNumber()));

        HttpResponse<String> purged = send("DELETE", "/__admin/messages?entity=orders", null, null, null);

        assertEquals(200, purged.statusCode(), purged.body());
        assertEquals("{\"entity\":\"orders\",\"purged\":1}", purged.body());
    }

    @Test
    @DisplayName("HTTP-7 faults through /__admin/faults: scripted, listed, acting, cancelled, cleared")
    void faults() throws Exception {
        HttpResponse<String> added = post(
                "/__admin/faults",
                "{\"entity\":\"orders\",\"action\":\"failNext\","
                        + "\"count\":1,\"operation\":\"SEND\",\"failure\":\"SERVICE_BUSY\"}");
        assertEquals(201, added.statusCode(), added.body());
        String asked = "\"action\":\"failNext\",\"operation\":\"SEND\",\"failure\":\"SERVICE_BUSY\","
                + "\"entity\":\"orders\",\"count\":1";
        assertEquals("{\"id\":1,\"actedOn\":0,\"done\":false," + asked + "}", added.body());
        try {
            namespace.send("orders", text("a", "a"));
            throw new AssertionError("the scripted fault did not act");
        } catch (BrokerException.ServiceBusy expected) {
            // scripted
        }
        assertEquals(
                "{\"faults\":[{\"id\":1,\"actedOn\":1,\"done\":true," + asked + "}]}",
                get("/__admin/faults").body());

        post(
                "/__admin/faults",
                "{\"action\":\"failNext\",\"count\":5,\"operation\":\"RECEIVE\",\"failure\":\"SERVICE_TIMEOUT\"}");
        assertEquals(200, send("DELETE", "/__admin/faults/2", null, null, null).statusCode());
        assertEquals(404, send("DELETE", "/__admin/faults/2", null, null, null).statusCode());
        namespace.receive(EntityPath.queue("orders"), ReceiveMode.PEEK_LOCK, 1);

        post("/__admin/faults", "{\"action\":\"delayNext\",\"operation\":\"SEND\",\"delay\":\"PT1H\"}");
        assertEquals(
                "{\"faults\":[]}",
                send("DELETE", "/__admin/faults", null, null, null).body());
        namespace.send("orders", text("b", "b"));

        HttpResponse<String> bad =
                post("/__admin/faults", "{\"action\":\"failNext\",\"operation\":\"SEND\"," + "\"failure\":\"BROKEN\"}");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("'failure' must be one of"), bad.body());
        assertFalse(Faults.Failure.class.getName().isEmpty());
    }

    @Test
    @DisplayName("HTTP-4 POST /__admin/faults refuses a missing entity with 404 and a count that is no whole number "
            + "from 1 to 2^31-1 with 400, scripting nothing")
    void faultsRefuseMissingEntitiesAndAbsurdCounts() throws Exception {
        HttpResponse<String> missing = post(
                "/__admin/faults",
                "{\"entity\":\"no-such-queue\",\"action\":\"failNext\",\"operation\":\"SEND\","
                        + "\"failure\":\"SERVICE_BUSY\"}");
        assertEquals(404, missing.statusCode(), missing.body());
        HttpResponse<String> missingSubscription = post(
                "/__admin/faults",
                "{\"entity\":\"orders\",\"subscription\":\"s\",\"action\":\"failNext\","
                        + "\"operation\":\"SEND\",\"failure\":\"SERVICE_BUSY\"}");
        assertEquals(404, missingSubscription.statusCode(), missingSubscription.body());
        for (String count : List.of("1e30", "0", "-1", "2.5", "2147483648")) {
            HttpResponse<String> absurd = post(
                    "/__admin/faults",
                    "{\"entity\":\"orders\",\"action\":\"failNext\",\"count\":" + count
                            + ",\"operation\":\"SEND\",\"failure\":\"SERVICE_BUSY\"}");
            assertEquals(400, absurd.statusCode(), count + ": " + absurd.body());
        }
        assertEquals("{\"faults\":[]}", get("/__admin/faults").body());
        namespace.send("orders", text("a", "a"));
    }

    @Test
    @DisplayName("RES-2 a malformed percent-escape in an Authorization header is answered 401, not 500, and logged at "
            + "most once")
    void malformedEscapesInTokensAre401() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger http = Logger.getLogger("dev.sbemu.amqp.internal.http");
        http.addHandler(capture);
        try {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> answer =
                        send("GET", "/orders", null, "SharedAccessSignature sr=x&sig=%zz&se=%&skn=%G1", null);
                assertEquals(401, answer.statusCode(), answer.body());
            }
        } finally {
            http.removeHandler(capture);
        }
        assertTrue(
                records.stream()
                                .filter(r -> r.getLevel().intValue() >= Level.INFO.intValue())
                                .count()
                        <= 1,
                records::toString);
        assertTrue(records.stream().allMatch(r -> r.getThrown() == null), records::toString);
    }

    @Test
    @DisplayName("HTTP-8 POST /__admin/reset serves the declared topology again: no messages, the clock at its start")
    void reset() throws Exception {
        namespace.send("orders", text("m1", "one"));
        namespace.createQueue("added-later");
        namespace.clock().advance(Duration.ofHours(2));
        HttpResponse<String> reset = post("/__admin/reset", "");
        assertEquals(200, reset.statusCode(), reset.body());
        assertTrue(reset.body().contains("2026-01-01T10:00:00Z"), reset.body());

        Namespace fresh = server.namespace();
        assertNotSame(namespace, fresh);
        assertEquals(START, fresh.clock().instant());
        assertTrue(fresh.queueExists("orders"));
        assertEquals(1, fresh.getQueue("orders").maxDeliveryCount());
        assertFalse(fresh.queueExists("added-later"));
        assertTrue(fresh.peek(EntityPath.queue("orders"), 0, 10).isEmpty());
        assertEquals(
                "{\"now\":\"2026-01-01T10:00:00Z\",\"mode\":\"FROZEN\"}",
                get("/__admin/clock").body());
        assertEquals(200, send("GET", "/orders", null, token(KEY), null).statusCode());
    }

    @Test
    @DisplayName("HTTP-9 the control API is described at /__admin/openapi.json; an unknown operation is a JSON 404")
    void openApi() throws Exception {
        HttpResponse<String> doc = get("/__admin/openapi.json");
        assertEquals(200, doc.statusCode());
        assertTrue(doc.body().contains("\"openapi\": \"3.0.3\""), doc.body());
        for (String path : new String[] {
            "/__admin/clock/advance", "/__admin/journal", "/__admin/reset", "/__admin/faults", "/__admin/messages"
        }) {
            assertTrue(doc.body().contains("\"" + path + "\""), path);
        }
        HttpResponse<String> unknown = get("/__admin/nothing");
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.body().contains("openapi.json"), unknown.body());
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private static Message text(String id, String body) {
        return Message.builder()
                .messageId(id)
                .body(new MessageBody.Data(body.getBytes(StandardCharsets.UTF_8)))
                .build();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send("GET", path, null, null, null);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return send("POST", path, body, null, null);
    }

    private HttpResponse<String> send(String method, String path, String body, String authorization, String ifMatch)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        } else if (path.startsWith("/__admin")) {
            request.header("Authorization", server.controlAuthorization()); // SPEC SEC-7
        }
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A shared access signature as the SDKs make one. */
    static String token(String key) throws Exception {
        return token(ServiceBusEmulatorServer.KEY_NAME, key);
    }

    /** A namespace-wide token of {@code keyName} (a policy's, or {@code <namespace>/<policy>}: NS-2). */
    static String token(String keyName, String key) throws Exception {
        String resource = URLEncoder.encode("http://127.0.0.1/", StandardCharsets.UTF_8);
        String expiry = Long.toString(Instant.now().getEpochSecond() + 3600);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String sig = Base64.getEncoder()
                .encodeToString(mac.doFinal((resource + "\n" + expiry).getBytes(StandardCharsets.UTF_8)));
        return "SharedAccessSignature sr=" + resource + "&sig=" + URLEncoder.encode(sig, StandardCharsets.UTF_8)
                + "&se=" + expiry + "&skn=" + URLEncoder.encode(keyName, StandardCharsets.UTF_8);
    }
}
