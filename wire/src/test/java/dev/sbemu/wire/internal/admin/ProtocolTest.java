package dev.sbemu.wire.internal.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Namespace;
import dev.sbemu.core.filter.CorrelationFilter;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The management protocol below the SDK: what the service writes, and what it refuses. */
class ProtocolTest {
    private static final String SB = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect";
    private final Namespace namespace = Namespace.create();
    private final ManagementRouter router = new ManagementRouter(
            namespace, "sbemu.servicebus.windows.net", "2021-05", Instant.parse("2024-01-01T00:00:00Z"));

    @AfterEach
    void close() {
        namespace.close();
    }

    private ManagementResponse send(
            String method, String path, Map<String, String> query, String ifMatch, String body) {
        return router.handle(new ManagementRequest(method, List.of(path.split("/")), query, ifMatch, body));
    }

    private ManagementResponse put(String path, String description) {
        return send(
                "PUT",
                path,
                Map.of("api-version", "2021-05"),
                null,
                "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">" + description
                        + "</content></entry>");
    }

    private static void assertError(ManagementResponse r, int status, String fragment) {
        assertEquals(status, r.status(), r.body());
        assertTrue(
                r.body().startsWith("<?xml") && r.body().contains("<Error><Code>" + status + "</Code><Detail>"),
                r.body());
        assertTrue(r.body().contains(fragment), () -> r.body() + " lacks " + fragment);
    }

    @Test
    @DisplayName("TTL-7 a queue entry carries the service's shapes: TimeSpan.MaxValue, CountDetails, Atom metadata")
    void entryShape() {
        ManagementResponse created = put("orders", "<QueueDescription xmlns=\"" + SB + "\"/>");
        assertEquals(201, created.status(), created.body());
        String body =
                send("GET", "orders", Map.of("enrich", "true"), null, null).body();
        assertTrue(
                body.contains("<DefaultMessageTimeToLive>P10675199DT2H48M5.4775807S</DefaultMessageTimeToLive>"), body);
        assertTrue(body.contains("<title type=\"text\">orders</title>"), body);
        assertTrue(body.contains("<LockDuration>PT1M</LockDuration>"), body);
        assertTrue(body.contains("<d2p1:ActiveMessageCount>0</d2p1:ActiveMessageCount>"), body);
        assertTrue(body.contains("xmlns:d2p1=\"http://schemas.microsoft.com/netservices/2011/06/servicebus\""), body);
        assertTrue(body.contains("<QueueDescription xmlns=\"" + SB + "\""), body);
    }

    private static String property(String key, String prefixNamespace, String type, String value) {
        return "<KeyValueOfstringanyType><Key>" + key + "</Key><Value xmlns:d6p1=\"" + prefixNamespace
                + "\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" i:type=\"d6p1:" + type + "\">" + value
                + "</Value></KeyValueOfstringanyType>";
    }

    @Test
    @DisplayName("RUL-3 correlation filter properties of every data-contract type are stored typed and returned typed")
    void typedCorrelationProperties() {
        String xsd = "http://www.w3.org/2001/XMLSchema";
        String ser = "http://schemas.microsoft.com/2003/10/Serialization/";
        namespace.createTopic("orders");
        namespace.createSubscription("orders", "eu");
        ManagementResponse created = put(
                "orders/Subscriptions/eu/Rules/typed",
                "<RuleDescription xmlns=\"" + SB
                        + "\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\"><Filter i:type=\"CorrelationFilter\">"
                        + "<Properties>"
                        + property("i", xsd, "int", "5") + property("u", xsd, "unsignedInt", "7")
                        + property("d", xsd, "decimal", "2.50") + property("t", xsd, "dateTime", "2030-01-01T10:00:00Z")
                        + property("local", xsd, "dateTime", "2030-01-01T10:00:00")
                        + property("span", xsd, "duration", "PT1M30S")
                        + property("g", ser, "guid", "00000000-0000-0000-0000-000000000001")
                        + property("c", ser, "char", "65")
                        + "</Properties></Filter><Action i:type=\"EmptyRuleAction\"/></RuleDescription>");
        assertEquals(201, created.status(), created.body());

        Map<String, Object> stored =
                ((CorrelationFilter) namespace.getRule("orders", "eu", "typed").filter()).properties();
        assertEquals(5, stored.get("i"));
        assertEquals(7L, stored.get("u"));
        assertEquals(new BigDecimal("2.50"), stored.get("d"));
        assertEquals(OffsetDateTime.parse("2030-01-01T10:00:00Z"), stored.get("t"));
        assertEquals(OffsetDateTime.parse("2030-01-01T10:00:00Z"), stored.get("local"));
        assertEquals(Duration.ofSeconds(90), stored.get("span"));
        assertEquals(UUID.fromString("00000000-0000-0000-0000-000000000001"), stored.get("g"));
        assertEquals('A', stored.get("c"));
        String body = send("GET", "orders/Subscriptions/eu/Rules/typed", Map.of(), null, null)
                .body();
        for (String fragment : new String[] {
            "d5p1:int\">5<",
            "d5p1:dateTime\">2030-01-01T10:00:00Z<",
            "d5p1:duration\">PT1M30S<",
            "d5p1:guid\">00000000-0000-0000-0000-000000000001<",
            "d5p1:char\">65<",
            "xmlns:d5p1=\"" + ser + "\""
        }) {
            assertTrue(body.contains(fragment), () -> body + " lacks " + fragment);
        }
        assertError(
                put(
                        "orders/Subscriptions/eu/Rules/bad",
                        "<RuleDescription xmlns=\"" + SB
                                + "\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\"><Filter i:type=\"CorrelationFilter\">"
                                + "<Properties>" + property("x", xsd, "QName", "a")
                                + "</Properties></Filter></RuleDescription>"),
                400,
                "xsi:type 'QName'");
    }

    @Test
    @DisplayName("an element the service does not know is a 400 naming it, never ignored")
    void unknownElement() {
        assertError(
                put(
                        "orders",
                        "<QueueDescription xmlns=\"" + SB + "\"><LockDuraton>PT1M</LockDuraton>"
                                + "</QueueDescription>"),
                400,
                "Unknown element");
        assertFalse(namespace.queueExists("orders"));
        assertError(
                put(
                        "orders",
                        "<QueueDescription xmlns=\"" + SB + "\"><MaxDeliveryCount>ten</MaxDeliveryCount>"
                                + "</QueueDescription>"),
                400,
                "QueueDescription.MaxDeliveryCount is not an integer");
        assertError(
                put(
                        "orders",
                        "<QueueDescription xmlns=\"" + SB + "\"><LockDuration>1 minute</LockDuration>"
                                + "</QueueDescription>"),
                400,
                "ISO-8601 duration");
        assertError(
                put(
                        "orders",
                        "<QueueDescription xmlns=\"" + SB + "\"><Status>Sleeping</Status>" + "</QueueDescription>"),
                400,
                "Sleeping");
        // LIM-7: EnableExpress=true is accepted on Standard
        assertEquals(
                201,
                put(
                                "orders",
                                "<QueueDescription xmlns=\"" + SB + "\"><EnableExpress>true</EnableExpress>"
                                        + "</QueueDescription>")
                        .status());
    }

    @Test
    @DisplayName("malformed bodies, documents with a DOCTYPE and foreign roots are 400s")
    void malformed() {
        assertError(send("PUT", "orders", Map.of(), null, "<entry"), 400, "not well-formed XML");
        assertError(
                send(
                        "PUT",
                        "orders",
                        Map.of(),
                        null,
                        "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                                + "<entry xmlns=\"http://www.w3.org/2005/Atom\"/>"),
                400,
                "not well-formed XML");
        assertError(
                send("PUT", "orders", Map.of(), null, "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>"),
                400,
                "Expected an Atom &lt;entry&gt;");
        assertError(put("orders", "<QueueDescription/>"), 400, "Expected a QueueDescription or TopicDescription");
        assertError(send("PUT", "orders", Map.of(), null, null), 400, "no body");
        assertFalse(namespace.queueExists("orders"));
    }

    @Test
    @DisplayName("unknown paths, methods and If-Match values are refused clearly; HTTP-13 unknown query parameters are "
            + "ignored")
    void unknownRequests() {
        namespace.createTopic("t");
        namespace.createSubscription("t", "s");
        assertError(send("GET", "t/Subscriptions/s/Sessions", Map.of(), null, null), 404, "only 'Rules'");
        assertError(send("GET", "$Resources/eventhubs", Map.of(), null, null), 404, "eventhubs");
        assertError(send("POST", "t", Map.of(), null, null), 405, "POST");
        assertError(send("DELETE", "$Resources/queues", Map.of(), null, null), 405, "DELETE");
        assertEquals(200, send("GET", "t", Map.of("$filter", "x"), null, null).status());
        assertError(send("PUT", "t", Map.of(), "\"etag-1\"", null), 400, "If-Match");
        assertError(send("GET", "$Resources/queues", Map.of("$top", "-1"), null, null), 400, "$top");
    }

    @Test
    @DisplayName("session and partitioning cannot change on an existing queue")
    void immutableOnUpdate() {
        put("orders", "<QueueDescription xmlns=\"" + SB + "\"/>");
        ManagementResponse r = send(
                "PUT",
                "orders",
                Map.of(),
                "*",
                "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\"><QueueDescription"
                        + " xmlns=\"" + SB + "\"><RequiresSession>true</RequiresSession></QueueDescription>"
                        + "</content></entry>");
        assertError(r, 400, "The value for the RequiresSession property of an existing Queue cannot be changed");
    }
}
