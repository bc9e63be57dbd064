package dev.sbemu.amqp.internal;

import dev.sbemu.amqp.EndpointLimits;
import dev.sbemu.amqp.EndpointSettings;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * The loop's view of the public {@link EndpointSettings} ({@link #of}): the bind address, the AMQP port and the
 * {@link EndpointLimits}; docs/spec.md AMQP-19 gives each default with its source. All durations are measured on
 * {@code System.nanoTime}, never on the wall clock or the namespace's virtual clock.
 *
 * @param bindAddress the address to listen on (loopback by default)
 * @param port the port, 0 for an ephemeral one
 * @param maxConnections open connections beyond this are refused with {@code amqp:resource-limit-exceeded}
 * @param maxFrameSize the largest frame the endpoint reads (and its open's max-frame-size)
 * @param idleTimeout the open's idle-time-out: a connection silent for this long is closed; proton-j sends
 *     heartbeats at half the client's
 * @param channelMax the highest channel (session) number a client may begin
 * @param linkMax the most links one connection may have attached at once
 * @param sessionWindow the incoming window of each session, in frames
 * @param linkCredit the credit of each link the client sends on, topped up once half is used
 * @param workerThreads the most threads that wait in the broker for links (receivers, session accepts, held calls);
 *     work beyond them is refused with {@code amqp:resource-limit-exceeded}
 * @param handshakeTimeout how long a connection may take from TCP connect to a token accepted on {@code $cbs}
 * @param maxOperationTimeout the cap on a client's {@code com.microsoft:timeout} (how long a session accept waits)
 * @param maxRequestSize the largest {@code $cbs} request (a token); larger deliveries are cut off
 * @param unauthenticatedCredit the credit of a {@code $cbs} link before the connection has a token
 */
public record EndpointOptions(
        InetAddress bindAddress,
        int port,
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
        int unauthenticatedCredit) {

    public EndpointOptions {
        Objects.requireNonNull(bindAddress, "bindAddress");
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
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
        }
    }

    /** The defaults (docs/spec.md AMQP-19): those of {@link EndpointSettings#defaults()}. */
    public static EndpointOptions defaults() {
        return of(EndpointSettings.defaults());
    }

    /** The loop's view of {@code settings}: the bind address, the AMQP port and the limits. */
    public static EndpointOptions of(EndpointSettings settings) {
        EndpointLimits limits = settings.limits();
        return new EndpointOptions(
                settings.bindAddress(),
                settings.port(),
                limits.maxConnections(),
                limits.maxFrameSize(),
                limits.idleTimeout(),
                limits.channelMax(),
                limits.linkMax(),
                limits.sessionWindow(),
                limits.linkCredit(),
                limits.workerThreads(),
                limits.handshakeTimeout(),
                limits.maxOperationTimeout(),
                limits.maxRequestSize(),
                limits.unauthenticatedCredit());
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

    public EndpointOptions withBindAddress(InetAddress value) {
        return new EndpointOptions(
                value,
                port,
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
                unauthenticatedCredit);
    }

    public EndpointOptions withPort(int value) {
        return new EndpointOptions(
                bindAddress,
                value,
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
                unauthenticatedCredit);
    }

    public EndpointOptions withMaxConnections(int value) {
        return new EndpointOptions(
                bindAddress,
                port,
                value,
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
                unauthenticatedCredit);
    }

    public EndpointOptions withMaxFrameSize(int value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                value,
                idleTimeout,
                channelMax,
                linkMax,
                sessionWindow,
                linkCredit,
                workerThreads,
                handshakeTimeout,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withIdleTimeout(Duration value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                value,
                channelMax,
                linkMax,
                sessionWindow,
                linkCredit,
                workerThreads,
                handshakeTimeout,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withChannelMax(int value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                idleTimeout,
                value,
                linkMax,
                sessionWindow,
                linkCredit,
                workerThreads,
                handshakeTimeout,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withLinkMax(int value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                idleTimeout,
                channelMax,
                value,
                sessionWindow,
                linkCredit,
                workerThreads,
                handshakeTimeout,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withSessionWindow(int value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                idleTimeout,
                channelMax,
                linkMax,
                value,
                linkCredit,
                workerThreads,
                handshakeTimeout,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withLinkCredit(int value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                idleTimeout,
                channelMax,
                linkMax,
                sessionWindow,
                value,
                workerThreads,
                handshakeTimeout,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withWorkerThreads(int value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                idleTimeout,
                channelMax,
                linkMax,
                sessionWindow,
                linkCredit,
                value,
                handshakeTimeout,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withHandshakeTimeout(Duration value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                idleTimeout,
                channelMax,
                linkMax,
                sessionWindow,
                linkCredit,
                workerThreads,
                value,
                maxOperationTimeout,
                maxRequestSize,
                unauthenticatedCredit);
    }

    public EndpointOptions withMaxOperationTimeout(Duration value) {
        return new EndpointOptions(
                bindAddress,
                port,
                maxConnections,
                maxFrameSize,
                idleTimeout,
                channelMax,
                linkMax,
                sessionWindow,
                linkCredit,
                workerThreads,
                handshakeTimeout,
                value,
                maxRequestSize,
                unauthenticatedCredit);
    }
}
