package dev.sbemu.amqp.internal.transport;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * The endpoint's one network thread: a selector over the listening sockets (the AMQP port and, when asked for, the
 * HTTP port: both accept either protocol, told apart by the first bytes) and every connection. proton-j is
 * not thread-safe, so every proton object is touched on this thread only ({@link #checkThread}); other threads
 * hand it work with {@link #execute}. Whatever one connection's handling throws, {@link Error}s included, drops
 * that connection only (AMQP-13); if the loop itself cannot go on, it closes its listener and every connection
 * and logs why, rather than leave a port that accepts and never answers. Time is {@code System.nanoTime}, through
 * {@link #clock}.
 */
public final class EventLoop implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EventLoop.class.getName());
    /** How long closing waits for the clients to read the goodbye and hang up (AMQP-14). */
    private static final long GOODBYE_NANOS = TimeUnit.SECONDS.toNanos(2);

    /**
     * Builds a connection for an accepted socket; {@code refused} when it is past the connection limit, {@code tls}
     * when it came to the TLS listener.
     */
    public interface Acceptor {
        AmqpConnection accept(EventLoop loop, SocketChannel channel, boolean refused, boolean tls);
    }

    private final Selector selector;
    private final ServerSocketChannel server;
    /** The second listener (the HTTP port), or null. */
    private final ServerSocketChannel second;
    /** The TLS listener (AMQP over TLS, JMS-30), or null. */
    private final ServerSocketChannel tls;

    private final Thread thread;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Acceptor accept;
    private final Limits options;
    private final Set<AmqpConnection> connections = new LinkedHashSet<>();
    private final String name;
    /** Set by close(): the loop says goodbye, then stops. */
    private volatile boolean closing;
    /** The loop has stopped (or is stopping) for good. */
    private volatile boolean closed;

    private volatile int connectionCount;
    /** Connections accepted and not authorized yet (RES-7); any thread reads, the loop and authorizations write. */
    private final AtomicInteger unauthenticated = new AtomicInteger();
    /** Loop thread: when the goodbye was said, and how long the loop then waits for the clients. */
    private boolean goodbyeSaid;

    private final long maxStep;
    private long clock;
    private long lastReal = nowMillis();
    private long stopAt;

    public EventLoop(Limits options, Acceptor accept, String name) {
        this(options, accept, name, -1, -1);
    }

    /**
     * @param secondPort a second port to listen on at the same bind address, with the same connections and limits
     *     ({@code 0} for an ephemeral one), or -1 for none
     * @param tlsPort a port for AMQP over TLS at the same bind address, with the same connections and limits ({@code
     *     0} for an ephemeral one), or -1 for none
     */
    public EventLoop(Limits options, Acceptor accept, String name, int secondPort, int tlsPort) {
        this.accept = accept;
        this.options = options;
        this.name = name;
        this.maxStep = Math.max(
                1_000,
                Math.min(
                                options.idleTimeout().toMillis(),
                                options.handshakeTimeout().toMillis())
                        / 2);
        Selector opened = null;
        ServerSocketChannel first = null;
        ServerSocketChannel other = null;
        int binding = options.port();
        try {
            opened = Selector.open();
            first = listen(opened, options, binding);
            binding = secondPort;
            other = secondPort < 0 ? null : listen(opened, options, secondPort);
            binding = tlsPort;
            tls = tlsPort < 0 ? null : listen(opened, options, tlsPort);
        } catch (IOException | RuntimeException e) {
            closeQuietly(first);
            closeQuietly(other);
            closeQuietly(opened);
            if (e instanceof RuntimeException unchecked) {
                throw unchecked;
            }
            throw new UncheckedIOException(
                    "Cannot listen on " + options.bindAddress().getHostAddress() + ":" + binding + ": "
                            + e.getMessage(),
                    (IOException) e);
        }
        selector = opened;
        server = first;
        second = other;
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static ServerSocketChannel listen(Selector selector, Limits options, int port) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        try {
            channel.bind(new InetSocketAddress(options.bindAddress(), port));
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_ACCEPT);
            return channel;
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static void closeQuietly(Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    /** The second listener's port, or -1 when there is none. */
    public int secondPort() {
        return second == null ? -1 : second.socket().getLocalPort();
    }

    /** The TLS listener's port, or -1 when there is none. */
    public int tlsPort() {
        return tls == null ? -1 : tls.socket().getLocalPort();
    }

    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Fails unless called on the loop thread: proton-j's objects are touched there only. */
    public void checkThread() {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("sbemu AMQP endpoint: proton-j touched outside the network thread " + name
                    + ", on " + Thread.currentThread().getName());
        }
    }

    /** Runs {@code task} on the loop thread; dropped once the loop is closed. */
    public void execute(Runnable task) {
        if (closed) {
            return;
        }
        tasks.add(task);
        selector.wakeup();
    }

    /**
     * The loop's one read buffer: a connection reads its socket into it and hands proton-j only what arrived. Asking
     * proton-j for its input buffer allocates one of the max frame size, which it keeps (or, with {@code
     * proton.transport_buffer_release_threshold} below that size, drops once processed); a read that finds nothing
     * would otherwise leave each quiet connection holding one (issue 32: most of its ~163 KB).
     */
    private final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);

    private static final int READ_BUFFER_BYTES = 64 * 1024;

    /** Loop thread: the read buffer, cleared, for one read at a time (see {@link #readBuffer}). */
    ByteBuffer readBuffer() {
        readBuffer.clear();
        return readBuffer;
    }

    /**
     * Any thread but the loop's: the open connections and their links that {@code which} picks, as the loop sees them
     * ({@link Traffic}), taken on the loop; waits at most {@code timeout} for it.
     *
     * @throws IllegalStateException when the loop is closed or did not answer in time
     */
    public Traffic traffic(Predicate<AmqpConnection> which, Duration timeout) {
        if (closed) {
            throw new IllegalStateException("The network loop is closed.");
        }
        if (inLoop()) {
            throw new IllegalStateException("The loop thread cannot wait for itself to list its connections.");
        }
        CompletableFuture<Traffic> snapshot = new CompletableFuture<>();
        execute(() -> {
            try {
                List<Traffic.Connection> out = new ArrayList<>();
                boolean[] truncated = {false};
                int links = 0;
                for (AmqpConnection c : connections) {
                    if (!which.test(c)) {
                        continue;
                    }
                    if (out.size() >= Traffic.MAX_CONNECTIONS) {
                        truncated[0] = true;
                        break;
                    }
                    Traffic.Connection described = c.describe(Traffic.MAX_LINKS - links, truncated);
                    links += described.links().size();
                    out.add(described);
                }
                snapshot.complete(new Traffic(out, truncated[0]));
            } catch (RuntimeException e) {
                snapshot.completeExceptionally(e);
            }
        });
        try {
            return snapshot.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while the network loop listed its connections.");
        } catch (ExecutionException e) {
            throw new IllegalStateException("The network loop could not list its connections: " + e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("The network loop did not list its connections within " + timeout
                    + (closed ? "; it is closed." : "."));
        }
    }

    /** Number of open connections (for tests and diagnostics); call on any thread. */
    public int connectionCount() {
        return connectionCount;
    }

    private static long nowMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }

    /**
     * Loop thread: the loop's clock in milliseconds, which connections' timers and proton-j's ticks run on. It follows
     * {@code System.nanoTime}, but one round of the loop advances it by at most {@link #maxStep}, while the loop never
     * waits that long: a pause of the whole JVM (a debugger's breakpoint) counts as one step, so clients whose
     * heartbeats were paused with it are not closed as idle, nor half-authenticated ones as too slow, when it resumes.
     */
    public long clock() {
        return clock;
    }

    private void advanceClock() {
        long real = nowMillis();
        clock += Math.min(Math.max(0, real - lastReal), maxStep);
        lastReal = real;
    }

    private void run() {
        Throwable failure = null;
        try {
            while (!closed) {
                advanceClock();
                long now = clock;
                long deadline = Long.MAX_VALUE;
                for (AmqpConnection c : new ArrayList<>(connections)) {
                    long[] next = {0};
                    guarded(c, () -> next[0] = c.tick(now));
                    if (next[0] > 0) {
                        deadline = Math.min(deadline, next[0]);
                    }
                }
                if (goodbyeSaid) {
                    if (connections.isEmpty() || System.nanoTime() - stopAt >= 0) {
                        break;
                    }
                    deadline = Math.min(deadline, now + 50);
                }
                long timeout = Math.max(1, Math.min(deadline - now, maxStep / 2));
                if (tasks.isEmpty()) {
                    selector.select(timeout);
                } else {
                    selector.selectNow();
                }
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        acceptConnections((ServerSocketChannel) key.channel());
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
                    } catch (RuntimeException | LinkageError | StackOverflowError | OutOfMemoryError e) {
                        LOG.log(Level.WARNING, "sbemu AMQP endpoint: a task failed", e);
                        OutOfMemory.report(e);
                    }
                }
                for (AmqpConnection c : new ArrayList<>(connections)) {
                    guarded(c, c::afterWork);
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!closing) {
                failure = e;
            }
        } catch (Throwable e) {
            failure = e; // logged below: the thread ends here
            OutOfMemory.report(e);
        } finally {
            closed = true;
            if (failure != null) {
                LOG.log(
                        Level.SEVERE,
                        "sbemu AMQP endpoint " + name + " on port " + port()
                                + (second != null ? " (and " + secondPort() + ")" : "")
                                + (tls != null ? " (and TLS " + tlsPort() + ")" : "")
                                + " cannot go on: it closed its listener(s) and its " + connections.size()
                                + " connection(s); start a new server",
                        failure);
            }
            try {
                server.close();
                if (second != null) {
                    second.close();
                }
                if (tls != null) {
                    tls.close();
                }
                // a channel registered with a selector is closed when the selector lets it go: without this, a dead
                // loop would leave a listener that accepts and never answers
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            for (AmqpConnection c : new ArrayList<>(connections)) {
                try {
                    c.abort();
                } catch (RuntimeException ignored) {
                    // its socket is closed anyway
                }
            }
            connections.clear();
            connectionCount = 0;
            unauthenticated.set(0);
            tasks.clear();
        }
    }

    /**
     * Runs one connection's work; whatever it throws drops that connection only. An {@link OutOfMemoryError} or a
     * {@link StackOverflowError} from one client's input (a flood, a nesting too deep) leaves the others served.
     */
    private void guarded(AmqpConnection connection, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError | LinkageError | AssertionError e) {
            connection.failed(e);
            OutOfMemory.report(e);
        }
    }

    private void acceptConnections(ServerSocketChannel listener) {
        while (true) {
            SocketChannel channel = null;
            try {
                channel = listener.accept();
                if (channel == null) {
                    return;
                }
                channel.configureBlocking(false);
                channel.socket().setTcpNoDelay(true);
                // past the limit of connections, or of connections without a token (RES-7): answered with a close
                boolean refused = closing
                        || connections.size() >= options.maxConnections()
                        || unauthenticated.get() >= options.maxUnauthenticatedConnections();
                AmqpConnection connection = accept.accept(this, channel, refused, listener == tls);
                unauthenticated.incrementAndGet();
                connection.register(channel.register(selector, SelectionKey.OP_READ, connection));
                connections.add(connection);
                connectionCount = connections.size();
            } catch (ClosedChannelException e) {
                return; // the listener closed
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "sbemu AMQP endpoint: could not accept a connection: " + e);
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

    private void closeListener() {
        closeQuietly(server);
        closeQuietly(second);
        closeQuietly(tls);
    }

    /** Called by a connection whose socket closed. */
    void removed(AmqpConnection connection) {
        if (connections.remove(connection) && !connection.isAuthorized()) {
            unauthenticated.decrementAndGet();
        }
        connectionCount = connections.size();
    }

    /** A connection of this loop had its first token accepted: it no longer counts as unauthenticated (RES-7). */
    void authenticated() {
        unauthenticated.decrementAndGet();
    }

    /** The connections accepted and not authorized yet (RES-7). */
    public int unauthenticatedCount() {
        return unauthenticated.get();
    }

    /**
     * Stops accepting on both listeners, says goodbye on every connection (its links detached and the connection closed with
     * {@code amqp:...} errors, AMQP-14), waits up to 2 s for the clients to hang up, then drops what is left and
     * ends the thread.
     */
    @Override
    public void close() {
        close(false);
    }

    /** Closes, on the loop, each connection {@code which} picks, with {@code error} (a deleted namespace's, NS-6). */
    public void closeConnections(Predicate<AmqpConnection> which, ErrorCondition error) {
        execute(() -> {
            for (AmqpConnection c : new ArrayList<>(connections)) {
                if (which.test(c)) {
                    guarded(c, () -> c.closeWith(error));
                }
            }
        });
    }

    /** As {@link #close()}; {@code forced}: the goodbye is the one of a server being stopped (SRV-7). */
    public void close(boolean forced) {
        if (closing || closed) {
            return;
        }
        closing = true;
        if (!thread.isAlive()) {
            closeListener();
        }
        tasks.add(() -> {
            closeListener();
            stopAt = System.nanoTime() + GOODBYE_NANOS;
            goodbyeSaid = true;
            for (AmqpConnection c : new ArrayList<>(connections)) {
                guarded(c, () -> c.goodbye(forced));
            }
        });
        selector.wakeup();
        if (!inLoop()) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closed = true;
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        tasks.clear();
    }
}
