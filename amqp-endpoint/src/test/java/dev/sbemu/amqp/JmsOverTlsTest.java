package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.servicebus.jms.ServiceBusJmsConnectionFactory;
import com.azure.servicebus.jms.ServiceBusJmsConnectionFactorySettings;
import dev.sbemu.core.Namespace;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** AMQP over TLS on the endpoint's second port: Qpid JMS and azure-servicebus-jms's connection factory. */
class JmsOverTlsTest {
    private static final long WAIT_MILLIS = 10_000;
    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private Connection connection;

    @BeforeEach
    void start() {
        namespace = Namespace.builder().startingAt(EndpointFixture.START).build();
        namespace.createQueue("orders");
        server = ServiceBusEmulatorServer.builder(namespace).tlsPort(0).start();
    }

    @AfterEach
    void stop() throws JMSException {
        if (connection != null) {
            connection.close();
        }
        server.close();
        namespace.close();
    }

    private String key() {
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
    @DisplayName("JMS-30 Qpid JMS over amqps:// with the endpoint's trust store: TLS handshake, SASL PLAIN, send and receive")
    void qpidWithTrustStore() throws JMSException {
        roundTrip(new JmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(), server.jmsTlsUri()));
    }

    @Test
    @DisplayName("JMS-30 Qpid JMS over amqps://127.0.0.1 with the endpoint's SSLContext (the certificate names the IP)")
    void qpidWithSslContext() throws JMSException {
        JmsConnectionFactory factory = new JmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(),
                "amqps://127.0.0.1:" + server.tlsPort());
        factory.setSslContext(server.tlsClientContext());
        roundTrip(factory);
    }

    @Test
    @DisplayName("JMS-32 ServiceBusJmsConnectionFactory on the TLS port: host with the port, trust in the settings")
    void serviceBusJmsConnectionFactory() throws JMSException {
        Map<String, String> options = new HashMap<>(server.jmsTrustOptions());
        ServiceBusJmsConnectionFactorySettings settings = new ServiceBusJmsConnectionFactorySettings(options);
        settings.setShouldReconnect(false);
        roundTrip(new ServiceBusJmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(),
                "localhost:" + server.tlsPort(), settings));
    }
}
