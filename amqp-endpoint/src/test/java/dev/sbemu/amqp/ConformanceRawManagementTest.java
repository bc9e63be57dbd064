package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.wire.ManagementHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Management requests as the SDKs that the Java SDK cannot stand in for write them (the Go and Python SDKs' typed
 * rule parameters, issue 31): raw Atom XML, once through {@code wire}'s {@link ManagementHandler} in process and once
 * over the endpoint's real HTTP side.
 */
class ConformanceRawManagementTest {
    private static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private static final String KEY = "conformance-key";
    private static final String SB = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect";

    private Namespace ns;
    private ServiceBusEmulatorServer server;
    private ManagementHandler handler;
    private final HttpClient http = HttpClient.newHttpClient();

    private void open(boolean overHttp) {
        open(overHttp, Tier.STANDARD);
    }

    private void open(boolean overHttp, Tier tier) {
        ns = Namespace.builder().startingAt(START).tier(tier).build();
        if (overHttp) {
            server = ServiceBusEmulatorServer.builder(ns)
                    .sharedAccessKey(KEY)
                    .httpPort(0)
                    .start();
        } else {
            handler = ManagementHandler.of(ns, "sbemu.servicebus.windows.net");
        }
    }

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
        if (ns != null) {
            ns.close();
        }
    }

    /** Status and body of one request. */
    private record Answer(int status, String body) {}

    private Answer send(String method, String path, String body) throws Exception {
        if (handler != null) {
            ManagementHandler.Response r = handler.handle(method, "/" + path, "api-version=2021-05", null, body);
            return new Answer(r.status(), r.body());
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.httpPort() + "/" + path + "?api-version=2021-05"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", HttpEndpointTest.token(KEY))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    /** A parameter as the Go SDK writes one ({@code admin_client_rules.go}: {@code l28:dateTime}, RFC 3339). */
    private static String parameter(String key, String type, String value) {
        return "<KeyValueOfstringanyType><Key>" + key + "</Key><Value xmlns:l28=\"http://www.w3.org/2001/XMLSchema\""
                + " i:type=\"l28:" + type + "\">" + value + "</Value></KeyValueOfstringanyType>";
    }

    private static String rule(String filter, String filterParameters, String action, String actionParameters) {
        return "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">"
                + "<RuleDescription xmlns=\"" + SB + "\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">"
                + "<Filter i:type=\"SqlFilter\"><SqlExpression>" + filter + "</SqlExpression><Parameters>"
                + filterParameters + "</Parameters></Filter>"
                + "<Action i:type=\"SqlRuleAction\"><SqlExpression>" + action + "</SqlExpression><Parameters>"
                + actionParameters + "</Parameters></Action>"
                + "<Name>after</Name></RuleDescription></content></entry>";
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("RUL-10 a date-time SQL parameter is accepted, returned typed, and filters and actions use it")
    void dateTimeParameters(boolean overHttp) throws Exception {
        open(overHttp);
        ns.createTopic("t");
        ns.createSubscription("t", "late");
        Answer created = send(
                "PUT",
                "t/Subscriptions/late/Rules/after",
                rule(
                        "sent &gt; @cutoff",
                        parameter("@cutoff", "dateTime", "2030-01-01T00:00:00Z"),
                        "SET stamp = @stamp",
                        parameter("@stamp", "dateTime", "2001-01-01T01:02:03Z")));
        assertEquals(201, created.status(), created.body());
        assertEquals(
                200, send("DELETE", "t/Subscriptions/late/Rules/$Default", null).status());

        Answer read = send("GET", "t/Subscriptions/late/Rules/after", null);
        assertEquals(200, read.status(), read.body());
        assertTrue(read.body().contains("dateTime\">2030-01-01T00:00:00Z</"), read.body());
        assertTrue(read.body().contains("dateTime\">2001-01-01T01:02:03Z</"), read.body());

        OffsetDateTime cutoff = OffsetDateTime.of(2030, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        ns.send(
                "t",
                Message.builder()
                        .body("before")
                        .applicationProperty("sent", cutoff.minusDays(1))
                        .build());
        ns.send(
                "t",
                Message.builder()
                        .body("after")
                        .applicationProperty("sent", cutoff.plusDays(1))
                        .build());
        ns.send(
                "t",
                Message.builder()
                        .body("timestamp after")
                        .applicationProperty(
                                "sent", Date.from(cutoff.plusHours(1).toInstant()))
                        .build());
        List<BrokeredMessage> got = ns.peek(EntityPath.subscription("t", "late"), 0, 10);
        assertEquals(
                List.of("after", "timestamp after"),
                got.stream()
                        .map(m -> new String(((MessageBody.Data) m.message().body()).bytes(), StandardCharsets.UTF_8))
                        .collect(Collectors.toList()));
        assertEquals(
                OffsetDateTime.of(2001, 1, 1, 1, 2, 3, 0, ZoneOffset.UTC).toInstant(),
                ((OffsetDateTime) got.get(0).message().applicationProperties().get("stamp")).toInstant());
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("RUL-11 a topic's description counts the SQL and correlation filters of all its subscriptions")
    void topicFilterCounts(boolean overHttp) throws Exception {
        open(overHttp);
        ns.createTopic("t");
        Answer none = send("GET", "t", null);
        assertTrue(none.body().contains("<SqlFilterCount>0</SqlFilterCount>"), none.body());
        assertTrue(none.body().contains("<CorrelationFilterCount>0</CorrelationFilterCount>"), none.body());

        ns.createSubscription("t", "a");
        ns.createSubscription("t", "b");
        ns.createRule("t", "b", "sql", SqlFilter.parse("x = 1"), null);
        ns.createRule(
                "t", "b", "corr", new CorrelationFilter("abc", null, null, null, null, null, null, null, null), null);
        Answer counted = send("GET", "t", null);
        assertEquals(200, counted.status(), counted.body());
        assertTrue(counted.body().contains("<SubscriptionCount>2</SubscriptionCount>"), counted.body());
        assertTrue(counted.body().contains("<SqlFilterCount>3</SqlFilterCount>"), counted.body());
        assertTrue(counted.body().contains("<CorrelationFilterCount>1</CorrelationFilterCount>"), counted.body());
        Answer listed = send("GET", "$Resources/topics", null);
        assertTrue(listed.body().contains("<SqlFilterCount>3</SqlFilterCount>"), listed.body());
    }

    private static String queue(String elements) {
        return "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\"><QueueDescription xmlns=\""
                + SB + "\">" + elements + "</QueueDescription></content></entry>";
    }

    private static String topic(String elements) {
        return "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\"><TopicDescription xmlns=\""
                + SB + "\">" + elements + "</TopicDescription></content></entry>";
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("LIM-7 EnableExpress=true is accepted on Standard")
    void expressOnStandard(boolean overHttp) throws Exception {
        open(overHttp);
        Answer q = send("PUT", "q", queue("<EnableExpress>true</EnableExpress>"));
        assertEquals(201, q.status(), q.body());
        Answer t = send("PUT", "t", topic("<EnableExpress>true</EnableExpress>"));
        assertEquals(201, t.status(), t.body());
        assertTrue(ns.queueExists("q") && ns.topicExists("t"));
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("LIM-7 EnableExpress=true is refused on Premium, which has no express entities")
    void expressOnPremium(boolean overHttp) throws Exception {
        open(overHttp, Tier.PREMIUM);
        Answer q = send("PUT", "q", queue("<EnableExpress>true</EnableExpress>"));
        assertEquals(400, q.status(), q.body());
        assertTrue(q.body().contains("Premium"), q.body());
        assertEquals(
                201,
                send("PUT", "q", queue("<EnableExpress>false</EnableExpress>")).status());
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("RUL-13 a parameter comes back with the type it was sent with: the Go SDK's int, double, boolean, "
            + "string and dateTime")
    void parametersKeepTheirTypes(boolean overHttp) throws Exception {
        open(overHttp);
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        String parameters = parameter("@stringVar", "string", "hello world")
                + parameter("@intVar", "int", "100")
                + parameter("@floatVar", "double", "100.100000")
                + parameter("@dateTimeVar", "dateTime", "2001-01-01T01:02:03Z")
                + parameter("@boolVar", "boolean", "true");
        Answer created = send(
                "PUT",
                "t/Subscriptions/s/Rules/after",
                rule(
                        "MessageID=@stringVar OR MessageID=@intVar OR MessageID=@floatVar OR MessageID=@dateTimeVar"
                                + " OR MessageID=@boolVar",
                        parameters,
                        "SET MessageID=@stringVar SET MessageID=@intVar SET MessageID=@floatVar"
                                + " SET MessageID=@dateTimeVar SET MessageID=@boolVar",
                        parameters));
        assertEquals(201, created.status(), created.body());
        Answer read = send("GET", "t/Subscriptions/s/Rules/after", null);
        for (String typed : List.of(
                "string\">hello world<",
                "int\">100<",
                "double\">100.1<",
                "dateTime\">2001-01-01T01:02:03Z<",
                "boolean\">true<")) {
            assertTrue(read.body().contains(typed), () -> typed + " in " + read.body());
        }
        assertTrue(!read.body().contains("long\">"), read.body());
    }
}
