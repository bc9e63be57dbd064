package dev.sbemu.amqp.internal.transport;

import java.net.InetAddress;
import java.time.Duration;

/**
 * The limits and timeouts the transport enforces on its listeners and every connection (AMQP-19, AMQP-13), taken from
 * the endpoint's options by {@code Endpoint}.
 *
 * @param bindAddress the address every listener binds
 * @param port the AMQP port ({@code 0}: an ephemeral one)
 * @param maxConnections connections past this are refused (their open is answered with a close)
 * @param maxFrameSize the largest frame proton-j takes
 * @param channelMax the highest channel (sessions per connection: one more)
 * @param sessionWindow a session's incoming window, in frames
 * @param linkMax links attached at once on one connection
 * @param idleTimeout a connection with no input for this long is closed
 * @param handshakeTimeout a connection not authorized within this is closed
 */
public record Limits(
        InetAddress bindAddress,
        int port,
        int maxConnections,
        int maxFrameSize,
        int channelMax,
        int sessionWindow,
        int linkMax,
        Duration idleTimeout,
        Duration handshakeTimeout,
        int maxUnauthenticatedConnections,
        int maxUnauthenticatedBytes) {}
