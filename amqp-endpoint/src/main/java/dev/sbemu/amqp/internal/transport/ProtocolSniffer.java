package dev.sbemu.amqp.internal.transport;

import java.nio.ByteBuffer;

/**
 * Tells HTTP from AMQP by a connection's first bytes: both listeners (the AMQP port and the HTTP port) speak both
 * (HTTP-1). An HTTP request line starts with a method's first letter; AMQP with 'A' ({@code AMQP} of its protocol
 * header). A request line that starts {@value #WEBSOCKET_REQUEST} is a WebSocket upgrade for AMQP (AMQP-26), which
 * stays with the transport. The TLS port speaks AMQP, plain or over WebSockets ({@link WebSocketLayer} sniffs there).
 */
public final class ProtocolSniffer {
    /**
     * The most bytes read before a connection is known to be AMQP: a protocol header's length, as many as a new
     * transport takes before it knows which header (SASL or AMQP) came.
     */
    static final int FIRST_READ = 8;

    /** How an upgrade request for AMQP over WebSockets starts (every SDK dials this path, AMQP-26). */
    static final String WEBSOCKET_REQUEST = "GET " + WebSocketUpgrade.PATH;

    private ProtocolSniffer() {}

    /**
     * Whether {@code head} (its bytes from 0 to its position) starts a WebSocket upgrade request: 1 yes, -1 no, 0 not
     * known yet (the bytes so far agree with {@value #WEBSOCKET_REQUEST}).
     */
    static int webSocketStart(ByteBuffer head) {
        int n = Math.min(head.position(), WEBSOCKET_REQUEST.length());
        for (int i = 0; i < n; i++) {
            if (head.get(i) != WEBSOCKET_REQUEST.charAt(i)) {
                return -1;
            }
        }
        return n == WEBSOCKET_REQUEST.length() ? 1 : 0;
    }

    /** True when {@code first} starts a TLS handshake record (content type 22, RFC 8446 §5.1). */
    static boolean isTlsStart(byte first) {
        return first == 0x16;
    }

    /** True when {@code first} starts an HTTP request line (an HTTP method's first letter; AMQP starts with 'A'). */
    public static boolean isHttpStart(byte first) {
        return switch (first) {
            case 'G', 'P', 'D', 'H', 'O', 'T', 'C' -> true; // GET POST PUT PATCH DELETE HEAD OPTIONS TRACE CONNECT
            default -> false;
        };
    }
}
