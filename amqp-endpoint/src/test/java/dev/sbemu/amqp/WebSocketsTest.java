package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.core.amqp.AmqpTransportType;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** AMQP over WebSockets on the plain ports and the TLS port: the Java SDK, and raw clients that break the rules. */
class WebSocketsTest {
    /** A bound for reads that only a failure reaches. */
    private static final int READ_BOUND_MILLIS = 60_000;

    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static final byte[] AMQP_SASL_HEADER = {'A', 'M', 'Q', 'P', 3, 1, 0, 0};

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.tlsPort(0));

    private final List<Socket> sockets = new ArrayList<>();
    private ServiceBusEmulatorServer impatient;

    @AfterEach
    void closeSockets() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (impatient != null) {
            impatient.close();
        }
    }

    private static AmqpRetryOptions oneTry() {
        return new AmqpRetryOptions().setMaxRetries(0).setTryTimeout(Duration.ofSeconds(30));
    }

    private static void roundTrip(ServiceBusClientBuilder builder, String body) {
        try (ServiceBusSenderClient sender =
                        builder.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        builder.receiver().queueName("orders").buildClient()) {
            sender.sendMessage(new ServiceBusMessage(body));
            ServiceBusReceivedMessage got = receiver.receiveMessages(1, Duration.ofSeconds(30)).stream()
                    .findFirst()
                    .orElseThrow();
            assertEquals(body, got.getBody().toString());
            receiver.complete(got);
        }
    }

    @Test
    @DisplayName("AMQP-26 the Java SDK with AmqpTransportType.AMQP_WEB_SOCKETS and the emulator's connection string "
            + "naming the TLS port sends and receives over wss:// (the SDK always dials web sockets with TLS, and "
            + "UseDevelopmentEmulator=true verifies no certificate)")
    void javaSdkOverWebSockets() {
        endpoint.namespace().createQueue("orders");
        ServiceBusEmulatorServer server = endpoint.server();
        String cs = endpoint.connectionString().replace(":" + server.port() + ";", ":" + server.tlsPort() + ";");
        assertTrue(cs.contains(":" + server.tlsPort() + ";") && cs.contains("UseDevelopmentEmulator=true"), cs);
        roundTrip(
                new ServiceBusClientBuilder()
                        .connectionString(cs)
                        .transportType(AmqpTransportType.AMQP_WEB_SOCKETS)
                        .retryOptions(oneTry()),
                "over web sockets");
    }

    @Test
    @DisplayName(
            "AMQP-26 the Java SDK with AMQP_WEB_SOCKETS and the emulator's connection string unchanged: its "
                    + "wss:// to the AMQP port is served there (TLS sniffed by the first byte when the endpoint has a TLS port)")
    void javaSdkOverWebSocketsOnPlainPort() {
        endpoint.namespace().createQueue("orders");
        roundTrip(
                new ServiceBusClientBuilder()
                        .connectionString(endpoint.connectionString())
                        .transportType(AmqpTransportType.AMQP_WEB_SOCKETS)
                        .retryOptions(oneTry()),
                "over web sockets to the AMQP port");
    }

    @Test
    @DisplayName("AMQP-26 the Java SDK over wss:// on the TLS port: customEndpointAddress, the JVM's default "
            + "SSLContext trusting the endpoint's certificate")
    void javaSdkOverSecureWebSockets() throws Exception {
        endpoint.namespace().createQueue("orders");
        ServiceBusEmulatorServer server = endpoint.server();
        String cs = endpoint.connectionString();
        int at = cs.indexOf("SharedAccessKey=") + "SharedAccessKey=".length();
        String key = cs.substring(at, cs.indexOf(';', at));
        SSLContext previous = SSLContext.getDefault();
        SSLContext.setDefault(server.tlsClientContext());
        try {
            roundTrip(
                    new ServiceBusClientBuilder()
                            .connectionString("Endpoint=sb://localhost;SharedAccessKeyName="
                                    + ServiceBusEmulatorServer.KEY_NAME + ";SharedAccessKey=" + key)
                            .customEndpointAddress("https://localhost:" + server.tlsPort())
                            .transportType(AmqpTransportType.AMQP_WEB_SOCKETS)
                            .retryOptions(oneTry()),
                    "over secure web sockets");
        } finally {
            SSLContext.setDefault(previous);
        }
    }

    // --- raw clients ---

    private Socket connect() throws IOException {
        return connect(endpoint.server().port());
    }

    private Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        sockets.add(socket);
        socket.setSoTimeout(READ_BOUND_MILLIS);
        return socket;
    }

    private static String upgrade(String path, String extraHeaders) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n";
    }

    /** The response head, up to and including the blank line. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("end of stream in the response head: " + head);
            }
            head.write(b);
            String text = head.toString(StandardCharsets.ISO_8859_1);
            if (text.endsWith("\r\n\r\n")) {
                return text;
            }
        }
    }

    private static String refusal(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = socket.getInputStream();
        String head = readHead(in);
        int length = Integer.parseInt(head.replaceAll("(?s).*Content-Length: (\\d+).*", "$1"));
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        assertEquals(-1, readToEnd(in), "the connection ends after a refusal");
        return head.substring(0, head.indexOf("\r\n")) + " " + body.trim();
    }

    /** Reads until the endpoint hangs up; returns -1 (end of stream) or -2 (reset). */
    private static int readToEnd(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // drop
            }
            return -1;
        } catch (SocketException e) {
            return -2; // a reset after the answer is an end too
        }
    }

    private static byte[] maskedFrame(int opcode, boolean fin, byte[] payload) {
        byte[] mask = {1, 2, 3, 4};
        ByteBuffer frame = ByteBuffer.allocate(14 + payload.length);
        frame.put((byte) ((fin ? 0x80 : 0) | opcode));
        if (payload.length <= 125) {
            frame.put((byte) (0x80 | payload.length));
        } else if (payload.length <= 0xFFFF) {
            frame.put((byte) (0x80 | 126)).putShort((short) payload.length);
        } else {
            frame.put((byte) (0x80 | 127)).putLong(payload.length);
        }
        frame.put(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.put((byte) (payload[i] ^ mask[i & 3]));
        }
        return Arrays.copyOf(frame.array(), frame.position());
    }

    /** One server frame: its opcode and payload (server frames are not masked). */
    private record Frame(int opcode, byte[] payload) {}

    private static Frame readFrame(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        int first = in.readUnsignedByte();
        int second = in.readUnsignedByte();
        assertEquals(0, second & 0x80, "a server frame is not masked");
        long length = second & 0x7F;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        byte[] payload = new byte[(int) length];
        in.readFully(payload);
        return new Frame(first & 0x0F, payload);
    }

    private Socket upgraded() throws IOException {
        return upgraded(endpoint.server().port());
    }

    private Socket upgraded(int port) throws IOException {
        Socket s = connect(port);
        s.getOutputStream()
                .write(upgrade("/$servicebus/websocket", "Sec-WebSocket-Protocol: AMQPWSB10\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
        String head = readHead(s.getInputStream());
        assertTrue(head.startsWith("HTTP/1.1 101 "), head);
        return s;
    }

    private static int closeStatus(Frame frame) {
        assertEquals(8, frame.opcode(), "a close frame");
        return ((frame.payload()[0] & 0xFF) << 8) | (frame.payload()[1] & 0xFF);
    }

    @Test
    @DisplayName("AMQP-26 the upgrade is answered 101 with Sec-WebSocket-Accept and the AMQPWSB10 subprotocol; AMQP's "
            + "header comes back in a binary frame, a ping gets its pong")
    void upgradeAndFrames() throws Exception {
        Socket s = connect();
        OutputStream out = s.getOutputStream();
        out.write(upgrade("/$servicebus/websocket/", "Sec-WebSocket-Protocol: chat, AMQPWSB10\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        String head = readHead(s.getInputStream());
        String accept = Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("SHA-1")
                        .digest((KEY + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
        assertTrue(head.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), head);
        assertTrue(head.contains("Sec-WebSocket-Accept: " + accept + "\r\n"), head);
        assertTrue(head.contains("Sec-WebSocket-Protocol: AMQPWSB10\r\n"), head);
        // the header in two fragments
        out.write(maskedFrame(2, false, new byte[] {'A', 'M', 'Q', 'P'}));
        out.write(maskedFrame(0, true, new byte[] {3, 1, 0, 0}));
        ByteArrayOutputStream amqp = new ByteArrayOutputStream();
        while (amqp.size() < 8) {
            Frame frame = readFrame(s.getInputStream());
            assertEquals(2, frame.opcode(), "AMQP comes in binary frames");
            amqp.write(frame.payload());
        }
        assertArrayEquals(AMQP_SASL_HEADER, Arrays.copyOf(amqp.toByteArray(), 8));
        out.write(maskedFrame(9, true, "are you there".getBytes(StandardCharsets.UTF_8)));
        Frame pong;
        do {
            pong = readFrame(s.getInputStream());
        } while (pong.opcode() == 2); // the rest of the SASL mechanisms frame
        assertEquals(10, pong.opcode());
        assertEquals("are you there", new String(pong.payload(), StandardCharsets.UTF_8));
        out.write(maskedFrame(8, true, new byte[] {0x03, (byte) 0xE8}));
        Frame close = readFrame(s.getInputStream());
        assertEquals(1000, closeStatus(close), "the close is echoed");
        assertTrue(readToEnd(s.getInputStream()) < 0);
    }

    @Test
    @DisplayName("AMQP-26 bad upgrade requests are refused with an HTTP status that says why: 426 without Upgrade, "
            + "400 for a bad key or an unserved subprotocol, 405 for another method, 431 for a head over 8 KB")
    void badUpgrades() throws IOException {
        assertTrue(refusal(connect(), "GET /$servicebus/websocket HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .startsWith("HTTP/1.1 426 Upgrade Required"));
        assertTrue(refusal(connect(), upgrade("/$servicebus/websocket", "").replace(KEY, "c2hvcnQ="))
                .startsWith("HTTP/1.1 400 Bad Request Sec-WebSocket-Key"));
        assertTrue(refusal(connect(), upgrade("/$servicebus/websocket", "Sec-WebSocket-Protocol: mqtt\r\n"))
                .contains("offer AMQPWSB10"));
        assertTrue(refusal(connect(), upgrade("/$servicebus/websocket", "").replace("Version: 13", "Version: 8"))
                .startsWith("HTTP/1.1 426 Upgrade Required Only WebSocket version 13"));
        assertTrue(refusal(connect(), upgrade("/$servicebus/websocketx", "")).startsWith("HTTP/1.1 404 Not Found"));
        String huge = upgrade("/$servicebus/websocket", "X-Padding: " + "x".repeat(9000) + "\r\n");
        assertTrue(refusal(connect(), huge).startsWith("HTTP/1.1 431 "));
    }

    @Test
    @DisplayName("AMQP-26 other HTTP requests on the AMQP port still reach the HTTP side (HTTP-1)")
    void otherHttpGoesToHttp() throws IOException {
        Socket s = connect();
        s.getOutputStream()
                .write("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(readHead(s.getInputStream()).startsWith("HTTP/1.1 200 "));
    }

    @Test
    @DisplayName("AMQP-26 an unmasked client frame is closed with 1002, a text frame with 1003")
    void unmaskedAndText() throws IOException {
        Socket s = upgraded();
        s.getOutputStream().write(new byte[] {(byte) 0x82, 8, 'A', 'M', 'Q', 'P', 3, 1, 0, 0});
        assertEquals(1002, closeStatus(readFrame(s.getInputStream())));
        assertTrue(readToEnd(s.getInputStream()) < 0);

        Socket t = upgraded();
        t.getOutputStream().write(maskedFrame(1, true, "AMQP".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(1003, closeStatus(readFrame(t.getInputStream())));
        assertTrue(readToEnd(t.getInputStream()) < 0);
    }

    @Test
    @DisplayName("AMQP-26 a frame longer than the max frame size before authorization is closed with 1009 as soon as "
            + "its header says so")
    void oversizeFrame() throws IOException {
        Socket s = upgraded();
        // only the header of a 1 GB frame: the endpoint does not wait for (or buffer) the payload
        s.getOutputStream().write(new byte[] {(byte) 0x82, (byte) (0x80 | 127), 0, 0, 0, 0, 0x40, 0, 0, 0, 1, 2, 3, 4});
        assertEquals(1009, closeStatus(readFrame(s.getInputStream())));
        assertTrue(readToEnd(s.getInputStream()) < 0);
    }

    @Test
    @DisplayName("AMQP-26 a client that stalls after the upgrade, or in the middle of its upgrade request, is dropped "
            + "at the handshake timeout (AMQP-13)")
    void stallers() throws IOException {
        impatient = ServiceBusEmulatorServer.builder(endpoint.namespace())
                .handshakeTimeout(Duration.ofMillis(300))
                .start();
        Socket s = upgraded(impatient.port());
        assertTrue(readToEnd(s.getInputStream()) < 0, "dropped");

        Socket t = connect(impatient.port());
        t.getOutputStream().write("GET /$servicebus/web".getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(readToEnd(t.getInputStream()) < 0, "dropped");
    }
}
