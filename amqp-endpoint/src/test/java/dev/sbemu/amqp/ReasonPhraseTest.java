package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.Namespace;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The service's reason phrase on a refused subscription operation, as the Go SDK reads it from the status line
 * (its {@code TestAdminClient_LackPermissions_Subscription}), through the endpoint's port on a raw keep-alive
 * connection: answers before and after it keep their framing.
 */
class ReasonPhraseTest {
    private static final String KEY = "root-key";

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.sharedAccessKey(KEY));

    private ServiceBusEmulatorServer server;

    @BeforeEach
    void policies(Namespace namespace, ServiceBusEmulatorServer server) {
        this.server = server;
        namespace.createTopic("t");
        namespace.createSubscription("t", "s");
        namespace.authorizationRules(
                List.of(AuthorizationRule.of("NoManage", "no-manage-key", AccessRight.SEND, AccessRight.LISTEN)));
    }

    /** A status line, the head's other lines and the body. */
    private record Answer(String status, String head, String body) {}

    @Test
    @DisplayName("SEC-6 a subscription operation without Manage is answered 401 with the service's text as the reason"
            + " phrase; the answers around it on the same connection keep theirs and their bodies")
    void subscriptionRefusalCarriesItsTextInTheStatusLine() throws Exception {
        String noManage = HttpEndpointTest.token("NoManage", "no-manage-key");
        String manage = HttpEndpointTest.token(KEY);
        List<Answer> answers = exchange(
                request("GET", "/t?api-version=2021-05", manage),
                request("GET", "/t/Subscriptions/s?api-version=2021-05", noManage),
                request("HEAD", "/t?api-version=2021-05", manage),
                request("GET", "/t/Subscriptions?api-version=2021-05", noManage),
                request("GET", "/t?api-version=2021-05", noManage),
                request("GET", "/t/Subscriptions/s?api-version=2021-05", manage));

        assertEquals("HTTP/1.1 200 OK", answers.get(0).status());
        assertTrue(
                answers.get(0).body().contains("<TopicDescription"),
                answers.get(0).body());
        Answer refused = answers.get(1);
        assertTrue(
                refused.status()
                        .startsWith("HTTP/1.1 401 SubCode=40100: Unauthorized : Unauthorized access for"
                                + " 'GetSubscription' operation on endpoint 'sb://"),
                refused.status());
        assertFalse(refused.head().toLowerCase(Locale.ROOT).contains("sbemu-reason"), refused.head());
        assertTrue(refused.body().contains("SubCode=40100"), refused.body());
        assertEquals("", answers.get(2).body());
        assertTrue(
                answers.get(3).status().contains("'EnumerateSubscriptions'"),
                answers.get(3).status());
        // the other refusals keep the standard phrase, as the service's (the Go SDK's tests match "401 Unauthorized")
        assertEquals("HTTP/1.1 401 Unauthorized", answers.get(4).status());
        assertEquals("HTTP/1.1 200 OK", answers.get(5).status());
        assertTrue(
                answers.get(5).body().contains("<SubscriptionDescription"),
                answers.get(5).body());
    }

    private String request(String method, String path, String token) {
        return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nAuthorization: " + token
                + "\r\n\r\n";
    }

    /** Sends the requests at once on one connection and reads their answers in order. */
    private List<Answer> exchange(String... requests) throws IOException {
        List<String> methods = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (String request : requests) {
            methods.add(request.substring(0, request.indexOf(' ')));
            all.append(request);
        }
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(all.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            List<Answer> answers = new ArrayList<>();
            for (String method : methods) {
                String head = readHead(in);
                String status = head.substring(0, head.indexOf("\r\n"));
                int length = 0;
                for (String line : head.split("\r\n")) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:") && !method.equals("HEAD")) {
                        length = Integer.parseInt(
                                line.substring("content-length:".length()).trim());
                    }
                }
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                answers.add(new Answer(status, head, body));
            }
            return answers;
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed in a head: " + head);
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
