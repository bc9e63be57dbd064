package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.qpid.proton.amqp.transport.Close;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The HTTP port asked for with {@code Builder.httpPort} is a second listener of the endpoint: it speaks AMQP as well
 * as HTTP, under the same limits, and closes with the endpoint.
 */
class AmqpOnHttpPortTest {
    private static final String KEY = "c2JlbXUtdGVzdC1rZXk=";

    private final List<ServiceBusEmulatorServer> servers = new ArrayList<>();
    private final List<HostilePeer> peers = new ArrayList<>();
    private Namespace namespace;

    @BeforeEach
    void createNamespace() {
        namespace = Namespace.builder()
                .startingAt(Instant.now().truncatedTo(ChronoUnit.SECONDS))
                .build();
    }

    @AfterEach
    void stop() {
        for (HostilePeer peer : peers) {
            try {
                peer.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        servers.forEach(ServiceBusEmulatorServer::close);
        namespace.close();
    }

    private ServiceBusEmulatorServer start(ServiceBusEmulatorServer.Builder builder) {
        ServiceBusEmulatorServer server =
                builder.sharedAccessKey(KEY).httpPort(0).start();
        servers.add(server);
        return server;
    }

    private HostilePeer opened(int port) throws IOException {
        HostilePeer peer = HostilePeer.opened(port);
        peers.add(peer);
        return peer;
    }

    @Test
    @DisplayName("HTTP-10 an SDK client with the HTTP port in its connection string sends and receives over it; "
            + "/health and management answer on both ports")
    void sdkClientOnHttpPort() throws Exception {
        ServiceBusEmulatorServer server = start(ServiceBusEmulatorServer.builder(namespace));
        assertTrue(server.httpPort() > 0 && server.httpPort() != server.port());
        namespace.createQueue("orders");
        String overHttpPort = server.getConnectionString()
                .replace("127.0.0.1:" + server.port() + ";", "127.0.0.1:" + server.httpPort() + ";");
        assertTrue(overHttpPort.contains(":" + server.httpPort() + ";"), overHttpPort);
        try (ServiceBusSenderClient sender = EndpointFixture.clients(overHttpPort)
                        .sender()
                        .queueName("orders")
                        .buildClient();
                ServiceBusReceiverClient receiver = EndpointFixture.clients(overHttpPort)
                        .receiver()
                        .queueName("orders")
                        .buildClient()) {
            sender.sendMessage(new ServiceBusMessage("over the http port"));
            List<ServiceBusReceivedMessage> got =
                    receiver.receiveMessages(1, Duration.ofSeconds(10)).stream().toList();
            assertEquals(1, got.size());
            assertEquals("over the http port", got.get(0).getBody().toString());
            receiver.complete(got.get(0));
        }

        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        for (int port : new int[] {server.httpPort(), server.port()}) {
            HttpResponse<String> health = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode(), "port " + port);
            HttpResponse<String> unsigned = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders?api-version=2021-05"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, unsigned.statusCode(), "port " + port + ": " + unsigned.body());
        }
    }

    @Test
    @DisplayName("HTTP-10 AMQP connections on the HTTP port count toward maxConnections with the AMQP port's: one "
            + "past the limit there is refused with amqp:resource-limit-exceeded")
    void connectionLimitCoversBothPorts() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).maxConnections(1));
        opened(server.port());
        HostilePeer second = opened(server.httpPort());
        second.expectError(Close.class, "amqp:resource-limit-exceeded");
    }

    @Test
    @DisplayName("HTTP-10 an AMQP connection on the HTTP port without a token within the handshake timeout is closed "
            + "with amqp:unauthorized-access")
    void handshakeTimeoutOnHttpPort() throws IOException {
        ServiceBusEmulatorServer server =
                start(ServiceBusEmulatorServer.builder(namespace).handshakeTimeout(Duration.ofMillis(300)));
        HostilePeer peer = opened(server.httpPort());
        peer.begin(0);
        peer.expectError(Close.class, "amqp:unauthorized-access");
        peer.expectEndOfStream(HostilePeer.WAIT);
    }

    @Test
    @DisplayName("HTTP-10 closing the endpoint closes both listeners")
    void closeClosesBothListeners() throws IOException {
        ServiceBusEmulatorServer server = start(ServiceBusEmulatorServer.builder(namespace));
        int amqp = server.port();
        int http = server.httpPort();
        opened(http);
        assertEquals(1, server.connectionCount());
        server.close();
        assertEquals(0, server.connectionCount());
        for (int port : new int[] {amqp, http}) {
            assertThrows(
                    ConnectException.class,
                    () -> new Socket(InetAddress.getLoopbackAddress(), port).close(),
                    "port " + port);
        }
    }
}
