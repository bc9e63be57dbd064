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
 * them. A pair's inbox is {@value #GATED} bytes; a larger request grows it, all pairs together by at most {@value
 * #LARGE_BUDGET} bytes (a request that finds no room waits, unread), and a body over {@link HttpFront#MAX_BODY} is
 * refused 413 before it is sent. The splice answers {@code Expect: 100-continue} itself and passes the request on
 * without it (clients that expect a continue do not pipeline, so the 100 never overtakes an earlier answer). A
 * request not complete within the request-read timeout is answered 408 and its connection closed; a head over
 * {@value #GATED} bytes 431, a chunked body 411. Answers pass back through two 16 KB buffers, byte for byte but for a
 * reason phrase {@link ResponseHeads} puts in: a side that does not read holds the other back, never the heap. A pair closes when either side has closed and what it sent is
 * passed on, on an error, or after the idle timeout without a byte either way; at most {@value #MAX_SPLICES} pairs
 * are open, and one more is answered 503 with a {@code Retry-After} and closed.
 */
public final class HttpSplice implements HttpHandOver, AutoCloseable {
    static final int MAX_SPLICES = 256;
    private static final int BUFFER = 16 * 1024;
    /** The largest head, and the buffer of each pair's incoming requests (grown for a larger one). */
    static final int GATED = 32 * 1024;
    /**
     * What all pairs together may buffer of requests larger than {@value #GATED} bytes, beyond their own
     * {@value #GATED}: eight of the largest body taken ({@link HttpFront#MAX_BODY}); a large request waits for room,
     * its request-read timeout running.
     */
    static final long LARGE_BUDGET = 8L * HttpFront.MAX_BODY;

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private static final Logger LOG = Logger.getLogger(HttpSplice.class.getName());

    private final InetSocketAddress upstream;
    private final long idleNanos;
    private final long requestNanos;
    private final Selector selector;
    private final Thread thread;
    private final Queue<Pair> incoming = new ConcurrentLinkedQueue<>();
    private final List<Pair> pairs = new ArrayList<>();
    private volatile boolean closing;
    /** Bytes of the large-request budget the pairs hold (splice thread). */
    private long largeBuffered;
    /** Whether a pair gave room back since the waiting pairs were last looked at (splice thread). */
    private boolean roomGivenBack;

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
        final String error;

        Refused(int status, String reason, String message) {
            this(status, reason, reason.replace(" ", ""), message);
        }

        Refused(int status, String reason, String error, String message) {
            super(message, null, false, false);
            this.status = status;
            this.reason = reason;
            this.error = error;
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
        /** Body bytes of the request being passed on still in the inbox, to move as the server takes them. */
        long streaming;
        /** Bytes of {@link #largeBuffered} this pair holds: its inbox beyond {@value #GATED}. */
        long reserved;
        /** Whether the current request's {@code 100 Continue} was sent. */
        boolean continued;
        /** Whether the current request waits for room in the large-request budget. */
        boolean waitingForRoom;

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
                    if (requestStart == 0 && streaming == 0) {
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
                            shrink();
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
                if (length >= GATED) {
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
                    expectContinue = true;
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    throw new Refused(
                            411, "Length Required", "sbemu takes request bodies with a Content-Length, not chunked.");
                }
            }
            if (contentLength > HttpFront.MAX_BODY) {
                // the HTTP server's own refusal, before the body (RFC 9110 10.1.1: a final status instead of 100)
                throw new Refused(
                        413,
                        "Content Too Large",
                        "RequestTooLarge",
                        "The request body is over " + HttpFront.MAX_BODY + " bytes.");
            }
            int whole = headEnd + (int) contentLength;
            if (!roomFor(whole)) {
                return false; // read no more of it until another large request is passed on
            }
            if (expectContinue && !continued && contentLength > 0 && length == headEnd) {
                // the client sends its body only after a 100 Continue: the splice answers it, so that the request
                // still reaches the HTTP server whole (and without the expectation, which would have it answer again)
                if (toClient.remaining() < CONTINUE.length) {
                    return false;
                }
                toClient.put(CONTINUE);
                continued = true;
            }
            if (length < whole) {
                return false; // the body is not all here yet
            }
            // the head as the HTTP server reads it: CRLF line ends (a bare LF would leave it waiting for more)
            String normalized = head.replaceAll("(?<!\r)\n", "\r\n");
            if (expectContinue) {
                normalized = normalized.replaceAll("(?im)^expect:[^\r\n]*\r\n", "");
            }
            byte[] passed = normalized.getBytes(StandardCharsets.ISO_8859_1);
            if (toServer.remaining() < passed.length) {
                return false; // the previous request is still being written
            }
            toServer.put(passed);
            int body = (int) Math.min(contentLength, toServer.remaining());
            toServer.put(bytes, headEnd, body);
            responses.requestPassedOn(head.substring(0, Math.max(0, head.indexOf(' '))));
            inbox.flip();
            inbox.position(headEnd + body);
            inbox.compact();
            // complete: what is left of its body is in the inbox, moved on as the server takes it
            streaming = contentLength - body;
            requestStart = 0;
            continued = false;
            if (streaming == 0) {
                shrink();
            }
            return true;
        }

        /**
         * Whether the inbox can hold a request of {@code bytes}, growing it if the large-request budget has room
         * (RES-3); false to wait for another pair to give some back.
         */
        private boolean roomFor(int bytes) {
            if (bytes <= inbox.capacity()) {
                return true;
            }
            long more = bytes - GATED - reserved;
            if (largeBuffered + more > LARGE_BUDGET) {
                waitingForRoom = true;
                return false;
            }
            waitingForRoom = false;
            largeBuffered += more;
            reserved += more;
            ByteBuffer grown = ByteBuffer.allocate(bytes);
            inbox.flip();
            grown.put(inbox);
            inbox = grown;
            return true;
        }

        /** Gives a grown inbox's room back once what it holds fits in {@value #GATED} bytes. */
        private void shrink() {
            if (reserved == 0 || inbox.position() > GATED) {
                return;
            }
            ByteBuffer small = ByteBuffer.allocate(GATED);
            inbox.flip();
            small.put(inbox);
            inbox = small;
            release();
        }

        private void release() {
            if (reserved > 0) {
                largeBuffered -= reserved;
                reserved = 0;
                roomGivenBack = true;
            }
        }

        /** Answers {@code refused} (best effort, the socket may not take it) and closes the pair. */
        void refuse(Refused refused) {
            String json = "{\"error\":\"" + refused.error + "\",\"message\":\"" + refused.getMessage() + "\"}";
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
            release();
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
                        refuseOverLimit(next.client);
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
                if (roomGivenBack) {
                    roomGivenBack = false;
                    resumeWaiting();
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

    /** Lets the pairs whose large request waits for room in {@link #LARGE_BUDGET} try again. */
    private void resumeWaiting() {
        for (Pair pair : new ArrayList<>(pairs)) {
            if (pair.waitingForRoom && pair.client.isOpen()) {
                try {
                    pair.advance();
                    pair.interest();
                } catch (IOException | RuntimeException e) {
                    pair.close();
                }
            }
        }
    }

    /**
     * Answers a connection past {@value #MAX_SPLICES} open ones 503 with a {@code Retry-After} (RFC 9110 15.6.4,
     * 10.2.3) instead of closing it unanswered, then closes it. Its request is not read further: what already came
     * is drained first (best effort), so that the close does not reset the connection before the client reads the
     * answer.
     */
    private static void refuseOverLimit(SocketChannel client) {
        String json = "{\"error\":\"ServiceUnavailable\",\"message\":\"The server already has " + MAX_SPLICES
                + " HTTP connections open, the most it serves at once. Try again later.\"}";
        String answer = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json"
                + "\r\nContent-Length: " + json.length() + "\r\nConnection: close\r\n\r\n" + json;
        try {
            client.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.ISO_8859_1)));
            client.shutdownOutput();
            ByteBuffer drain = ByteBuffer.allocate(BUFFER);
            for (int i = 0; i < 4 && client.read(drain) > 0; i++) {
                drain.clear();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
        closeQuietly(client);
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
