package dev.sbemu.amqp.internal.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.TokenRequestContext;
import com.azure.messaging.servicebus.implementation.ServiceBusSharedKeyCredential;
import dev.sbemu.amqp.internal.link.DotNetGuid;
import dev.sbemu.amqp.internal.link.EntityAddress;
import dev.sbemu.amqp.internal.link.HeldSessions;
import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.SessionLock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The request-response nodes and wire helpers, without a socket. */
class NodesTest {
    private final Namespace namespace = Namespace.create();
    private final ServedNamespace served = new ServedNamespace(namespace);
    private final Transactions transactions = new Transactions(served, 1_000);
    private final HeldSessions heldSessions = new HeldSessions();

    @AfterEach
    void close() {
        transactions.endAll(null);
        heldSessions.releaseAll(namespace);
    }

    private static Message request(String operation, Object body) {
        Message m = Proton.message();
        m.setApplicationProperties(new ApplicationProperties(Map.of("operation", operation)));
        m.setBody(new AmqpValue(body));
        return m;
    }

    @Test
    @DisplayName("SES-9 get-message-sessions lists the sessions with messages or a state, or those whose state was"
            + " set after a time, paged by skip and top")
    void getMessageSessions() {
        namespace.createQueue(
                "s", dev.sbemu.core.QueueOptions.builder().requiresSession(true).build());
        for (String id : List.of("a", "b", "c")) {
            namespace.send(
                    "s",
                    dev.sbemu.core.Message.ofText(id).toBuilder().sessionId(id).build());
        }
        Instant before = namespace.clock().instant();
        namespace.clock().advance(Duration.ofMinutes(1));
        SessionLock stateOnly = namespace.acceptSession(EntityPath.queue("s"), "state-only", java.time.Duration.ZERO);
        namespace.setSessionState(stateOnly, new byte[] {1});
        namespace.releaseSession(stateOnly);
        ManagementNode node =
                new ManagementNode(served, transactions, heldSessions, EntityPath.queue("s"), right -> null);
        Date maxValue = new Date(253402300800000L);

        assertEquals(
                List.of("a", "b", "c", "state-only"), sessions(node.handle(sessionsRequest(maxValue, 0, 100), null)));
        assertEquals(List.of("b", "c"), sessions(node.handle(sessionsRequest(maxValue, 1, 2), null)));
        assertEquals(List.of("state-only"), sessions(node.handle(sessionsRequest(Date.from(before), 0, 100), null)));
        RequestLink.Response none = node.handle(
                sessionsRequest(Date.from(namespace.clock().instant().plusSeconds(3600)), 0, 100), null);
        assertEquals(204, none.status());
    }

    private static Message sessionsRequest(Date lastUpdated, int skip, int top) {
        return request(
                "com.microsoft:get-message-sessions",
                Map.of("last-updated-time", lastUpdated, "skip", skip, "top", top));
    }

    private static List<String> sessions(RequestLink.Response response) {
        assertEquals(200, response.status());
        Map<?, ?> body = (Map<?, ?>) ((AmqpValue) response.body()).getValue();
        return List.of((String[]) body.get("sessions-ids"));
    }

    @Test
    @DisplayName("AMQP-14 an unknown management operation is amqp:not-implemented, status 501")
    void unknownManagementOperation() {
        namespace.createQueue("orders");
        RequestLink.Response r = new ManagementNode(
                        served, transactions, heldSessions, EntityPath.queue("orders"), right -> null)
                .handle(request("com.microsoft:make-coffee", Map.of()), null);
        assertEquals(501, r.status());
        assertEquals("amqp:not-implemented", r.condition());
        assertTrue(r.description().contains("com.microsoft:make-coffee"));
    }

    @Test
    @DisplayName(
            "AMQP-19 a malformed $management body is a typed bad request (400, amqp:decode-error), not an NPE or a ClassCastException reported as argument-error")
    void malformedManagementBody() {
        namespace.createQueue("orders");
        ManagementNode node =
                new ManagementNode(served, transactions, heldSessions, EntityPath.queue("orders"), right -> null);
        RequestLink.Response missing =
                node.handle(request("com.microsoft:peek-message", Map.of("message-count", 1)), null);
        assertEquals(400, missing.status());
        assertEquals("amqp:decode-error", missing.condition());
        RequestLink.Response wrongType = node.handle(
                request("com.microsoft:peek-message", Map.of("from-sequence-number", "one", "message-count", 1)), null);
        assertEquals(400, wrongType.status());
        assertEquals("amqp:decode-error", wrongType.condition());
        RequestLink.Response notAMap =
                node.handle(request("com.microsoft:schedule-message", Map.of("messages", List.of("not a map"))), null);
        assertEquals(400, notAMap.status());
        assertEquals("amqp:decode-error", notAMap.condition());
    }

    @Test
    @DisplayName("AMQP-19 a broker failure that is no client mistake is an internal error, not argument-error")
    void ownFailuresAreInternal() {
        assertEquals(
                "amqp:internal-error",
                AmqpErrors.of(new NullPointerException("ours")).getCondition().toString());
        assertEquals(
                "amqp:internal-error",
                AmqpErrors.of(new ClassCastException("ours")).getCondition().toString());
        assertEquals(
                "amqp:resource-limit-exceeded",
                AmqpErrors.of(new RejectedExecutionException()).getCondition().toString());
    }

    @Test
    @DisplayName("SEC-2 a token for an entity's $management node (the JavaScript SDK's management audience) covers the "
            + "entity; one for its dead-letter queue covers only that")
    void managementNodeTokenCoversItsEntity() {
        Credentials credentials = new Credentials("RootManageSharedAccessKey", "secret", false);
        Function<String, Credentials.Grant> grant = audience -> credentials
                .token(
                        List.of(),
                        new ServiceBusSharedKeyCredential("RootManageSharedAccessKey", "secret", Duration.ofHours(1))
                                .getToken(new TokenRequestContext().addScopes(audience))
                                .block()
                                .getToken(),
                        System.currentTimeMillis())
                .grant();
        Credentials.Grant management = grant.apply("amqp://127.0.0.1/scheduled/$management");
        assertTrue(management.reaches("scheduled"));
        assertTrue(management.reaches("scheduled/$management"));
        assertFalse(management.reaches("other"));
        Credentials.Grant deadLetters = grant.apply("amqp://127.0.0.1/orders/$deadletterqueue");
        assertTrue(deadLetters.reaches("orders/$deadletterqueue"));
        assertFalse(deadLetters.reaches("orders"));
    }

    @Test
    @DisplayName("AMQP-9 tokens: the SDK's own signature is accepted; another key, another key name, expiry refused")
    void tokens() {
        Credentials credentials = new Credentials("RootManageSharedAccessKey", "secret", false);
        Function<Object, String> refusal = token ->
                credentials.token(List.of(), token, System.currentTimeMillis()).refusal();
        String audience = "amqp://127.0.0.1/orders";
        String good = new ServiceBusSharedKeyCredential("RootManageSharedAccessKey", "secret", Duration.ofHours(1))
                .getToken(new TokenRequestContext().addScopes(audience))
                .block()
                .getToken();
        assertNull(refusal.apply(good));
        String otherKey = new ServiceBusSharedKeyCredential("RootManageSharedAccessKey", "guess", Duration.ofHours(1))
                .getToken(new TokenRequestContext().addScopes(audience))
                .block()
                .getToken();
        assertTrue(refusal.apply(otherKey).contains("signature does not match"));
        String otherName = new ServiceBusSharedKeyCredential("Listen", "secret", Duration.ofHours(1))
                .getToken(new TokenRequestContext().addScopes(audience))
                .block()
                .getToken();
        assertTrue(refusal.apply(otherName).contains("key name"));
        String expired = good.replaceAll("se=\\d+", "se=1000");
        assertTrue(refusal.apply(expired).startsWith("ExpiredToken"));
        assertTrue(refusal.apply("Bearer abc").startsWith("InvalidSignature"));
        assertTrue(refusal.apply(42).startsWith("InvalidSignature"));
    }

    @Test
    @DisplayName("AMQP-1 lock tokens travel in .NET GUID byte order")
    void dotNetGuid() {
        UUID id = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
        byte[] bytes = DotNetGuid.toBytes(id);
        assertEquals(0x33, bytes[0]);
        assertEquals(0x00, bytes[3]);
        assertEquals(0x55, bytes[4]);
        assertEquals(0x77, bytes[6]);
        assertEquals((byte) 0x88, bytes[8]);
        assertEquals(id, DotNetGuid.fromBytes(bytes));
        assertNull(DotNetGuid.fromBytes(new byte[3]));
    }

    @Test
    @DisplayName("AMQP-8 addresses: queues, subscriptions, sub-queues, case-insensitive keywords, with a host")
    void addresses() {
        assertEquals(EntityPath.queue("orders"), EntityAddress.parse("orders"));
        assertEquals(EntityPath.queue("a/b"), EntityAddress.parse("a/b"));
        assertEquals(EntityPath.subscription("events", "audit"), EntityAddress.parse("events/Subscriptions/audit"));
        assertEquals(
                EntityPath.queue("orders").withSubQueue(EntityPath.Part.DEAD_LETTER_QUEUE),
                EntityAddress.parse("orders/$DeadLetterQueue"));
        assertEquals(
                EntityPath.subscription("events", "audit").withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE),
                EntityAddress.parse("events/subscriptions/audit/$Transfer/$deadletterqueue"));
        assertEquals(EntityPath.queue("orders"), EntityAddress.parse("amqp://127.0.0.1:5672/orders"));
    }
}
