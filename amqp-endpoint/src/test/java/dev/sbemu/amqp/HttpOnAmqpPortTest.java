package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.ResourceExistsException;
import com.azure.core.exception.ResourceNotFoundException;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import com.azure.messaging.servicebus.administration.models.QueueRuntimeProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import dev.sbemu.sdk.AdministrationClients;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One port, one connection string: AMQP and HTTP on the endpoint's port, told apart by the first bytes. */
class HttpOnAmqpPortTest extends EndpointFixture {

    @Test
    @DisplayName("HTTP-10 the AMQP port also answers HTTP/1.1 (health, control), and AMQP clients still work on it")
    void bothOnOnePort() throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> health = http.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/health"))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        assertEquals("{\"status\":\"healthy\",\"message\":\"Service is healthy.\"}", health.body());
        assertEquals("http://127.0.0.1:" + server.port(), server.httpUrl());
        assertEquals(-1, server.httpPort());

        namespace.createQueue("orders");
        try (ServiceBusSenderClient sender =
                        clients().sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        clients().receiver().queueName("orders").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("over amqp"));
            List<ServiceBusReceivedMessage> got =
                    receiver.receiveMessages(1, Duration.ofSeconds(10)).stream().toList();
            assertEquals("over amqp", got.get(0).getBody().toString());
            receiver.complete(got.get(0));
        }
        // several requests on one kept-alive connection
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> clock = http.send(
                    HttpRequest.newBuilder(URI.create(server.httpUrl() + "/__admin/clock"))
                            .header("Authorization", server.controlAuthorization())
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, clock.statusCode());
        }
    }

    @Test
    @DisplayName("HTTP-10 a raw HTTP/1.0 request on the AMQP port is answered and the connection closed")
    void rawHttp10() throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /health HTTP/1.0\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.endsWith("{\"status\":\"healthy\",\"message\":\"Service is healthy.\"}"), answer);
        }
    }

    @Test
    @DisplayName(
            "HTTP-10 bodies larger than the splice's 16 KB buffers pass through; one over 1 MB is refused with 413")
    void largeBodies() throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String padding = " ".repeat(200_000);
        HttpResponse<String> advanced = http.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/__admin/clock/advance"))
                        .header("Authorization", server.controlAuthorization())
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"duration\":\"PT1M\"" + padding + "}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, advanced.statusCode(), advanced.body());
        assertEquals(start.plusSeconds(60), namespace.clock().instant());
        HttpResponse<String> tooLarge = http.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/__admin/clock/advance"))
                        .header("Authorization", server.controlAuthorization())
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofString(" ".repeat(1024 * 1024 + 1)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(413, tooLarge.statusCode());
        assertTrue(tooLarge.body().contains("RequestTooLarge"), tooLarge.body());
    }

    @Test
    @DisplayName("HTTP-10 an HTTP connection that stops mid-request is closed after the endpoint's idle timeout")
    void stalledHttpIsClosed() throws Exception {
        try (ServiceBusEmulatorServer quick = ServiceBusEmulatorServer.builder(namespace)
                        .idleTimeout(Duration.ofSeconds(1))
                        .start();
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), quick.port())) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write("GET /heal".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            long start = System.nanoTime();
            assertEquals(-1, socket.getInputStream().read());
            assertTrue(
                    System.nanoTime() - start < Duration.ofSeconds(30).toNanos()); // a bound: the idle timeout is 1 s
        }
    }

    @Test
    @DisplayName("HTTP-11 the Java administration client reaches the endpoint over real HTTP with "
            + "administrationHttpPolicy(); its runtime counts agree with the in-process client's")
    void javaAdministrationClientOverHttp() {
        ServiceBusAdministrationClient overHttp = new ServiceBusAdministrationClientBuilder()
                .connectionString(server.getConnectionString())
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
        overHttp.createQueue("invoices", new CreateQueueOptions().setLockDuration(Duration.ofSeconds(40)));
        assertThrows(ResourceExistsException.class, () -> overHttp.createQueue("invoices"));
        assertThrows(ResourceNotFoundException.class, () -> overHttp.getQueue("missing"));
        assertEquals(Duration.ofSeconds(40), namespace.getQueue("invoices").lockDuration());

        try (ServiceBusSenderClient sender =
                clients().sender().queueName("invoices").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("a"));
            sender.sendMessage(new ServiceBusMessage("b"));
            sender.scheduleMessage(
                    new ServiceBusMessage("later"), start.plusSeconds(3600).atOffset(ZoneOffset.UTC));
        }
        QueueRuntimeProperties http = overHttp.getQueueRuntimeProperties("invoices");
        QueueRuntimeProperties inProcess = AdministrationClients.sync(namespace).getQueueRuntimeProperties("invoices");
        assertEquals(2, http.getActiveMessageCount());
        assertEquals(1, http.getScheduledMessageCount());
        assertEquals(inProcess.getActiveMessageCount(), http.getActiveMessageCount());
        assertEquals(inProcess.getScheduledMessageCount(), http.getScheduledMessageCount());
        assertEquals(inProcess.getTotalMessageCount(), http.getTotalMessageCount());
        assertEquals(
                List.of("invoices"),
                overHttp.listQueues().stream().map(q -> q.getName()).toList());

        // topics, subscriptions, rules, listings, namespace properties, an update (If-Match: *) over HTTP
        overHttp.createTopic("events");
        overHttp.createSubscription("events", "all");
        overHttp.createSubscription("events", "red");
        overHttp.createRule(
                "events", "red-only", "red", new CreateRuleOptions().setFilter(new SqlRuleFilter("color = 'red'")));
        assertEquals(
                List.of("all", "red"),
                overHttp.listSubscriptions("events").stream()
                        .map(x -> x.getSubscriptionName())
                        .toList());
        assertEquals(
                List.of("$Default", "red-only"),
                overHttp.listRules("events", "red").stream()
                        .map(r -> r.getName())
                        .toList());
        assertEquals(2, namespace.listRules("events", "red").size());
        QueueProperties invoices = overHttp.getQueue("invoices");
        invoices.setMaxDeliveryCount(3);
        assertEquals(3, overHttp.updateQueue(invoices).getMaxDeliveryCount());
        assertEquals(3, namespace.getQueue("invoices").maxDeliveryCount());
        assertEquals(2, overHttp.getTopicRuntimeProperties("events").getSubscriptionCount());
        assertTrue(overHttp.getNamespaceProperties().getName() != null);
        overHttp.deleteSubscription("events", "all");
        assertEquals(List.of("red"), namespace.subscriptionNames("events"));

        ServiceBusAdministrationClient wrongKey = new ServiceBusAdministrationClientBuilder()
                .connectionString(server.getConnectionString()
                        .replace(
                                server.getConnectionString().replaceAll(".*SharedAccessKey=([^;]*);.*", "$1"),
                                "d3Jvbmcta2V5"))
                .addPolicy(server.administrationHttpPolicy())
                .buildClient();
        assertThrows(ClientAuthenticationException.class, () -> wrongKey.getQueue("invoices"));
    }
}
