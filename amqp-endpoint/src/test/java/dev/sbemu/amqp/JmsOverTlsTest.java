package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.servicebus.jms.ServiceBusJmsConnectionFactory;
import com.azure.servicebus.jms.ServiceBusJmsConnectionFactorySettings;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** AMQP over TLS on the endpoint's second port: Qpid JMS and azure-servicebus-jms's connection factory. */
class JmsOverTlsTest {
    private static final long WAIT_MILLIS = 10_000;
    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private Connection connection;

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.tlsPort(0));

    @BeforeEach
    void start() {
        namespace = endpoint.namespace();
        server = endpoint.server();
        namespace.createQueue("orders");
    }

    @AfterEach
    void stop() throws JMSException {
        if (connection != null) {
            connection.close();
        }
    }

    /**
     * The bound a failed connection attempt must end within, a generous one: the attempts set {@link #HANG} as Qpid
     * JMS's connect timeout, so that a connection that hangs is still waiting when the bound runs out.
     */
    private static final Duration NO_HANG = Duration.ofSeconds(60);

    private static final Duration HANG = Duration.ofMinutes(5);

    private String key() {
        return key(server);
    }

    private static String key(ServiceBusEmulatorServer server) {
        String cs = server.getConnectionString();
        int at = cs.indexOf("SharedAccessKey=") + "SharedAccessKey=".length();
        return cs.substring(at, cs.indexOf(';', at));
    }

    /** Sends "hello" to orders and receives it over a connection of {@code factory}. */
    private void roundTrip(ConnectionFactory factory) throws JMSException {
        connection = factory.createConnection();
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        session.createProducer(queue).send(session.createTextMessage("hello"));
        TextMessage got = (TextMessage) session.createConsumer(queue).receive(WAIT_MILLIS);
        assertNotNull(got, "received");
        assertEquals("hello", got.getText());
    }

    @Test
    @DisplayName(
            "JMS-30 Qpid JMS over amqps:// with the endpoint's trust store: TLS handshake, SASL PLAIN, send and receive")
    void qpidWithTrustStore() throws JMSException {
        roundTrip(new JmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(), server.jmsTlsUri()));
    }

    @Test
    @DisplayName("JMS-30 Qpid JMS over amqps://127.0.0.1 with the endpoint's SSLContext (the certificate names the IP)")
    void qpidWithSslContext() throws JMSException {
        JmsConnectionFactory factory = new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME, key(), "amqps://127.0.0.1:" + server.tlsPort());
        factory.setSslContext(server.tlsClientContext());
        roundTrip(factory);
    }

    @Test
    @DisplayName("JMS-32 ServiceBusJmsConnectionFactory on the TLS port: host with the port, trust in the settings")
    void serviceBusJmsConnectionFactory() throws JMSException {
        Map<String, String> options = new HashMap<>(server.jmsTrustOptions());
        ServiceBusJmsConnectionFactorySettings settings = new ServiceBusJmsConnectionFactorySettings(options);
        settings.setShouldReconnect(false);
        roundTrip(new ServiceBusJmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME, key(), "localhost:" + server.tlsPort(), settings));
    }

    @Test
    @DisplayName("NS-2 ServiceBusJmsConnectionFactory with the key name <namespace>/<key name> reaches that namespace")
    void serviceBusJmsConnectionFactoryChoosesNamespace() throws JMSException {
        Namespace teamA =
                server.addNamespace("team-a", NamespaceSettings.defaults().withTier(dev.sbemu.core.Tier.PREMIUM));
        teamA.createQueue("orders");
        Map<String, String> options = new HashMap<>(server.jmsTrustOptions());
        ServiceBusJmsConnectionFactorySettings settings = new ServiceBusJmsConnectionFactorySettings(options);
        settings.setShouldReconnect(false);
        connection = new ServiceBusJmsConnectionFactory(
                        "team-a/" + ServiceBusEmulatorServer.KEY_NAME, key(), "localhost:" + server.tlsPort(), settings)
                .createConnection();
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createProducer(session.createQueue("orders")).send(session.createTextMessage("for team a"));
        assertEquals(1, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }

    private int control(String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.httpUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", server.controlAuthorization())
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json == null ? "" : json));
        return HttpClient.newHttpClient()
                .send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private Connection jms(String namespaceName, String key) throws JMSException {
        ServiceBusJmsConnectionFactorySettings settings =
                new ServiceBusJmsConnectionFactorySettings(new HashMap<>(server.jmsTrustOptions()));
        settings.setShouldReconnect(false);
        return new ServiceBusJmsConnectionFactory(
                        namespaceName + "/" + ServiceBusEmulatorServer.KEY_NAME,
                        key,
                        "localhost:" + server.tlsPort(),
                        settings)
                .createConnection();
    }

    @Test
    @DisplayName(
            "NS-1 NS-3 ServiceBusJmsConnectionFactory and two namespaces on one server: queues of one name, clocks "
                    + "moved apart, a fault scripted in one, a key of each; nothing crosses between them")
    void twoNamespacesOverJms() throws Exception {
        Namespace teamA = server.addNamespace("team-a", NamespaceSettings.defaults());
        assertEquals(201, control("POST", "/__admin/namespaces", "{\"name\":\"team-b\",\"key\":\"team-b-key\"}"));
        Namespace teamB = server.namespace("team-b");
        teamA.createQueue("orders");
        teamB.createQueue("orders");
        Connection a = jms("team-a", key());
        Connection b = jms("team-b", "team-b-key");
        try {
            a.start();
            b.start();
            Session sa = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session sb = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer toA = sa.createProducer(sa.createQueue("orders"));
            MessageProducer toB = sb.createProducer(sb.createQueue("orders"));
            toA.setTimeToLive(Duration.ofMinutes(10).toMillis());
            toB.setTimeToLive(Duration.ofMinutes(10).toMillis());
            toA.send(sa.createTextMessage("for a"));
            toB.send(sb.createTextMessage("for b"));
            assertEquals(1, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            assertEquals(1, teamB.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());

            // clocks move apart: eleven minutes for team-a expire its message, team-b's stays
            assertEquals(200, control("POST", "/__admin/namespaces/team-a/clock/advance", "{\"duration\":\"PT11M\"}"));
            assertEquals(0, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            TextMessage got =
                    (TextMessage) sb.createConsumer(sb.createQueue("orders")).receive(WAIT_MILLIS);
            assertNotNull(got, "team-b's message");
            assertEquals("for b", got.getText());

            // a fault scripted in team-a fails team-a's next send only
            assertEquals(
                    201,
                    control(
                            "POST",
                            "/__admin/namespaces/team-a/faults",
                            "{\"entity\":\"orders\",\"action\":\"failNext\",\"count\":1,"
                                    + "\"operation\":\"SEND\",\"failure\":\"QUOTA_EXCEEDED\"}"));
            toB.send(sb.createTextMessage("unhurt"));
            assertThrows(JMSException.class, () -> toA.send(sa.createTextMessage("hurt")));
            assertEquals(1, teamB.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            assertEquals(0, teamA.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        } finally {
            a.close();
            b.close();
        }
        // team-b's key is its own: the endpoint's key does not open it (SASL PLAIN refused)
        assertThrows(JMSSecurityException.class, () -> jms("team-b", key()).start());
    }

    @Test
    @DisplayName(
            "JMS-31 a client that does not trust the certificate fails its handshake cleanly; the TLS port goes on "
                    + "serving the others")
    void untrustedClientFails() throws JMSException {
        JmsConnectionFactory untrusting = new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME, key(), "amqps://localhost:" + server.tlsPort());
        untrusting.setConnectTimeout(HANG.toMillis());
        JMSException e = assertTimeoutPreemptively(
                NO_HANG,
                () -> assertThrows(
                        JMSException.class, () -> untrusting.createConnection().start()));
        assertTrue(causes(e).anyMatch(c -> c instanceof SSLHandshakeException), "an SSL handshake failure: " + e);
        roundTrip(new JmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(), server.jmsTlsUri()));
    }

    @Test
    @DisplayName("JMS-31 plain AMQP to the TLS port fails at once (no hang): the endpoint hangs up on a non-TLS record")
    void plainClientOnTlsPort() throws JMSException {
        JmsConnectionFactory plain = new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME, key(), "amqp://127.0.0.1:" + server.tlsPort());
        plain.setConnectTimeout(HANG.toMillis());
        assertTimeoutPreemptively(
                NO_HANG,
                () -> assertThrows(
                        JMSException.class, () -> plain.createConnection().start()));
        roundTrip(new JmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(), server.jmsTlsUri()));
    }

    @Test
    @DisplayName("JMS-31 TLS to the plain port of an endpoint without a TLS port fails at once (no hang): the endpoint "
            + "answers with the AMQP header and hangs up")
    void tlsClientOnPlainPort() throws Exception {
        ServiceBusEmulatorServer plainOnly =
                ServiceBusEmulatorServer.builder(namespace).start();
        try {
            JmsConnectionFactory tls = new JmsConnectionFactory(
                    ServiceBusEmulatorServer.KEY_NAME, key(plainOnly), "amqps://localhost:" + plainOnly.port());
            tls.setSslContext(server.tlsClientContext());
            tls.setConnectTimeout(HANG.toMillis());
            assertTimeoutPreemptively(
                    NO_HANG,
                    () -> assertThrows(
                            JMSException.class, () -> tls.createConnection().start()));
            roundTrip(new JmsConnectionFactory(
                    ServiceBusEmulatorServer.KEY_NAME, key(plainOnly), "amqp://127.0.0.1:" + plainOnly.port()));
        } finally {
            if (connection != null) {
                connection.close();
                connection = null;
            }
            plainOnly.close();
        }
    }

    @Test
    @DisplayName("AMQP-26 an endpoint with a TLS port serves TLS on its plain port too (the first byte starts a TLS "
            + "handshake): Qpid JMS over amqps:// to the plain port")
    void tlsOnPlainPortOfTlsEndpoint() throws JMSException {
        JmsConnectionFactory tls = new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME, key(), "amqps://localhost:" + server.port());
        tls.setSslContext(server.tlsClientContext());
        roundTrip(tls);
    }

    @Test
    @DisplayName("JMS-31 AMQP-13 the handshake timeout applies on the TLS port: a TLS session that never opens AMQP "
            + "is dropped, and so is a TCP connection that never starts TLS")
    void handshakeTimeoutOnTlsPort() throws IOException {
        server.close();
        server = ServiceBusEmulatorServer.builder(namespace)
                .tlsPort(0)
                .handshakeTimeout(Duration.ofSeconds(2))
                .start();
        try (SSLSocket silent = (SSLSocket)
                        server.tlsClientContext().getSocketFactory().createSocket("localhost", server.tlsPort());
                Socket tcp = new Socket("127.0.0.1", server.tlsPort())) {
            // bounds, not margins: the endpoint hangs up after 2 s; a read that waits a minute means it never did
            silent.setSoTimeout(60_000);
            tcp.setSoTimeout(60_000);
            try {
                silent.startHandshake();
            } catch (IOException e) {
                // on a loaded machine the TLS handshake itself can outlast the timeout: the endpoint then drops the
                // connection during it, which is the same rule (no AMQP within the handshake timeout)
            }
            assertHungUp(silent);
            assertHungUp(tcp);
        }
    }

    /** The peer closed the socket: end of stream, or a reset (not a read timeout). */
    private static void assertHungUp(Socket socket) {
        try {
            assertEquals(-1, socket.getInputStream().read(), "end of stream");
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the endpoint did not hang up", e);
        } catch (IOException e) {
            // a reset or a TLS session closed without close_notify: hung up all the same
        }
    }

    private static Stream<Throwable> causes(Throwable e) {
        return Stream.iterate(e, t -> t != null, Throwable::getCause);
    }

    @Test
    @DisplayName("JMS-33 SASL PLAIN takes the key with azure-servicebus-jms's ';UseDevelopmentEmulator=true;' tail, "
            + "and nothing else after the key")
    void keyWithEmulatorTail() throws JMSException {
        roundTrip(new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME,
                key() + ";UseDevelopmentEmulator=true;",
                "amqp://127.0.0.1:" + server.port()));
        connection.close();
        connection = null;
        JmsConnectionFactory other = new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME, key() + ";EntityPath=orders", "amqp://127.0.0.1:" + server.port());
        assertThrows(JMSSecurityException.class, () -> other.createConnection().start());
    }

    @Test
    @DisplayName("JMS-32 JMS-33 ServiceBusJmsConnectionFactory from the emulator's connection string, as is: the TLS "
            + "port on 5671 (the factory drops the port), trust through failover.nested options")
    void serviceBusJmsConnectionFactoryFromConnectionString() throws JMSException {
        server.close();
        try {
            server = ServiceBusEmulatorServer.builder(namespace).tlsPort(5671).start();
        } catch (UncheckedIOException e) {
            server = ServiceBusEmulatorServer.builder(namespace).tlsPort(0).start(); // closed by stop()
            Assumptions.abort("port 5671 is taken on this machine: " + e.getMessage());
        }
        Map<String, String> options = new HashMap<>();
        // the factory builds failover:(amqps://host)?...: the failover provider hands the transport only the options
        // prefixed failover.nested. (plain transport.* options are ignored there)
        server.jmsTrustOptions().forEach((name, value) -> options.put("failover.nested." + name, value));
        options.put("failover.maxReconnectAttempts", "0");
        ServiceBusJmsConnectionFactory factory = new ServiceBusJmsConnectionFactory(
                server.getConnectionString(), new ServiceBusJmsConnectionFactorySettings(options));
        roundTrip(factory);
    }

    @Test
    @DisplayName("JMS-34 the Java SDK over the TLS port: a connection string without UseDevelopmentEmulator (amqps), "
            + "customEndpointAddress for the port, the JVM's default SSLContext trusting the certificate")
    void javaSdkOverTls() throws Exception {
        SSLContext previous = SSLContext.getDefault();
        SSLContext.setDefault(server.tlsClientContext());
        try {
            String cs = "Endpoint=sb://localhost;SharedAccessKeyName=" + ServiceBusEmulatorServer.KEY_NAME
                    + ";SharedAccessKey=" + key();
            ServiceBusClientBuilder builder = new ServiceBusClientBuilder()
                    .connectionString(cs)
                    .customEndpointAddress("https://localhost:" + server.tlsPort())
                    .retryOptions(new AmqpRetryOptions().setMaxRetries(0).setTryTimeout(Duration.ofSeconds(15)));
            try (ServiceBusSenderClient sender =
                            builder.sender().queueName("orders").buildClient();
                    ServiceBusReceiverClient receiver =
                            builder.receiver().queueName("orders").buildClient()) {
                sender.sendMessage(new ServiceBusMessage("over tls"));
                ServiceBusReceivedMessage got = receiver.receiveMessages(1, Duration.ofSeconds(10)).stream()
                        .findFirst()
                        .orElseThrow();
                assertEquals("over tls", got.getBody().toString());
                receiver.complete(got);
            }
        } finally {
            SSLContext.setDefault(previous);
        }
    }
}
