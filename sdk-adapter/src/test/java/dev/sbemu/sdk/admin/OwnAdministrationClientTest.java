package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.TokenRequestContext;
import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationAsyncClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.implementation.ServiceBusSharedKeyCredential;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.AdministrationClients;
import dev.sbemu.sdk.internal.admin.LoopbackAdministrationProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The application's own administration client, built from a development-emulator connection string with the SDK's
 * ordinary builder and no transport of its own, reaches the namespace registered for that connection string's key
 * (spec ADM-1..ADM-3).
 */
class OwnAdministrationClientTest {
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /** Application code: builds its own administration client from the connection string it is configured with. */
    static final class QueueStats {
        private final ServiceBusAdministrationClient admin;

        QueueStats(String connectionString, HttpPipelinePolicy... policies) {
            ServiceBusAdministrationClientBuilder builder =
                    new ServiceBusAdministrationClientBuilder().connectionString(connectionString);
            for (HttpPipelinePolicy policy : policies) {
                builder.addPolicy(policy);
            }
            admin = builder.buildClient();
        }

        void ensureQueue(String name) {
            if (!admin.getQueueExists(name)) {
                admin.createQueue(name);
            }
        }

        long activeMessages(String queue) {
            return admin.getQueueRuntimeProperties(queue).getActiveMessageCount();
        }
    }

    private Namespace namespace() {
        Namespace namespace = Namespace.create();
        closing.add(namespace);
        return namespace;
    }

    /** A connection string as an endpoint hands out, with a key of its own, routed to {@code namespace}. */
    private String served(Namespace namespace, int port) {
        String key = UUID.randomUUID().toString();
        AdministrationClients.Registration registration =
                AdministrationClients.routeConnectionString(() -> namespace, "RootManageSharedAccessKey", key);
        closing.add(registration);
        assertTrue(registration.active(), "the test JVM has instrumentation");
        return connectionString(port, key);
    }

    private static String connectionString(int port, String key) {
        return "Endpoint=sb://127.0.0.1:" + port + ";SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey="
                + key + ";UseDevelopmentEmulator=true;";
    }

    @Test
    @DisplayName("ADM-1 the application's own administration client reaches the namespace of its connection string")
    void ownClientReachesTheNamespace() {
        Namespace namespace = namespace();
        namespace.createQueue("orders");
        namespace.send("orders", Message.ofText("order-42"));
        QueueStats stats = new QueueStats(served(namespace, 40123));

        stats.ensureQueue("invoices");

        assertTrue(namespace.queueExists("invoices"));
        assertEquals(1, stats.activeMessages("orders"));
    }

    @Test
    @DisplayName("ADM-1 the asynchronous client built by the application is routed too")
    void asyncClientIsRouted() {
        Namespace namespace = namespace();
        ServiceBusAdministrationAsyncClient admin = new ServiceBusAdministrationClientBuilder()
                .connectionString(served(namespace, 40124))
                .buildAsyncClient();

        admin.createTopic("events").block(Duration.ofSeconds(10));

        assertTrue(namespace.topicExists("events"));
    }

    @Test
    @DisplayName("ADM-1 two registrations in one JVM: each connection string reaches its own namespace")
    void twoEndpointsEachReachTheirOwn() {
        Namespace first = namespace();
        Namespace second = namespace();
        QueueStats toFirst = new QueueStats(served(first, 40125));
        QueueStats toSecond = new QueueStats(served(second, 40126));

        toFirst.ensureQueue("first-only");
        toSecond.ensureQueue("second-only");

        assertTrue(first.queueExists("first-only"));
        assertFalse(first.queueExists("second-only"));
        assertTrue(second.queueExists("second-only"));
        assertFalse(second.queueExists("first-only"));
    }

    @Test
    @DisplayName("ADM-2 a loopback connection string no live registration signed fails at once, saying why")
    void unknownKeyFailsAtOnce() {
        served(namespace(), 40127); // another endpoint is live; its key is not this one
        AtomicInteger attempts = new AtomicInteger();
        // counts each try of a request (a per-retry policy): "at once" is one try, not a time that a loaded machine
        // could exceed
        HttpPipelinePolicy countTries = (context, next) -> {
            attempts.incrementAndGet();
            return next.process();
        };
        QueueStats stats = new QueueStats(connectionString(40128, "not-the-key-of-any-endpoint"), countTries);

        ClientAuthenticationException e =
                assertThrows(ClientAuthenticationException.class, () -> stats.ensureQueue("orders"));

        assertEquals(401, e.getResponse().getStatusCode());
        assertTrue(e.getMessage().contains("no ServiceBusEmulatorServer running in this JVM"), e.getMessage());
        assertTrue(e.getMessage().contains("server.getConnectionString()"), e.getMessage());
        assertEquals(1, attempts.get(), "not retried");
    }

    @Test
    @DisplayName("ADM-2 a closed registration no longer routes its connection string")
    void closedRegistrationNoLongerRoutes() throws Exception {
        Namespace namespace = namespace();
        String connectionString = served(namespace, 40129);
        closing.remove(closing.size() - 1).close();

        ClientAuthenticationException e = assertThrows(
                ClientAuthenticationException.class, () -> new QueueStats(connectionString).ensureQueue("orders"));
        assertTrue(e.getMessage().contains("already closed"), e.getMessage());
        assertFalse(namespace.queueExists("orders"));
    }

    @Test
    @DisplayName("ADM-3 a request for any other host passes through to the client azure-core made, untouched")
    void otherHostsPassThrough() {
        served(namespace(), 40130);
        HttpClient client = HttpClient.createDefault();
        assertTrue(LoopbackAdministrationProbe.isRouting(client), "createDefault's client is wrapped: " + client);

        // a real namespace's request, signed by the SDK's credential with a key of its own
        HttpRequest real = signedRequest("https://contoso.servicebus.windows.net/orders?api-version=2021-05");
        // Azurite-style and explicit-port loopback requests
        HttpRequest azurite = new HttpRequest(HttpMethod.GET, "http://127.0.0.1:10000/devstoreaccount1/c");
        HttpRequest explicitPort = signedRequest("http://127.0.0.1:5300/orders?api-version=2021-05");

        assertTrue(LoopbackAdministrationProbe.passesThrough(real));
        assertTrue(LoopbackAdministrationProbe.passesThrough(azurite));
        assertTrue(LoopbackAdministrationProbe.passesThrough(explicitPort));
        assertFalse(LoopbackAdministrationProbe.passesThrough(
                signedRequest("https://127.0.0.1/orders?api-version=2021-05")));
    }

    /** A request carrying a SharedAccessSignature made with a key no registration has. */
    private static HttpRequest signedRequest(String url) {
        HttpRequest request = new HttpRequest(HttpMethod.GET, url);
        String token = new ServiceBusSharedKeyCredential(
                        "RootManageSharedAccessKey", "a-real-namespace-key", Duration.ofHours(1))
                .getToken(new TokenRequestContext().addScopes(url))
                .block()
                .getToken();
        request.getHeaders().set(HttpHeaderName.AUTHORIZATION, token);
        return request;
    }
}
