package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpRequest;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.CreateSubscriptionOptions;
import com.azure.messaging.servicebus.administration.models.CreateTopicOptions;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import com.azure.messaging.servicebus.administration.models.QueueRuntimeProperties;
import com.azure.messaging.servicebus.administration.models.SubscriptionProperties;
import com.azure.messaging.servicebus.administration.models.TopicProperties;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.AdministrationClients;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Management behaviour the SDKs' own suites found on the real service (issue 31), through the Java SDK's
 * administration client both ways in: in process ({@link AdministrationClients#sync}) and over the endpoint's real
 * HTTP side ({@link ServiceBusEmulatorServer#administrationHttpPolicy()}). Each test runs once per way.
 */
class ConformanceAdministrationTest {
    private static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    private Namespace ns;
    private ServiceBusEmulatorServer server;
    private ServiceBusAdministrationClient admin;

    private void open(boolean http) {
        ns = Namespace.builder().startingAt(START).build();
        admin = builder(http).buildClient();
    }

    private ServiceBusAdministrationClientBuilder builder(boolean http) {
        if (!http) {
            return AdministrationClients.builder(ns);
        }
        if (server == null) {
            server = ServiceBusEmulatorServer.start(ns);
        }
        return new ServiceBusAdministrationClientBuilder()
                .connectionString(server.getConnectionString())
                .addPolicy(server.administrationHttpPolicy());
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

    private static void assertRefused(Executable call, String serviceWords) {
        HttpResponseException e = assertThrows(HttpResponseException.class, call);
        assertEquals(400, e.getResponse().getStatusCode(), e.getMessage());
        assertTrue(
                e.getMessage().contains(serviceWords), () -> "'" + e.getMessage() + "' lacks '" + serviceWords + "'");
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("LIM-5 changing an immutable property is refused in the service's words")
    void immutablePropertiesAreRefusedInTheServicesWords(boolean http) {
        open(http);
        admin.createQueue("q");
        admin.createTopic("t");
        admin.createSubscription("t", "s");
        // The SDK's models cannot change these properties, so the changed descriptions are read from a namespace
        // whose entities of the same names have them set the other way.
        try (Namespace other = Namespace.create()) {
            ServiceBusAdministrationClient otherAdmin = AdministrationClients.sync(other);
            QueueProperties sessionQueue =
                    otherAdmin.createQueue("q", new CreateQueueOptions().setSessionRequired(true));
            TopicProperties partitionedTopic =
                    otherAdmin.createTopic("t", new CreateTopicOptions().setPartitioningEnabled(true));
            SubscriptionProperties sessionSubscription =
                    otherAdmin.createSubscription("t", "s", new CreateSubscriptionOptions().setSessionRequired(true));

            assertRefused(
                    () -> admin.updateQueue(sessionQueue),
                    "The value for the RequiresSession property of an existing Queue cannot be changed");
            assertRefused(() -> admin.updateTopic(partitionedTopic), "Partitioning cannot be changed for Topic. ");
            assertRefused(
                    () -> admin.updateSubscription(sessionSubscription),
                    "The value for the RequiresSession property of an existing Subscription cannot be changed");
        }
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("LIM-6 a partitioned Standard entity reports the size of its 16 partitions together")
    void partitionedMaxSizeIsReportedForAllPartitions(boolean http) {
        open(http);
        QueueProperties created = admin.createQueue(
                "pq", new CreateQueueOptions().setPartitioningEnabled(true).setMaxSizeInMegabytes(4096));
        assertEquals(65536, created.getMaxSizeInMegabytes());
        assertEquals(65536, admin.getQueue("pq").getMaxSizeInMegabytes());
        assertEquals(4096, ns.getQueue("pq").maxSizeInMegabytes(), "each partition's size is kept");
        QueueProperties updated = admin.updateQueue(admin.getQueue("pq").setUserMetadata("round trip"));
        assertEquals(65536, updated.getMaxSizeInMegabytes(), "sending back what was read leaves the size");
        assertEquals(65536, admin.getQueue("pq").getMaxSizeInMegabytes());

        TopicProperties topic = admin.createTopic(
                "pt", new CreateTopicOptions().setPartitioningEnabled(true).setMaxSizeInMegabytes(2048));
        assertEquals(32768, topic.getMaxSizeInMegabytes());
        assertEquals(32768, admin.updateTopic(admin.getTopic("pt")).getMaxSizeInMegabytes());

        assertEquals(
                4096,
                admin.createQueue("q", new CreateQueueOptions().setMaxSizeInMegabytes(4096))
                        .getMaxSizeInMegabytes(),
                "an entity that is not partitioned reports its size");
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("ADI-6 accessedAt of a queue or topic nobody used is the zero time, also after an update (a "
            + "subscription's is its creation); a send sets it")
    void accessedAtOfAnUnusedEntityIsTheZeroTime(boolean http) {
        open(http);
        OffsetDateTime zero = OffsetDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        admin.createQueue("q");
        admin.createTopic("t");
        admin.createSubscription("t", "s");
        ns.clock().advance(Duration.ofMinutes(1));
        admin.updateQueue(admin.getQueue("q").setUserMetadata("updated"));

        QueueRuntimeProperties queue = admin.getQueueRuntimeProperties("q");
        assertEquals(zero, queue.getAccessedAt());
        assertEquals(START, queue.getCreatedAt().toInstant());
        assertEquals(START.plus(Duration.ofMinutes(1)), queue.getUpdatedAt().toInstant());
        // a subscription reports its creation as its first access, as the service lists a fresh one
        assertEquals(
                START,
                admin.getSubscriptionRuntimeProperties("t", "s").getAccessedAt().toInstant());

        ns.clock().advance(Duration.ofMinutes(1));
        ns.send("q", Message.ofText("m"));
        assertEquals(
                START.plus(Duration.ofMinutes(2)),
                admin.getQueueRuntimeProperties("q").getAccessedAt().toInstant());
    }

    @ParameterizedTest(name = "over HTTP: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("HTTP-13 unknown query parameters are ignored: the Go SDK's subscription pager's '??&$top=' lists")
    void unknownQueryParametersAreIgnored(boolean http) {
        open(http);
        admin.createTopic("t");
        admin.createSubscription("t", "a");
        admin.createSubscription("t", "b");
        // The Go SDK (azservicebus v1.11.0) asks for "/t/Subscriptions??&$skip=..&$top=..": a parameter named "?".
        ServiceBusAdministrationClient likeGo = builder(http)
                .addPolicy((context, next) -> {
                    HttpRequest request = context.getHttpRequest();
                    String url = request.getUrl().toString();
                    int q = url.indexOf('?');
                    request.setUrl(url.substring(0, q) + "??&" + url.substring(q + 1) + "&unknown=1");
                    return next.process();
                })
                .buildClient();
        List<String> names = new ArrayList<>();
        likeGo.listSubscriptions("t").forEach(p -> names.add(p.getSubscriptionName()));
        assertEquals(List.of("a", "b"), names);
        assertEquals("t", likeGo.getTopic("t").getName());
    }
}
