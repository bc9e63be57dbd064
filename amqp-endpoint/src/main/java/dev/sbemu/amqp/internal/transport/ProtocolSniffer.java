package dev.sbemu.amqp.internal.transport;

/**
 * Tells HTTP from AMQP by a connection's first bytes: both listeners (the AMQP port and the HTTP port) speak both
 * (HTTP-1). An HTTP request line starts with a method's first letter; AMQP with 'A' ({@code AMQP} of its protocol
 * header). The TLS port speaks AMQP only.
 */
public final class ProtocolSniffer {
    /**
     * The most bytes read before a connection is known to be AMQP: a protocol header's length, as many as a new
     * transport takes before it knows which header (SASL or AMQP) came.
     */
    static final int FIRST_READ = 8;

    private ProtocolSniffer() {}

    /** True when {@code first} starts an HTTP request line (an HTTP method's first letter; AMQP starts with 'A'). */
    public static boolean isHttpStart(byte first) {
        return switch (first) {
            case 'G', 'P', 'D', 'H', 'O', 'T', 'C' -> true; // GET POST PUT PATCH DELETE HEAD OPTIONS TRACE CONNECT
            default -> false;
        };
    }
}
