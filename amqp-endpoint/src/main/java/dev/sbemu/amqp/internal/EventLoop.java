package dev.sbemu.amqp.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BiFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The endpoint's one network thread: a selector over the listening socket and every connection. proton-j is
 * not thread-safe, so every proton object is touched on this thread only; other threads hand it work with
 * {@link #execute}. It binds to the loopback address only.
 */
final class EventLoop implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EventLoop.class.getName());

    private final Selector selector;
    private final ServerSocketChannel server;
    private final Thread thread;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final BiFunction<EventLoop, SocketChannel, AmqpConnection> accept;
    private final Set<AmqpConnection> connections = new LinkedHashSet<>();
    private volatile boolean closed;
    private volatile int connectionCount;

    EventLoop(int port, BiFunction<EventLoop, SocketChannel, AmqpConnection> accept, String name) {
        this.accept = accept;
        try {
            selector = Selector.open();
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.socket().getLocalPort();
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Runs {@code task} on the loop thread; dropped once the loop is closed. */
    void execute(Runnable task) {
        if (closed) {
            return;
        }
        tasks.add(task);
        selector.wakeup();
    }

    /** Number of open connections (for tests and diagnostics); call on any thread. */
    int connectionCount() {
        return connectionCount;
    }

    private void run() {
        try {
            while (!closed) {
                long now = System.currentTimeMillis();
                long deadline = Long.MAX_VALUE;
                for (AmqpConnection c : new ArrayList<>(connections)) {
                    long[] next = {0};
                    guarded(c, () -> next[0] = c.tick(now));
                    if (next[0] > 0) {
                        deadline = Math.min(deadline, next[0]);
                    }
                }
                long timeout = deadline == Long.MAX_VALUE ? 0 : Math.max(1, deadline - now);
                if (tasks.isEmpty()) {
                    selector.select(timeout);
                } else {
                    selector.selectNow();
                }
                if (closed) {
                    break;
                }
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        acceptConnections();
                    } else if (key.attachment() instanceof AmqpConnection c) {
                        guarded(c, () -> {
                            if (key.isReadable()) {
                                c.onReadable();
                            }
                            if (key.isValid() && key.isWritable()) {
                                c.flush();
                            }
                        });
                    }
                }
                Runnable task;
                while ((task = tasks.poll()) != null) {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "sbemu AMQP endpoint: a task failed", e);
                    }
                }
                for (AmqpConnection c : new ArrayList<>(connections)) {
                    guarded(c, c::afterWork);
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!closed) {
                LOG.log(Level.WARNING, "sbemu AMQP endpoint: the network loop stopped", e);
            }
        } finally {
            for (AmqpConnection c : new ArrayList<>(connections)) {
                c.abort();
            }
            connections.clear();
            connectionCount = 0;
        }
    }

    /** Runs one connection's work; whatever it throws drops that connection only. */
    private void guarded(AmqpConnection connection, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "sbemu AMQP endpoint: dropping a connection after an unexpected failure", e);
            connection.abort();
        }
    }

    private void acceptConnections() {
        while (true) {
            SocketChannel channel = null;
            try {
                channel = server.accept();
                if (channel == null) {
                    return;
                }
                channel.configureBlocking(false);
                channel.socket().setTcpNoDelay(true);
                AmqpConnection connection = accept.apply(this, channel);
                connection.register(channel.register(selector, SelectionKey.OP_READ, connection));
                connections.add(connection);
                connectionCount = connections.size();
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "sbemu AMQP endpoint: could not accept a connection", e);
                if (channel == null) {
                    return;
                }
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // dropping it anyway
                }
            }
        }
    }

    /** Called by a connection whose socket closed. */
    void removed(AmqpConnection connection) {
        connections.remove(connection);
        connectionCount = connections.size();
    }

    /** Stops accepting, closes every connection and ends the thread. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        selector.wakeup();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        if (!inLoop()) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        tasks.clear();
    }
}
