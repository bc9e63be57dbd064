package dev.sbemu.amqp.internal.http;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.HttpHandOver;
import dev.sbemu.amqp.internal.transport.ProtocolSniffer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * HTTP on the AMQP port: a connection whose first bytes are an HTTP method ({@link ProtocolSniffer#isHttpStart}) is handed over
 * here by its {@link AmqpConnection} and joined to the endpoint's internal HTTP server ({@link HttpFront}), byte for
 * byte both ways, on one thread of its own with one selector. Each direction has a 16 KB buffer: a side that does
 * not read holds the other back, never the heap. A pair closes when either side has closed and what it sent is
 * passed on, on an error, or after the idle timeout without a byte either way; at most {@value #MAX_SPLICES} pairs
 * are open (more are closed at once).
 */
public final class HttpSplice implements HttpHandOver, AutoCloseable {
    static final int MAX_SPLICES = 256;
    private static final int BUFFER = 16 * 1024;
    private static final Logger LOG = Logger.getLogger(HttpSplice.class.getName());

    private final InetSocketAddress upstream;
    private final long idleNanos;
    private final Selector selector;
    private final Thread thread;
    private final Queue<Pair> incoming = new ConcurrentLinkedQueue<>();
    private final List<Pair> pairs = new ArrayList<>();
    private volatile boolean closing;

    public HttpSplice(InetSocketAddress upstream, long idleNanos, String name) {
        this.upstream = upstream;
        this.idleNanos = idleNanos;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot open a selector for HTTP on the AMQP port", e);
        }
        this.thread = new Thread(this::run, name + "-http-splice");
        thread.setDaemon(true);
        thread.start();
    }

    /** Joins {@code client} (non-blocking, already read from: {@code head}) to the HTTP server. Any thread. */
    @Override
    public void handOver(SocketChannel client, ByteBuffer head) {
        if (closing) {
            closeQuietly(client);
            return;
        }
        incoming.add(new Pair(client, head));
        selector.wakeup();
    }

    private final class Pair {
        final SocketChannel client;
        SocketChannel server;
        final ByteBuffer toServer;
        final ByteBuffer toClient = ByteBuffer.allocate(BUFFER);
        SelectionKey clientKey;
        SelectionKey serverKey;
        boolean clientDone;
        boolean serverDone;
        boolean connected;
        long lastActive = System.nanoTime();

        Pair(SocketChannel client, ByteBuffer head) {
            this.client = client;
            this.toServer = ByteBuffer.allocate(Math.max(BUFFER, head.remaining()));
            toServer.put(head);
        }

        void start() throws IOException {
            server = SocketChannel.open();
            server.configureBlocking(false);
            server.socket().setTcpNoDelay(true);
            connected = server.connect(upstream);
            clientKey = client.register(selector, 0, this);
            serverKey = server.register(selector, 0, this);
            interest();
        }

        void onReady(SelectionKey key) throws IOException {
            lastActive = System.nanoTime();
            if (key == serverKey && key.isConnectable() && server.finishConnect()) {
                connected = true;
            }
            if (key == clientKey) {
                if (key.isReadable()) {
                    if (client.read(toServer) < 0) {
                        clientDone = true;
                    }
                }
                if (key.isValid() && key.isWritable()) {
                    toClient.flip();
                    client.write(toClient);
                    toClient.compact();
                }
            } else if (connected) {
                if (key.isReadable()) {
                    if (server.read(toClient) < 0) {
                        serverDone = true;
                    }
                }
                if (key.isValid() && key.isWritable()) {
                    toServer.flip();
                    server.write(toServer);
                    toServer.compact();
                }
            }
            if (connected && clientDone && toServer.position() == 0) {
                server.shutdownOutput();
            }
            if (serverDone && toClient.position() == 0 || clientDone && serverDone) {
                close();
                return;
            }
            interest();
        }

        void interest() {
            int c = 0;
            int s = 0;
            if (!clientDone && toServer.hasRemaining()) {
                c |= SelectionKey.OP_READ;
            }
            if (toClient.position() > 0) {
                c |= SelectionKey.OP_WRITE;
            }
            if (!connected) {
                s = SelectionKey.OP_CONNECT;
            } else {
                if (!serverDone && toClient.hasRemaining()) {
                    s |= SelectionKey.OP_READ;
                }
                if (toServer.position() > 0) {
                    s |= SelectionKey.OP_WRITE;
                }
            }
            clientKey.interestOps(c);
            serverKey.interestOps(s);
        }

        void close() {
            pairs.remove(this);
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    private void run() {
        try {
            while (!closing) {
                selector.select(TimeUnit.NANOSECONDS.toMillis(idleNanos) / 2 + 1);
                Pair next;
                while ((next = incoming.poll()) != null) {
                    if (pairs.size() >= MAX_SPLICES) {
                        closeQuietly(next.client);
                        continue;
                    }
                    pairs.add(next);
                    try {
                        next.start();
                    } catch (IOException | RuntimeException e) {
                        LOG.log(Level.FINE, "HTTP hand-over failed", e);
                        next.close();
                    }
                }
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    Pair pair = (Pair) key.attachment();
                    if (!key.isValid()) {
                        continue;
                    }
                    try {
                        pair.onReady(key);
                    } catch (IOException | RuntimeException e) {
                        pair.close();
                    }
                }
                long now = System.nanoTime();
                for (Pair pair : new ArrayList<>(pairs)) {
                    if (now - pair.lastActive > idleNanos) {
                        pair.close();
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!closing) {
                LOG.log(Level.WARNING, "sbemu endpoint: HTTP on the AMQP port stopped", e);
            }
        } finally {
            for (Pair pair : new ArrayList<>(pairs)) {
                pair.close();
            }
            Pair left;
            while ((left = incoming.poll()) != null) {
                closeQuietly(left.client);
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
