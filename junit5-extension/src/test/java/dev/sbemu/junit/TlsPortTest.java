package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.amqp.ServiceBusEmulatorServer;
import java.io.IOException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@ServiceBusEmulator(tlsPort = 0)
class TlsPortTest {

    @Test
    @DisplayName("JMS-30 @ServiceBusEmulator(tlsPort = 0): the injected endpoint listens for TLS on an ephemeral port "
            + "and hands out what trusts its certificate")
    void tlsPort(ServiceBusEmulatorServer server) throws IOException {
        assertTrue(server.tlsPort() > 0, "a TLS port: " + server.tlsPort());
        assertNotEquals(server.port(), server.tlsPort());
        try (SSLSocket socket =
                (SSLSocket) server.tlsClientContext().getSocketFactory().createSocket("localhost", server.tlsPort())) {
            socket.startHandshake();
            assertEquals(server.tlsCertificate(), socket.getSession().getPeerCertificates()[0]);
        }
        assertTrue(server.jmsTlsUri().startsWith("amqps://localhost:" + server.tlsPort() + "?"), server.jmsTlsUri());
    }
}
