package dev.sbemu.amqp.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * The HTTP server's answers on their way back through {@link HttpSplice}, followed response by response so that a
 * refusal gets the service's text as its reason phrase (SEC-6: the service answers a subscription operation without
 * Manage with {@code 401 SubCode=40100: Unauthorized : ...}, which the Go SDK's error shows), where the JDK's
 * {@code HttpServer} can send only the standard phrase. {@link HttpFront} names the phrase in a {@value #REASON}
 * header; here it replaces the status line's phrase and the header is dropped. The answer never grows (the header
 * is longer than the phrase it moves).
 *
 * <p>It follows the framing the endpoint's HTTP server writes: a head, then {@code Content-Length} bytes; no body
 * for a 1xx, 204 or 304 answer or the answer to a HEAD request. Anything else (a chunked answer, one without a
 * length, a head over the buffer, an answer without a request) turns it off for the rest of the connection: bytes
 * then pass as they are. Used by the splice's one thread.
 */
final class ResponseHeads {
    /** The response header whose value becomes the reason phrase. */
    static final String REASON = "Sbemu-Reason";

    private static final int MAX_PENDING = 1024;

    /** Per request passed on and not answered yet: whether it was a HEAD request. */
    private final ArrayDeque<Boolean> requests = new ArrayDeque<>();
    /** Bytes of the current answer's body still to pass. */
    private long body;

    private boolean passThrough;

    /** A request went to the server. */
    void requestPassedOn(String method) {
        if (requests.size() >= MAX_PENDING) {
            passThrough = true;
            return;
        }
        requests.add(method.equalsIgnoreCase("HEAD"));
    }

    /** The server closed its side: what is left passes as it is. */
    void serverDone() {
        passThrough = true;
    }

    /** Moves what can go from {@code in} (read mode) to {@code out} (write mode), rewriting heads on the way. */
    void transfer(ByteBuffer in, ByteBuffer out) {
        while (in.hasRemaining() && out.hasRemaining()) {
            if (passThrough || body > 0) {
                int n = (int) Math.min(in.remaining(), out.remaining());
                if (!passThrough) {
                    n = (int) Math.min(n, body);
                    body -= n;
                }
                ByteBuffer slice = in.slice();
                slice.limit(n);
                out.put(slice);
                in.position(in.position() + n);
                continue;
            }
            int end = headEnd(in);
            if (end < 0) {
                if (in.remaining() == in.capacity()) {
                    passThrough = true; // a head larger than the buffer: not one of the server's
                }
                return;
            }
            byte[] raw = new byte[end - in.position()];
            in.duplicate().get(raw);
            byte[] head = rewrite(new String(raw, StandardCharsets.ISO_8859_1));
            if (head == null) {
                passThrough = true;
                continue; // the head goes on as it is
            }
            if (out.remaining() < head.length) {
                return;
            }
            out.put(head);
            in.position(end);
        }
    }

    /**
     * The head as it goes to the client, and the body that follows it noted; null when the answer cannot be
     * followed.
     */
    private byte[] rewrite(String head) {
        String[] lines = head.split("\r\n");
        String[] status = lines[0].split(" ", 3);
        int code;
        try {
            code = status.length >= 2 && status[0].startsWith("HTTP/") ? Integer.parseInt(status[1]) : -1;
        } catch (NumberFormatException e) {
            code = -1;
        }
        if (code < 100 || code > 999) {
            return null;
        }
        String reason = null;
        long length = -1;
        boolean chunked = false;
        StringBuilder rest = new StringBuilder();
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            String name = colon < 0 ? "" : line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = colon < 0 ? "" : line.substring(colon + 1).trim();
            if (name.equals(REASON.toLowerCase(Locale.ROOT))) {
                reason = value;
                continue;
            }
            if (name.equals("content-length")) {
                try {
                    length = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    return null;
                }
            } else if (name.equals("transfer-encoding")) {
                chunked = true;
            }
            rest.append(line).append("\r\n");
        }
        if (code >= 200) {
            Boolean headRequest = requests.poll();
            if (headRequest == null) {
                return null;
            }
            if (!headRequest && code != 204 && code != 304) {
                if (chunked || length < 0) {
                    return null;
                }
                body = length;
            }
        }
        String statusLine = reason == null || reason.isEmpty() ? lines[0] : status[0] + " " + status[1] + " " + reason;
        return (statusLine + "\r\n" + rest + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The index just after the blank line that ends the head starting at {@code in}'s position, or -1. */
    private static int headEnd(ByteBuffer in) {
        for (int i = in.position() + 3; i < in.limit(); i++) {
            if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                return i + 1;
            }
        }
        return -1;
    }
}
