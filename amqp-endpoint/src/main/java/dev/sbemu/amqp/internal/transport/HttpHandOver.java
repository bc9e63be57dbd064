package dev.sbemu.amqp.internal.transport;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Where a connection whose first bytes are an HTTP request goes ({@link ProtocolSniffer}): the HTTP side, which joins
 * it to its server. The transport knows nothing of HTTP beyond this.
 */
public interface HttpHandOver {
    /**
     * Takes {@code client} (non-blocking, already read from: {@code head}); any thread. The connection that hands it
     * over has let go of the socket.
     */
    void handOver(SocketChannel client, ByteBuffer head);
}
