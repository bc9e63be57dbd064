package dev.sbemu.amqp;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The limits of a {@link ServiceBusEmulatorServer}'s endpoint and its loop's rules (docs/spec.md AMQP-19 gives each
 * default with its source): part of {@link EndpointSettings}. Every duration is measured on the monotonic clock
 * ({@code System.nanoTime}), never on the wall clock or the namespace's virtual clock. Immutable; {@link #defaults()}
 * and the {@code with...} copies are the way to make one.
 *
 * <p>The standalone server has a command-line flag and an {@code SBEMU_*} variable for each component (its test
 * fails when one is missing), so a new limit is added here, in the server's table of flags, and in spec AMQP-19.
 *
 * @param maxConnections the most connections open at once (default 5,000, the service's AMQP quota); more are
 *     refused with {@code amqp:resource-limit-exceeded}
 * @param maxFrameSize the largest AMQP frame the endpoint reads and announces in its open (default 64 KB, the Java
 *     SDK's own; at least 512); each connection holds an input and an output buffer of this size
 * @param idleTimeout the idle timeout the endpoint announces (default 60 s): a connection silent for this long is
 *     closed; clients keep it alive with heartbeats
 * @param channelMax the highest session channel a client may begin (default 1,023: 1,024 sessions per connection;
 *     0 to 65,535)
 * @param linkMax the most links attached at once on one connection (default 1,000); more are refused
 * @param sessionWindow each session's incoming window, in frames (default 2,048)
 * @param linkCredit the credit of each link a client sends on, topped up once half is used (default 500)
 * @param workerThreads the most threads that wait in the broker for clients (default 512): one per link whose calls a
 *     scripted delay holds; work beyond them is refused with {@code amqp:resource-limit-exceeded}
 * @param handshakeTimeout how long a connection may take from TCP connect to a token accepted on {@code $cbs}
 *     (default 30 s) before it is closed
 * @param maxOperationTimeout the cap on a client's {@code com.microsoft:timeout}, e.g. how long a session accept
 *     waits (default 5 minutes)
 * @param maxRequestSize the largest {@code $cbs} request, a token, in bytes (default 64 KB); larger deliveries are cut
 *     off
 * @param unauthenticatedCredit the credit of a {@code $cbs} link before the connection has a token (default 10)
 * @param maxTransactionsPerConnection the most transactions one connection holds declared and not discharged (default
 *     1,000); a Declare beyond is rejected with {@code amqp:resource-limit-exceeded}. A connection's transactions are
 *     rolled back when it ends (RES-1)
 * @param requestReadTimeout how long an HTTP request may take from its first byte until it is complete (default 30
 *     s); a slower one is answered 408 and its connection closed. Requests reach the HTTP server's workers only
 *     once complete, so slow clients hold none of them (RES-3)
 * @param maxUnauthenticatedConnections the most connections open at once that have no token accepted yet (default
 *     500: each costs about 163 KB of heap, so 500 hold about 80 MB, a sixth of a 512 MB heap; each may also attach
 *     at most 16 links before its token); more are refused like connections past {@code maxConnections} (RES-7)
 * @param maxUnauthenticatedBytes the most bytes of incomplete deliveries a connection may hold, over all its links,
 *     before a token was accepted (default 256 KB, four of the largest tokens); past it the connection is closed
 *     with {@code amqp:resource-limit-exceeded} (RES-7)
 */
public record EndpointLimits(
        int maxConnections,
        int maxFrameSize,
        Duration idleTimeout,
        int channelMax,
        int linkMax,
        int sessionWindow,
        int linkCredit,
        int workerThreads,
        Duration handshakeTimeout,
        Duration maxOperationTimeout,
        int maxRequestSize,
        int unauthenticatedCredit,
        int maxTransactionsPerConnection,
        Duration requestReadTimeout,
        int maxUnauthenticatedConnections,
        int maxUnauthenticatedBytes) {

    private static final EndpointLimits DEFAULTS = new EndpointLimits(
            5_000,
            64 * 1024,
            Duration.ofMinutes(1),
            1_023,
            1_000,
            2_048,
            500,
            512,
            Duration.ofSeconds(30),
            Duration.ofMinutes(5),
            64 * 1024,
            10,
            1_000,
            Duration.ofSeconds(30),
            500,
            256 * 1024);

    /**
     * Checks every limit.
     *
     * @throws IllegalArgumentException naming the first limit out of range
     */
    public EndpointLimits {
        positive("maxConnections", maxConnections);
        if (maxFrameSize < 512) {
            throw new IllegalArgumentException(
                    "maxFrameSize must be at least 512 (AMQP's minimum), was " + maxFrameSize);
        }
        positive("idleTimeout", idleTimeout);
        if (channelMax < 0 || channelMax > 65_535) {
            throw new IllegalArgumentException("channelMax must be between 0 and 65535, was " + channelMax);
        }
        positive("linkMax", linkMax);
        positive("sessionWindow", sessionWindow);
        positive("linkCredit", linkCredit);
        positive("workerThreads", workerThreads);
        positive("handshakeTimeout", handshakeTimeout);
        positive("maxOperationTimeout", maxOperationTimeout);
        positive("maxRequestSize", maxRequestSize);
        positive("unauthenticatedCredit", unauthenticatedCredit);
        positive("maxTransactionsPerConnection", maxTransactionsPerConnection);
        positive("requestReadTimeout", requestReadTimeout);
        positive("maxUnauthenticatedConnections", maxUnauthenticatedConnections);
        positive("maxUnauthenticatedBytes", maxUnauthenticatedBytes);
    }

    /** The defaults (docs/spec.md AMQP-19). */
    public static EndpointLimits defaults() {
        return DEFAULTS;
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** A copy with maxConnections set to {@code value}. */
    public EndpointLimits withMaxConnections(int value) {
        return copy(c -> c.maxConnections = value);
    }

    /** A copy with maxFrameSize set to {@code value}. */
    public EndpointLimits withMaxFrameSize(int value) {
        return copy(c -> c.maxFrameSize = value);
    }

    /** A copy with idleTimeout set to {@code value}. */
    public EndpointLimits withIdleTimeout(Duration value) {
        return copy(c -> c.idleTimeout = value);
    }

    /** A copy with channelMax set to {@code value}. */
    public EndpointLimits withChannelMax(int value) {
        return copy(c -> c.channelMax = value);
    }

    /** A copy with linkMax set to {@code value}. */
    public EndpointLimits withLinkMax(int value) {
        return copy(c -> c.linkMax = value);
    }

    /** A copy with sessionWindow set to {@code value}. */
    public EndpointLimits withSessionWindow(int value) {
        return copy(c -> c.sessionWindow = value);
    }

    /** A copy with linkCredit set to {@code value}. */
    public EndpointLimits withLinkCredit(int value) {
        return copy(c -> c.linkCredit = value);
    }

    /** A copy with workerThreads set to {@code value}. */
    public EndpointLimits withWorkerThreads(int value) {
        return copy(c -> c.workerThreads = value);
    }

    /** A copy with handshakeTimeout set to {@code value}. */
    public EndpointLimits withHandshakeTimeout(Duration value) {
        return copy(c -> c.handshakeTimeout = value);
    }

    /** A copy with maxOperationTimeout set to {@code value}. */
    public EndpointLimits withMaxOperationTimeout(Duration value) {
        return copy(c -> c.maxOperationTimeout = value);
    }

    /** A copy with maxRequestSize set to {@code value}. */
    public EndpointLimits withMaxRequestSize(int value) {
        return copy(c -> c.maxRequestSize = value);
    }

    /** A copy with unauthenticatedCredit set to {@code value}. */
    public EndpointLimits withUnauthenticatedCredit(int value) {
        return copy(c -> c.unauthenticatedCredit = value);
    }

    /** A copy with maxTransactionsPerConnection set to {@code value}. */
    public EndpointLimits withMaxTransactionsPerConnection(int value) {
        return copy(c -> c.maxTransactionsPerConnection = value);
    }

    /** A copy with requestReadTimeout set to {@code value}. */
    public EndpointLimits withRequestReadTimeout(Duration value) {
        return copy(c -> c.requestReadTimeout = value);
    }

    /** A copy with maxUnauthenticatedConnections set to {@code value}. */
    public EndpointLimits withMaxUnauthenticatedConnections(int value) {
        return copy(c -> c.maxUnauthenticatedConnections = value);
    }

    /** A copy with maxUnauthenticatedBytes set to {@code value}. */
    public EndpointLimits withMaxUnauthenticatedBytes(int value) {
        return copy(c -> c.maxUnauthenticatedBytes = value);
    }

    /** This record with {@code change} made to a mutable copy of its components (the one place a copy is built). */
    private EndpointLimits copy(Consumer<Copy> change) {
        Copy copy = new Copy();
        change.accept(copy);
        return copy.build();
    }

    /** The components of the record being copied, for {@link #copy} to change one of them. */
    private final class Copy {
        private int maxConnections = maxConnections();
        private int maxFrameSize = maxFrameSize();
        private Duration idleTimeout = idleTimeout();
        private int channelMax = channelMax();
        private int linkMax = linkMax();
        private int sessionWindow = sessionWindow();
        private int linkCredit = linkCredit();
        private int workerThreads = workerThreads();
        private Duration handshakeTimeout = handshakeTimeout();
        private Duration maxOperationTimeout = maxOperationTimeout();
        private int maxRequestSize = maxRequestSize();
        private int unauthenticatedCredit = unauthenticatedCredit();
        private int maxTransactionsPerConnection = maxTransactionsPerConnection();
        private Duration requestReadTimeout = requestReadTimeout();
        private int maxUnauthenticatedConnections = maxUnauthenticatedConnections();
        private int maxUnauthenticatedBytes = maxUnauthenticatedBytes();

        EndpointLimits build() {
            return new EndpointLimits(
                    maxConnections,
                    maxFrameSize,
                    idleTimeout,
                    channelMax,
                    linkMax,
                    sessionWindow,
                    linkCredit,
                    workerThreads,
                    handshakeTimeout,
                    maxOperationTimeout,
                    maxRequestSize,
                    unauthenticatedCredit,
                    maxTransactionsPerConnection,
                    requestReadTimeout,
                    maxUnauthenticatedConnections,
                    maxUnauthenticatedBytes);
        }
    }
}
