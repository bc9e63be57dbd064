package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.Namespace;
import java.io.ByteArrayOutputStream;
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
import java.util.ArrayList;
import java.util.List;
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
    }
}
