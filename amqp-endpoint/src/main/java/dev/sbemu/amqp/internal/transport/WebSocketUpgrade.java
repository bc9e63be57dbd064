package dev.sbemu.amqp.internal.transport;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The opening handshake of AMQP over WebSockets (AMQP-26; RFC 6455 §4.2): reads the client's upgrade request to
 * {@value #PATH} and answers it with {@code 101 Switching Protocols}, or refuses it with an HTTP status and a line of
 * text that says why. Pure functions of the request's bytes; {@link WebSocketLayer} owns the connection's state.
 */
final class WebSocketUpgrade {
    /** Where every Azure SDK dials (the Java SDK without, .NET and Python with a trailing slash). */
    static final String PATH = "/$servicebus/websocket";

    /** The largest upgrade request head taken (request line and headers); the SDKs' are a few hundred bytes. */
    static final int MAX_HEAD = 8 * 1024;

    /** The subprotocols served: the AMQP WebSocket binding's and the name the Go SDK's sample dials with. */
    private static final String[] SUBPROTOCOLS = {"AMQPWSB10", "amqp"};

    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private WebSocketUpgrade() {}

    /** The answer to an upgrade request: the bytes to send and whether the connection now speaks WebSocket frames. */
    record Answer(byte[] bytes, boolean upgraded, String refusal) {}

    /**
     * Answers the request {@code head} (its bytes up to, not including, the blank line): {@code 101} with
     * {@code Sec-WebSocket-Accept} and the chosen subprotocol, or a refusal (400 malformed, 404 another path, 405
     * another method, 426 not an upgrade to WebSocket version 13).
     */
    static Answer answer(String head) {
        String[] lines = head.split("\r\n", -1);
        String[] request = lines[0].split(" ", -1);
        if (request.length != 3 || !request[2].startsWith("HTTP/1.")) {
            return refuse(400, "Bad Request", "The request line is not an HTTP/1.1 request line.");
        }
        if (!request[0].equals("GET")) {
            return refuse(405, "Method Not Allowed", "AMQP over WebSockets takes a GET upgrade request.");
        }
        String target = request[1];
        int scheme = target.indexOf("://");
        if (scheme > 0 && target.regionMatches(true, 0, "http", 0, 4)) {
            // the absolute form (RFC 9112 §3.2.2), which the Java SDK's WebSocket layer sends: https://host/path
            int slash = target.indexOf('/', scheme + 3);
            target = slash < 0 ? "/" : target.substring(slash);
        }
        int query = target.indexOf('?');
        String path = query < 0 ? target : target.substring(0, query);
        if (!path.equals(PATH) && !path.equals(PATH + "/")) {
            return refuse(404, "Not Found", "AMQP over WebSockets is served at " + PATH + " only.");
        }
        if (!request[2].equals("HTTP/1.1")) {
            return refuse(400, "Bad Request", "A WebSocket upgrade needs HTTP/1.1.");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                return refuse(400, "Bad Request", "A header line has no name: the request is malformed.");
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            headers.merge(name, value, (a, b) -> a + "," + b);
        }
        if (!headers.containsKey("host")) {
            return refuse(400, "Bad Request", "The upgrade request has no Host header.");
        }
        if (!hasToken(headers.get("upgrade"), "websocket") || !hasToken(headers.get("connection"), "upgrade")) {
            return refuse(
                    426,
                    "Upgrade Required",
                    PATH + " serves AMQP over WebSockets only: send Upgrade: websocket and Connection: Upgrade.");
        }
        if (!"13".equals(headers.get("sec-websocket-version"))) {
            return refuse(426, "Upgrade Required", "Only WebSocket version 13 (RFC 6455) is served.");
        }
        String key = headers.get("sec-websocket-key");
        if (key == null || !validKey(key)) {
            return refuse(400, "Bad Request", "Sec-WebSocket-Key must be 16 bytes in base64.");
        }
        String offered = headers.get("sec-websocket-protocol");
        String chosen = null;
        if (offered != null) {
            chosen = choose(offered);
            if (chosen == null) {
                return refuse(
                        400,
                        "Bad Request",
                        "None of the offered subprotocols (" + offered + ") is served: offer AMQPWSB10.");
            }
        }
        String response = "HTTP/1.1 101 Switching Protocols\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + accept(key) + "\r\n"
                + (chosen == null ? "" : "Sec-WebSocket-Protocol: " + chosen + "\r\n")
                + "\r\n";
        return new Answer(response.getBytes(StandardCharsets.ISO_8859_1), true, null);
    }

    /** A refusal: a short {@code text/plain} body that says why, and the connection closes. */
    static Answer refuse(int status, String reason, String text) {
        byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + reason + "\r\n"
                + (status == 426 ? "Sec-WebSocket-Version: 13\r\nUpgrade: websocket\r\n" : "")
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "Connection: close\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return new Answer(all, false, status + " " + text);
    }

    /** The first served subprotocol among the offered ones (in the client's order), or null. */
    private static String choose(String offered) {
        for (String token : offered.split(",")) {
            for (String served : SUBPROTOCOLS) {
                if (token.trim().equals(served)) {
                    return served;
                }
            }
        }
        return null;
    }

    private static boolean hasToken(String value, String token) {
        if (value == null) {
            return false;
        }
        for (String part : value.split(",")) {
            if (part.trim().equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }

    private static boolean validKey(String key) {
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code Sec-WebSocket-Accept}: base64 of the SHA-1 of the key and RFC 6455's GUID (§4.2.2). */
    static String accept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return Base64.getEncoder()
                    .encodeToString(sha1.digest((key + ACCEPT_GUID).getBytes(StandardCharsets.ISO_8859_1)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }
}
