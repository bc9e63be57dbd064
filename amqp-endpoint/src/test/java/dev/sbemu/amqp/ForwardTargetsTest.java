package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.CreateSubscriptionOptions;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.wire.ManagementHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forwarding targets given as URLs over the endpoint's HTTP side, as each SDK writes them: the Java SDK's
 * {@code https://<host>/<name>} (its endpoint's host, no port), the Go SDK tests' {@code https://<host>:<port>/<name>}
 * and {@code sb://<host>:<port>/<name>}, the Python SDK's {@code sb://<namespace>/<name>}; over the AMQP port, which
 * serves HTTP too, as the Go conformance suite reaches it.
 */
class ForwardTargetsTest {
    private static final String KEY = "forward-key";
    private static final String SB = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect";

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.sharedAccessKey(KEY));

    private final HttpClient http = HttpClient.newHttpClient();
    private Namespace namespace;
    private ServiceBusEmulatorServer server;

    @BeforeEach
    void targets(Namespace namespace, ServiceBusEmulatorServer server) {
        this.namespace = namespace;
        this.server = server;
        namespace.createQueue("target");
        namespace.createTopic("events");
    }

    private ServiceBusAdministrationClient admin() {
        return new ServiceBusAdministrationClientBuilder()
                .connectionString(server.getConnectionString())
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
    }

    @Test
    @DisplayName("FWD-5 the Java SDK's https://<host>/<name> (its endpoint's host without the port) over HTTP is"
            + " accepted for a queue and a subscription and reported back as the namespace's URL")
    void javaSdkOverHttp() {
        ServiceBusAdministrationClient admin = admin();
        admin.createQueue(
                "source", new CreateQueueOptions().setForwardTo("target").setForwardDeadLetteredMessagesTo("target"));
        admin.createSubscription(
                "events", "s", new CreateSubscriptionOptions().setForwardDeadLetteredMessagesTo("target"));

        assertEquals("target", namespace.getQueue("source").forwardTo());
        assertEquals("target", namespace.getQueue("source").forwardDeadLetteredMessagesTo());
        assertEquals("target", namespace.getSubscription("events", "s").forwardDeadLetteredMessagesTo());
        String reported = admin.getQueue("source").getForwardTo();
        assertTrue(reported.startsWith("https://") && reported.endsWith("/target"), reported);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://127.0.0.1:%d/target", "sb://127.0.0.1:%d/target", "sb://127.0.0.1/target"})
    @DisplayName("FWD-5 a target URL with or without the port the client addressed the server by (the Go SDK's"
            + " tests send both schemes with the port) names the entity of the request's namespace and is reported"
            + " back as given")
    void goSdkUrlsWithThePort(String format) throws Exception {
        String url = format.formatted(server.port());
        HttpResponse<String> r = send("PUT", null, "source", queueWithForwardTo(url));

        assertEquals(201, r.statusCode(), r.body());
        assertEquals("target", namespace.getQueue("source").forwardTo());
        assertTrue(r.body().contains("<ForwardTo>" + url + "</ForwardTo>"), r.body());
        HttpResponse<String> read = send("GET", null, "source", null);
        assertTrue(read.body().contains("<ForwardTo>" + url + "</ForwardTo>"), read.body());
    }

    @Test
    @DisplayName("FWD-5 a subscription reports its targets as given; after a delete and a new create with a plain"
            + " name, as the namespace's https URL")
    void subscriptionReportsAsGiven() throws Exception {
        String url = "sb://127.0.0.1:" + server.port() + "/target";
        String description = "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">"
                + "<SubscriptionDescription xmlns=\"" + SB + "\"><ForwardTo>" + url + "</ForwardTo>"
                + "<ForwardDeadLetteredMessagesTo>" + url + "</ForwardDeadLetteredMessagesTo>"
                + "</SubscriptionDescription></content></entry>";
        assertEquals(
                201, send("PUT", null, "events/Subscriptions/s", description).statusCode());

        String read = send("GET", null, "events/Subscriptions/s", null).body();
        assertTrue(read.contains("<ForwardTo>" + url + "</ForwardTo>"), read);
        assertTrue(read.contains("<ForwardDeadLetteredMessagesTo>" + url + "</ForwardDeadLetteredMessagesTo>"), read);

        assertEquals(200, send("DELETE", null, "events/Subscriptions/s", null).statusCode());
        assertEquals(
                201,
                send("PUT", null, "events/Subscriptions/s", description.replace(url, "target"))
                        .statusCode());
        String again = send("GET", null, "events/Subscriptions/s", null).body();
        assertFalse(again.contains(url), again);
        assertTrue(again.contains("/target</ForwardTo>"), again);
    }

    @Test
    @DisplayName("FWD-5 a host other than the ones the request reached the server by is another namespace: 400 naming"
            + " the value")
    void foreignHostRefused() throws Exception {
        HttpResponse<String> r =
                send("PUT", null, "source", queueWithForwardTo("sb://elsewhere.servicebus.windows.net/target"));

        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("sb://elsewhere.servicebus.windows.net/target"), r.body());
        assertTrue(r.body().contains("points outside this namespace"), r.body());
        assertFalse(namespace.queueExists("source"));
    }

    @Test
    @DisplayName("FWD-5 NS-2 NS-4 behind a mapped port (a container's 5672 reached as localhost:32768) the Host header"
            + " names the namespace, whatever the server knows itself as")
    void mappedPortHost() {
        ManagementHandler handler = ManagementHandler.of(namespace, "127.0.0.1:5672");
        ManagementHandler.Response r = handler.handle(
                "PUT",
                "/source",
                "api-version=2021-05",
                null,
                queueWithForwardTo("sb://localhost:32768/target"),
                "localhost:32768");

        assertEquals(201, r.status(), r.body());
        assertEquals("target", namespace.getQueue("source").forwardTo());
        ManagementHandler.Response other = handler.handle(
                "PUT",
                "/other",
                "api-version=2021-05",
                null,
                queueWithForwardTo("sb://team-b.localhost:32768/target"),
                "localhost:32768");
        assertEquals(400, other.status(), other.body());
    }

    @Test
    @DisplayName("FWD-5 a spelling over 1,024 characters (a long Host) is not kept: the target is reported in the"
            + " namespace's form")
    void longSpellingNotKept() {
        String host = "h".repeat(2_000) + ".localhost:32768";
        ManagementHandler handler = ManagementHandler.of(namespace, "127.0.0.1:5672");
        ManagementHandler.Response r = handler.handle(
                "PUT", "/source", "api-version=2021-05", null, queueWithForwardTo("sb://" + host + "/target"), host);

        assertEquals(201, r.status(), r.body());
        assertTrue(r.body().contains("<ForwardTo>https://127.0.0.1:5672/target</ForwardTo>"), r.body());
    }

    @Test
    @DisplayName("FWD-5 NS-2 in a namespace chosen by the key name, a target URL on the server's host names that"
            + " namespace's entity, never the default namespace's")
    void namespaceChosenByKeyName() throws Exception {
        Namespace teamB = server.addNamespace("team-b", NamespaceSettings.defaults());
        String url = "sb://127.0.0.1:" + server.port() + "/target";

        HttpResponse<String> missing = send("PUT", "team-b", "source", queueWithForwardTo(url));
        assertEquals(400, missing.statusCode(), missing.body());
        assertTrue(missing.body().contains("target"), missing.body());
        assertFalse(namespace.queueExists("source"), "nothing is created in the default namespace");

        teamB.createQueue("target");
        HttpResponse<String> created = send("PUT", "team-b", "source", queueWithForwardTo(url));
        assertEquals(201, created.statusCode(), created.body());
        assertEquals("target", teamB.getQueue("source").forwardTo());
    }

    private static String queueWithForwardTo(String url) {
        return "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">"
                + "<QueueDescription xmlns=\"" + SB + "\"><ForwardTo>" + url + "</ForwardTo></QueueDescription>"
                + "</content></entry>";
    }

    /** A request signed with the root key of {@code namespaceName}'s policy (null: the default namespace). */
    private HttpResponse<String> send(String method, String namespaceName, String path, String body) throws Exception {
        String keyName = namespaceName == null
                ? ServiceBusEmulatorServer.KEY_NAME
                : namespaceName + "/" + ServiceBusEmulatorServer.KEY_NAME;
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/" + path + "?api-version=2021-05"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", HttpEndpointTest.token(keyName, KEY))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
