package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.sdk.EmulatorClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.Decimal128;
import org.apache.qpid.proton.amqp.Decimal32;
import org.apache.qpid.proton.amqp.Decimal64;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedByte;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.UnsignedShort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Behaviour the SDKs' own suites found on the real service (issue 31), through the Java SDK both ways in: the
 * in-process clients ({@link EmulatorClients#of}) and the SDK's own clients over the endpoint
 * ({@link EmulatorClients#connectingTo}). Each test runs once per way ({@code amqp} false, then true).
 */
class ConformanceTest {
    /** The namespaces start at the wall-clock now, as {@link EndpointFixture} explains. */
    private static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    private static final Duration WAIT = Duration.ofSeconds(5);

    private Namespace ns;
    private ServiceBusEmulatorServer server;
    private EmulatorClients clients;

    private void open(boolean amqp) {
        ns = Namespace.builder().startingAt(START).build();
        server = amqp ? ServiceBusEmulatorServer.start(ns) : null;
        clients = amqp ? EmulatorClients.connectingTo(ns, server.getConnectionString()) : EmulatorClients.of(ns);
    }

    @AfterEach
    void close() {
        if (clients != null) {
            clients.close();
        }
        if (server != null) {
            server.close();
        }
        if (ns != null) {
            ns.close();
        }
    }

    private static ServiceBusReceivedMessage one(ServiceBusReceiverClient receiver) {
        return receiver.receiveMessages(1, WAIT).stream().findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("DLQ-6 abandoning a message in the dead-letter queue keeps its delivery count")
    void abandonInTheDeadLetterQueueKeepsTheDeliveryCount(boolean amqp) {
        open(amqp);
        ns.createQueue("q");
        clients.sender("q").sendMessage(new ServiceBusMessage("m"));
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceivedMessage first = one(receiver);
        assertEquals(0, first.getDeliveryCount());
        receiver.abandon(first);
        ServiceBusReceivedMessage second = one(receiver);
        assertEquals(1, second.getDeliveryCount());
        receiver.deadLetter(second);

        ServiceBusReceiverClient dlq =
                clients.receiver(EntityPath.queue("q").deadLetter(), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceivedMessage dead = one(dlq);
        assertEquals(1, dead.getDeliveryCount());
        dlq.abandon(dead, new AbandonOptions().setPropertiesToModify(Map.of("hello", "world")));
        ServiceBusReceivedMessage again = one(dlq);
        assertEquals(1, again.getDeliveryCount(), "the service keeps the count in the dead-letter queue");
        assertEquals("world", again.getApplicationProperties().get("hello"));
        dlq.complete(again);
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName(
            "SES-7 session state cleared with null or an empty array reads back null, as a session never given one")
    void clearedSessionStateReadsNull(boolean amqp) {
        open(amqp);
        ns.createQueue("s", QueueOptions.builder().requiresSession(true).build());
        clients.sender("s").sendMessage(new ServiceBusMessage("m").setSessionId("a"));
        ServiceBusReceiverClient session = clients.sessionReceiver(
                        EntityPath.queue("s"), ServiceBusReceiveMode.PEEK_LOCK)
                .acceptSession("a");
        assertNull(session.getSessionState(), "never set");
        session.setSessionState("hello".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), session.getSessionState());
        session.setSessionState(null);
        assertNull(session.getSessionState(), "cleared with null");
        session.setSessionState("again".getBytes(StandardCharsets.UTF_8));
        session.setSessionState(new byte[0]);
        assertNull(session.getSessionState(), "cleared with an empty array, as the Go SDK sends its nil slice");
        session.close();
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("MSG-4 a message without a body section reaches the Java SDK as an empty body")
    void bodilessMessageReadsEmpty(boolean amqp) {
        open(amqp);
        ns.createQueue("q");
        ns.send(
                "q",
                Message.builder().messageId("bodiless").body(MessageBody.ABSENT).build());
        ServiceBusReceivedMessage got =
                one(clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.RECEIVE_AND_DELETE));
        assertEquals("bodiless", got.getMessageId());
        assertEquals(0, got.getBody().toBytes().length);
    }

    /** One application property of every AMQP type a property can carry, as proton-j represents them. */
    static Map<String, Object> everyAmqpType() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("decimal32", new Decimal32(0x3040_0001));
        p.put("decimal64", new Decimal64(0x3180_0000_0000_0007L));
        p.put("decimal128", new Decimal128(0x3040_0000_0000_0000L, 12345L));
        p.put("char", 'x');
        p.put("timestamp", new Date(1_893_456_000_123L));
        p.put("uuid", UUID.fromString("0b7d4a1e-7d0a-4f4e-9d3c-0a1b2c3d4e5f"));
        p.put("binary", new Binary(new byte[] {1, 2, 3}));
        p.put("symbol", Symbol.valueOf("sym"));
        p.put("byte", (byte) -5);
        p.put("short", (short) -300);
        p.put("int", -70_000);
        p.put("long", -5_000_000_000L);
        p.put("ubyte", UnsignedByte.valueOf((byte) 200));
        p.put("ushort", UnsignedShort.valueOf((short) 60_000));
        p.put("uint", UnsignedInteger.valueOf(4_000_000_000L));
        p.put("ulong", UnsignedLong.valueOf("18000000000000000000"));
        p.put("float", 1.5f);
        p.put("double", 2.25d);
        p.put("boolean", true);
        p.put("string", "text");
        p.put("null", null);
        return p;
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("MSG-5 application properties of every AMQP type round-trip exactly (decimal, char, timestamp, ...)")
    void everyAmqpTypeRoundTrips(boolean amqp) {
        open(amqp);
        ns.createQueue("q");
        ServiceBusMessage sent = new ServiceBusMessage("typed");
        sent.getApplicationProperties().putAll(everyAmqpType());
        clients.sender("q").sendMessage(sent);
        clients.sender("q").sendMessages(List.of(sent));
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        assertEveryAmqpType(receiver.peekMessage(), "peeked");
        ServiceBusReceivedMessage got = one(receiver);
        assertEveryAmqpType(got, "received");
        receiver.defer(got);
        assertEveryAmqpType(receiver.receiveDeferredMessage(got.getSequenceNumber()), "deferred");
        assertEveryAmqpType(one(receiver), "sent in a batch");
    }

    private static void assertEveryAmqpType(ServiceBusReceivedMessage got, String how) {
        Map<String, Object> expected = everyAmqpType();
        assertEquals(expected.keySet(), got.getApplicationProperties().keySet(), how);
        expected.forEach((name, value) -> {
            Object actual = got.getApplicationProperties().get(name);
            assertEquals(value, actual, how + ": " + name);
            if (value != null) {
                assertEquals(value.getClass(), actual.getClass(), how + ": " + name);
            }
        });
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("MSG-5 RUL-6 HTTP-6 decimal properties are compared by their number in SQL filters, come back with"
            + " their bits and are listed with their value by the control API, as timestamps and binary are")
    void decimalProperties(boolean amqp) throws Exception {
        open(amqp);
        ns.createTopic("t");
        ns.createSubscription("t", "cheap", SubscriptionOptions.defaults(), List.of(sql("cheap", "price < 1.4")));
        ns.createSubscription("t", "exact", SubscriptionOptions.defaults(), List.of(sql("exact", "price = 1.5")));
        ns.createSubscription("t", "big", SubscriptionOptions.defaults(), List.of(sql("big", "total > 12.3")));
        // 1.5 as a decimal64 and the .NET SDK's System.Decimal 12.345 as a decimal128 (BID: exponent, coefficient)
        Decimal64 price = new Decimal64((397L << 53) | 15);
        Decimal128 total = new Decimal128((6176L - 3) << 49, 12_345);
        ServiceBusMessage sent = new ServiceBusMessage("priced");
        sent.getApplicationProperties().put("price", price);
        sent.getApplicationProperties().put("total", total);
        sent.getApplicationProperties().put("when", new Date(1_893_456_000_123L));
        sent.getApplicationProperties().put("bytes", new Binary(new byte[] {1, 2, 3}));
        clients.sender("t").sendMessage(sent);

        assertEquals(0, ns.runtimeInfo(EntityPath.subscription("t", "cheap")).activeMessageCount());
        assertEquals(1, ns.runtimeInfo(EntityPath.subscription("t", "exact")).activeMessageCount());
        assertEquals(1, ns.runtimeInfo(EntityPath.subscription("t", "big")).activeMessageCount());
        if (amqp) {
            String listed = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(
                                            server.httpUrl() + "/__admin/messages?entity=t" + "&subscription=exact"))
                                    .timeout(Duration.ofSeconds(30))
                                    .header("Authorization", server.controlAuthorization())
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertTrue(listed.contains("\"price\":1.5"), listed);
            assertTrue(listed.contains("\"total\":12.345"), listed);
            // the other types a property can carry, with their values: a timestamp as its instant, binary as base64
            assertTrue(listed.contains("\"when\":\"2030-01-01T00:00:00.123Z\""), listed);
            assertTrue(listed.contains("\"bytes\":\"AQID\""), listed);
        }
        ServiceBusReceivedMessage got =
                one(clients.receiver(EntityPath.subscription("t", "exact"), ServiceBusReceiveMode.RECEIVE_AND_DELETE));
        assertEquals(price, got.getApplicationProperties().get("price"));
        assertEquals(total, got.getApplicationProperties().get("total"));
    }

    private static RuleDescription sql(String name, String expression) {
        return new RuleDescription(name, SqlFilter.parse(expression), null);
    }

    @ParameterizedTest(name = "over AMQP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("DLQ-7 a receive by sequence numbers of which one is gone fails whole: the SDK gets nothing, the "
            + "deferred message stays")
    void receiveByGoneSequenceNumberFails(boolean amqp) {
        open(amqp);
        ns.createQueue("q");
        clients.sender("q").sendMessage(new ServiceBusMessage("kept"));
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        ServiceBusReceivedMessage m = one(receiver);
        receiver.defer(m);
        long deferred = m.getSequenceNumber();

        // the Java SDK reads the service's 404 com.microsoft:message-not-found as an empty answer
        assertEquals(
                List.of(),
                receiver.receiveDeferredMessageBatch(List.of(deferred, 999L)).stream()
                        .toList());
        assertEquals(1, ns.runtimeInfo(EntityPath.queue("q")).deferredMessageCount(), "nothing was taken");
        // a single one: the SDK takes last() of the empty answer, which fails
        ServiceBusException single =
                assertThrows(ServiceBusException.class, () -> receiver.receiveDeferredMessage(999L));
        boolean noElement = false;
        for (Throwable t = single; t != null; t = t.getCause()) {
            noElement |= t instanceof NoSuchElementException;
        }
        assertTrue(noElement, () -> "expected the empty answer's NoSuchElementException, got " + single);

        ServiceBusReceivedMessage again = receiver.receiveDeferredMessage(deferred);
        assertEquals("kept", again.getBody().toString());
        receiver.complete(again);
    }
}
