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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * HTTP on the AMQP port: a connection whose first bytes are an HTTP method ({@link ProtocolSniffer#isHttpStart}) is handed over
 * here by its {@link AmqpConnection} and joined to the endpoint's internal HTTP server ({@link HttpFront}), on one
 * thread of its own with one selector. Requests are gated (RES-3): each is buffered here until its head, and its body
 * up to its {@code Content-Length}, are complete, and only then passed on, its head's bare LF line ends made CRLF,
 * so that the HTTP server's few worker threads only ever read complete requests and a slow client holds none of
 * them; a request larger than {@value #GATED} bytes, or one that waits for a {@code 100 Continue}, is passed on once
 * its head is complete, its body as it comes (the pair closed at the timeout frees the worker reading it). A
 * request not complete within the request-read timeout is answered 408 and its connection closed; a head over
 * {@value #GATED} bytes 431, a chunked body 411. Answers pass back through two 16 KB buffers, byte for byte but for a
 * reason phrase {@link ResponseHeads} puts in: a side that does not read holds the other back, never the heap. A pair closes when either side has closed and what it sent is
 * passed on, on an error, or after the idle timeout without a byte either way; at most {@value #MAX_SPLICES} pairs
 * are open (more are closed at once).
 */
public final class HttpSplice implements HttpHandOver, AutoCloseable {
    static final int MAX_SPLICES = 256;
    private static final int BUFFER = 16 * 1024;
    /** The largest request buffered whole before it is passed on; also the largest head. */
    static final int GATED = 32 * 1024;

    private static final Logger LOG = Logger.getLogger(HttpSplice.class.getName());

    private final InetSocketAddress upstream;
    private final long idleNanos;
    private final long requestNanos;
    private final Selector selector;
    private final Thread thread;
    private final Queue<Pair> incoming = new ConcurrentLinkedQueue<>();
    private final List<Pair> pairs = new ArrayList<>();
    private volatile boolean closing;

    /**
     * @param requestNanos the request-read timeout: how long a request may take from its first byte until it is
     *     complete (RES-3)
     */
    public HttpSplice(InetSocketAddress upstream, long idleNanos, long requestNanos, String name) {
        this.upstream = upstream;
        this.idleNanos = idleNanos;
        this.requestNanos = requestNanos;
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

    /** A request the splice refuses itself: answered, then the connection is closed. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;
        final String reason;

        Refused(int status, String reason, String message) {
            super(message, null, false, false);
            this.status = status;
            this.reason = reason;
        }
    }

    private final class Pair {
        final SocketChannel client;
        SocketChannel server;
        /** What came from the client and is not passed on yet: the current request, incomplete. */
        ByteBuffer inbox;
        /** Complete requests (or a large one's head and body so far), to be written to the server. */
        final ByteBuffer toServer = ByteBuffer.allocate(2 * GATED + 64);

        /** What came from the server and is not in {@link #toClient} yet: an answer's head still incomplete. */
        final ByteBuffer fromServer = ByteBuffer.allocate(BUFFER);

        final ByteBuffer toClient = ByteBuffer.allocate(BUFFER);
        final ResponseHeads responses = new ResponseHeads();
        SelectionKey clientKey;
        SelectionKey serverKey;
        boolean clientDone;
        boolean serverDone;
        boolean connected;
        long lastActive = System.nanoTime();
        /** When the current request's first byte came, or 0 between requests. */
        long requestStart;
        /** Body bytes of a large request still to pass on as they come. */
        long streaming;

        Pair(SocketChannel client, ByteBuffer head) {
            this.client = client;
            this.inbox = ByteBuffer.allocate(Math.max(GATED, head.remaining()));
            inbox.put(head);
        }

        void start() throws IOException {
            clientKey = client.register(selector, 0, this);
            advance();
            interest();
        }

        /** Opens the connection to the HTTP server once there is a complete request to pass on. */
        private void connect() throws IOException {
            server = SocketChannel.open();
            server.configureBlocking(false);
            server.socket().setTcpNoDelay(true);
            connected = server.connect(upstream);
            serverKey = server.register(selector, 0, this);
        }

        void onReady(SelectionKey key) throws IOException {
            lastActive = System.nanoTime();
            if (key == serverKey && key.isConnectable() && server.finishConnect()) {
                connected = true;
            }
            if (key == clientKey) {
                if (key.isReadable()) {
                    if (client.read(inbox) < 0) {
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
                    if (server.read(fromServer) < 0) {
                        serverDone = true;
                        responses.serverDone();
                    }
                }
                if (key.isValid() && key.isWritable()) {
                    toServer.flip();
                    server.write(toServer);
                    toServer.compact();
                }
            }
            fromServer.flip();
            responses.transfer(fromServer, toClient);
            fromServer.compact();
            advance();
            if (!client.isOpen()) {
                return; // refused
            }
            if (server == null && clientDone) {
                close(); // nothing complete to pass on
                return;
            }
            if (connected && clientDone && toServer.position() == 0 && inbox.position() == 0) {
                server.shutdownOutput();
            }
            if (serverDone && toClient.position() == 0 && fromServer.position() == 0 || clientDone && serverDone) {
                close();
                return;
            }
            interest();
        }

        /** Moves what is complete from the inbox to the server's buffer; answers and closes a refused request. */
        void advance() throws IOException {
            try {
                while (inbox.position() > 0) {
                    if (requestStart == 0) {
                        requestStart = System.nanoTime();
                    }
                    if (streaming > 0) {
                        int n = (int) Math.min(streaming, Math.min(inbox.position(), toServer.remaining()));
                        if (n == 0) {
                            break;
                        }
                        inbox.flip();
                        ByteBuffer slice = inbox.slice();
                        slice.limit(n);
                        toServer.put(slice);
                        inbox.position(n);
                        inbox.compact();
                        streaming -= n;
                        if (streaming == 0) {
                            requestStart = 0;
                        }
                        continue;
                    }
                    if (!passOnRequest()) {
                        break;
                    }
                }
            } catch (Refused refused) {
                refuse(refused);
                return;
            }
            if (server == null && toServer.position() > 0) {
                connect();
            }
        }

        /** Passes on the inbox's first request if it is complete (or large, its head); false to wait for more. */
        private boolean passOnRequest() throws Refused {
            byte[] bytes = inbox.array();
            int length = inbox.position();
            int lineStart = 0;
            int headEnd = -1;
            for (int i = 0; i < length; i++) {
                if (bytes[i] == '\n') {
                    boolean empty = i == lineStart || (i == lineStart + 1 && bytes[lineStart] == '\r');
                    if (empty && lineStart > 0) {
                        headEnd = i + 1;
                        break;
                    }
                    lineStart = i + 1;
                }
            }
            if (headEnd < 0) {
                if (!inbox.hasRemaining()) {
                    throw new Refused(
                            431, "Request Header Fields Too Large", "The request's head is over " + GATED + " bytes.");
                }
                return false;
            }
            long contentLength = 0;
            boolean expectContinue = false;
            String head = new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1);
            for (String line : head.split("\r?\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    try {
                        contentLength = Long.parseLong(
                                line.substring("content-length:".length()).trim());
                    } catch (NumberFormatException e) {
                        contentLength = -1;
                    }
                    if (contentLength < 0) {
                        throw new Refused(400, "Bad Request", "The request's Content-Length is not a number.");
                    }
                } else if (lower.startsWith("expect:") && lower.contains("100-continue")) {
                    // the client sends its body only after the server's 100 Continue: the head goes on at once
                    expectContinue = true;
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    throw new Refused(
                            411, "Length Required", "sbemu takes request bodies with a Content-Length, not chunked.");
                }
            }
            // the head as the HTTP server reads it: CRLF line ends (a bare LF would leave it waiting for more)
            byte[] normalized =
                    head.replaceAll("(?<!\r)\n", "\r\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            boolean whole = !expectContinue && headEnd + contentLength <= GATED;
            if (whole && length < headEnd + contentLength) {
                return false; // the body is not all here yet
            }
            int body = whole ? (int) contentLength : 0;
            if (toServer.remaining() < normalized.length + body) {
                return false; // the previous request is still being written
            }
            toServer.put(normalized);
            toServer.put(bytes, headEnd, body);
            responses.requestPassedOn(head.substring(0, Math.max(0, head.indexOf(' '))));
            inbox.flip();
            inbox.position(headEnd + body);
            inbox.compact();
            if (whole) {
                requestStart = 0;
            } else {
                streaming = contentLength;
            }
            return true;
        }

        /** Answers {@code refused} (best effort, the socket may not take it) and closes the pair. */
        void refuse(Refused refused) {
            String json = "{\"error\":\"" + refused.reason.replace(" ", "") + "\",\"message\":\"" + refused.getMessage()
                    + "\"}";
            String answer = "HTTP/1.1 " + refused.status + " " + refused.reason + "\r\nContent-Type: application/json"
                    + "\r\nContent-Length: " + json.length() + "\r\nConnection: close\r\n\r\n" + json;
            try {
                client.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.ISO_8859_1)));
            } catch (IOException | RuntimeException ignored) {
                // closing anyway
            }
            close();
        }

        /** Whether the current request has taken longer than the request-read timeout (RES-3). */
        boolean tooSlow(long now) {
            return requestStart != 0 && now - requestStart > requestNanos;
        }

        void interest() {
            if (!client.isOpen()) {
                return;
            }
            int c = 0;
            int s = 0;
            if (!clientDone && inbox.hasRemaining()) {
                c |= SelectionKey.OP_READ;
            }
            if (toClient.position() > 0) {
                c |= SelectionKey.OP_WRITE;
            }
            clientKey.interestOps(c);
            if (serverKey == null) {
                return;
            }
            if (!connected) {
                s = SelectionKey.OP_CONNECT;
            } else {
                if (!serverDone && fromServer.hasRemaining()) {
                    s |= SelectionKey.OP_READ;
                }
                if (toServer.position() > 0) {
                    s |= SelectionKey.OP_WRITE;
                }
            }
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
                selector.select(TimeUnit.NANOSECONDS.toMillis(Math.min(idleNanos, requestNanos)) / 2 + 1);
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
                    if (pair.tooSlow(now)) {
                        pair.refuse(new Refused(
                                408,
                                "Request Timeout",
                                "The request was not complete within " + TimeUnit.NANOSECONDS.toMillis(requestNanos)
                                        + " ms."));
                    } else if (now - pair.lastActive > idleNanos) {
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
