package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Namespace;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Slow and incomplete HTTP requests (issue 32, item 4): the HTTP side's few worker threads only ever read complete
 * requests, so clients that trickle a head or a body hold none of them, and a request that takes too long is
 * answered 408.
 */
class SlowHttpTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final Namespace namespace = Namespace.create();
    private final List<Socket> sockets = new ArrayList<>();
    private ServiceBusEmulatorServer server;

    @AfterEach
    void close() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (server != null) {
            server.close();
        }
        namespace.close();
    }

    private Socket open(int port, String bytes) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        sockets.add(socket);
        socket.setSoTimeout((int) WAIT.toMillis());
        socket.getOutputStream().write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return socket;
    }

    private static HttpResponse<String> health(int port) throws Exception {
        return HttpClient.newBuilder()
                .connectTimeout(WAIT)
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                                .timeout(WAIT)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    /** Reads one response (its head, and its body by its Content-Length), leaving the connection open. */
    private static String readResponse(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection closed after " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(
                        line.substring("content-length:".length()).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }

    private static String readAll(Socket socket) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            out.write(buffer, 0, n);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    @DisplayName(
            "RES-3 clients that leave a request's head or body incomplete, more of them than the HTTP workers, hold "
                    + "none of the workers: /health, the management API and /__admin/ still answer, on both ports")
    void incompleteRequestsHoldNoWorker() throws Exception {
        // any key: the control API is open to all (SEC-7), so its requests need no token here
        server = ServiceBusEmulatorServer.builder(namespace)
                .httpPort(0)
                .acceptAnyKey()
                .start();
        for (int port : new int[] {server.httpPort(), server.port()}) {
            for (int i = 0; i < 6; i++) {
                open(port, "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + i + "\r\n");
                open(port, "POST /__admin/clock/advance HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"dur");
            }
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> answer = health(port);
                assertEquals(200, answer.statusCode(), answer.body());
            }
            HttpResponse<String> clock = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/__admin/clock"))
                                    .timeout(WAIT)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, clock.statusCode(), clock.body());
        }
    }

    @Test
    @DisplayName("RES-3 a request not complete within the request-read timeout is answered 408 and its connection "
            + "closed")
    void slowRequestsAreAnswered408() throws Exception {
        server = ServiceBusEmulatorServer.builder(namespace)
                .httpPort(0)
                .requestReadTimeout(Duration.ofMillis(500))
                .start();
        Socket head = open(server.httpPort(), "GET /health HTTP/1.1\r\nHost: x\r\n");
        Socket body = open(server.httpPort(), "POST /__admin/clock/advance HTTP/1.1\r\nContent-Length: 50\r\n\r\n{");
        for (Socket socket : List.of(head, body)) {
            String answer = readAll(socket);
            assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout\r\n"), answer);
        }
    }

    @Test
    @DisplayName("RES-3 a request with bare LF line ends is answered, not left waiting for a CRLF; keep-alive requests "
            + "on one connection are each answered")
    void bareLineFeedsAndKeepAlive() throws Exception {
        server = ServiceBusEmulatorServer.builder(namespace).httpPort(0).start();
        Socket socket = open(
                server.httpPort(),
                "GET /health HTTP/1.1\nHost: x\n\nGET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        String answer = readAll(socket);
        assertEquals(2, answer.split("HTTP/1.1 200", -1).length - 1, answer);
        OutputStream unused = socket.getOutputStream();
        assertTrue(unused != null);
        await().atMost(WAIT).until(() -> health(server.httpPort()).statusCode() == 200);
    }

    @Test
    @DisplayName("RES-3 a request that waits for 100 Continue gets it and is answered once its body follows")
    void expectContinue() throws Exception {
        server = ServiceBusEmulatorServer.builder(namespace)
                .httpPort(0)
                .acceptAnyKey()
                .start();
        String body = "{\"duration\":\"PT1M\"}";
        Socket socket = open(
                server.httpPort(),
                "POST /__admin/clock/advance HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Expect: 100-continue\r\nConnection: close\r\nContent-Length: " + body.length()
                        + "\r\n\r\n");
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[64];
        int n = in.read(buffer);
        String continued = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
        assertTrue(continued.startsWith("HTTP/1.1 100"), continued);
        socket.getOutputStream().write(body.getBytes(StandardCharsets.ISO_8859_1));
        String answer = readAll(socket);
        assertTrue(answer.contains("HTTP/1.1 200"), continued + answer);
        assertFalse(answer.contains("100 Continue"), "one 100 Continue only: " + continued + answer);
    }

    @Test
    @DisplayName("RES-3 clients that trickle a large body (over 32 KB) or the body they announced with Expect: "
            + "100-continue, more of them than the HTTP workers, hold none of the workers: /health answers on both "
            + "ports")
    void slowLargeBodiesHoldNoWorker() throws Exception {
        server = ServiceBusEmulatorServer.builder(namespace)
                .httpPort(0)
                .acceptAnyKey()
                .start();
        String part = "{\"duration\":\"PT1M\",\"pad\":\"" + "x".repeat(40_000);
        for (int port : new int[] {server.httpPort(), server.port()}) {
            for (int i = 0; i < 6; i++) {
                open(port, "POST /__admin/clock/advance HTTP/1.1\r\nHost: x\r\nContent-Length: 500000\r\n\r\n" + part);
                Socket expecting = open(
                        port,
                        "POST /__admin/clock/advance HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                                + "Content-Length: 100\r\n\r\n");
                String continued = readResponse(expecting);
                assertTrue(continued.startsWith("HTTP/1.1 100 Continue\r\n"), continued);
                expecting.getOutputStream().write("{\"dur".getBytes(StandardCharsets.ISO_8859_1));
            }
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> answer = health(port);
                assertEquals(200, answer.statusCode(), answer.body());
            }
        }
    }

    @Test
    @DisplayName("RES-3 a complete request larger than 32 KB is answered; one whose Content-Length is over the 1 MB "
            + "the server takes is answered 413 at once, without a 100 Continue (RFC 9110 10.1.1)")
    void largeRequests() throws Exception {
        server = ServiceBusEmulatorServer.builder(namespace)
                .httpPort(0)
                .acceptAnyKey()
                .start();
        String body = "{\"duration\":\"PT1M\",\"pad\":\"" + "x".repeat(100_000) + "\"}";
        Socket large = open(
                server.httpPort(),
                "POST /__admin/clock/advance HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Expect: 100-continue\r\nContent-Length: " + body.length() + "\r\n\r\n");
        String continued = readResponse(large);
        assertTrue(continued.startsWith("HTTP/1.1 100 Continue\r\n"), continued);
        large.getOutputStream().write(body.getBytes(StandardCharsets.ISO_8859_1));
        String answer = readResponse(large);
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        Instant before = namespace.clock().instant();
        large.getOutputStream()
                .write(("POST /__admin/clock/advance HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length()
                                + "\r\n\r\n" + body)
                        .getBytes(StandardCharsets.ISO_8859_1));
        answer = readResponse(large);
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertEquals(before.plus(Duration.ofMinutes(1)), namespace.clock().instant());

        Socket tooLarge = open(
                server.httpPort(),
                "POST /__admin/clock/advance HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                        + "Content-Length: 2000000\r\n\r\n");
        String refused = readAll(tooLarge);
        assertTrue(refused.startsWith("HTTP/1.1 413 "), refused);
        assertTrue(refused.contains("\"error\":\"RequestTooLarge\""), refused);
    }

    @Test
    @DisplayName("RES-3 an HTTP connection past the 256 open at once is answered 503 with Retry-After and closed, "
            + "not left unanswered; once one closes, a new one is served")
    void connectionsPastTheLimitAreAnswered503() throws Exception {
        server = ServiceBusEmulatorServer.builder(namespace)
                .httpPort(0)
                .idleTimeout(Duration.ofHours(1))
                .requestReadTimeout(Duration.ofHours(1))
                .start();
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            held.add(open(server.httpPort(), "GET /health HTTP/1.1\r\nHost: x\r\nX-Held: " + i + "\r\n"));
        }
        String health = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        // the held ones reach the splice in their own time: until all have, one more is still served
        AtomicReference<String> answer = new AtomicReference<>();
        await().atMost(WAIT).until(() -> {
            answer.set(readAll(open(server.httpPort(), health)));
            return !answer.get().startsWith("HTTP/1.1 200");
        });
        assertTrue(answer.get().startsWith("HTTP/1.1 503 Service Unavailable\r\n"), answer.get());
        assertTrue(answer.get().contains("\r\nRetry-After: 1\r\n"), answer.get());
        assertTrue(answer.get().contains("HTTP connections open"), answer.get());

        held.get(0).close();
        await().atMost(WAIT)
                .until(() -> readAll(open(server.httpPort(), health)).startsWith("HTTP/1.1 200"));
    }
}
