package dev.sbemu.amqp;

import com.azure.core.credential.TokenRequestContext;
import com.azure.messaging.servicebus.implementation.ServiceBusSharedKeyCredential;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.amqp.messaging.Properties;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transaction.Coordinator;
import org.apache.qpid.proton.amqp.transport.Attach;
import org.apache.qpid.proton.amqp.transport.Begin;
import org.apache.qpid.proton.amqp.transport.Close;
import org.apache.qpid.proton.amqp.transport.Detach;
import org.apache.qpid.proton.amqp.transport.End;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.Flow;
import org.apache.qpid.proton.amqp.transport.FrameBody;
import org.apache.qpid.proton.amqp.transport.Open;
import org.apache.qpid.proton.amqp.transport.Role;
import org.apache.qpid.proton.amqp.transport.SenderSettleMode;
import org.apache.qpid.proton.amqp.transport.Transfer;
import org.apache.qpid.proton.codec.AMQPDefinedTypes;
import org.apache.qpid.proton.codec.DecoderImpl;
import org.apache.qpid.proton.codec.EncoderImpl;
import org.apache.qpid.proton.message.Message;

/**
 * A frame-level AMQP peer for tests that play a hostile client (after Qpid JMS's {@code TestAmqpPeer}): it writes
 * whatever frames the test scripts, including what proton-j's engine never sends (a delivery that never ends,
 * transfers without credit, oversized frames, aborted deliveries, floods before authentication), reads the
 * endpoint's frames on a thread of its own, and {@link #expect}s them: an expectation not met within its time
 * fails the test with the frames that did arrive. Frames are encoded and decoded with proton-j's codec only.
 * SASL is skipped (the endpoint allows it, as the service's ANONYMOUS does).
 */
final class HostilePeer implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(30);
    private static final byte[] AMQP_HEADER = {'A', 'M', 'Q', 'P', 0, 1, 0, 0};
    /** What {@link #received} holds once the endpoint closed the socket. */
    static final Object END_OF_STREAM = "<end of stream>";

    private final SocketChannel channel;
    private final Selector writable;
    private final DecoderImpl decoder = new DecoderImpl();
    private final EncoderImpl encoder = new EncoderImpl(decoder);
    private final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    private final List<Object> seen = new ArrayList<>();
    private final Thread reader;
    private volatile boolean closed;
    private final Object pause = new Object();
    private boolean paused;
    private long bytesWritten;
    private int transfers;

    private HostilePeer(int port) throws IOException {
        AMQPDefinedTypes.registerAllTypes(decoder, encoder);
        channel = SocketChannel.open();
        // a fixed receive buffer (no autotuning): a peer that stops reading backs the endpoint up after a known amount
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 256 * 1024);
        channel.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        channel.configureBlocking(false);
        writable = Selector.open();
        channel.register(writable, SelectionKey.OP_WRITE);
        reader = new Thread(this::read, "hostile-peer-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** A TCP connection to the endpoint, nothing sent yet. */
    static HostilePeer connect(int port) throws IOException {
        return new HostilePeer(port);
    }

    /** Connects, skips SASL and opens an AMQP connection (max frame size 1 MB, as a hostile peer would ask). */
    static HostilePeer opened(int port) throws IOException {
        HostilePeer peer = connect(port);
        peer.header();
        Open open = new Open();
        open.setContainerId("hostile");
        open.setMaxFrameSize(UnsignedInteger.valueOf(1024 * 1024));
        peer.frame(0, open, null);
        peer.expect(Open.class, o -> true);
        return peer;
    }

    // ---------------------------------------------------------------------------------------- scripted frames

    void header() throws IOException {
        write(ByteBuffer.wrap(AMQP_HEADER), WAIT);
    }

    /** Begins session {@code channel} with a large window and expects the endpoint's begin. */
    void begin(int channel) throws IOException {
        Begin begin = new Begin();
        begin.setNextOutgoingId(UnsignedInteger.ZERO);
        begin.setIncomingWindow(UnsignedInteger.valueOf(Integer.MAX_VALUE));
        begin.setOutgoingWindow(UnsignedInteger.valueOf(Integer.MAX_VALUE));
        frame(channel, begin, null);
        expect(Begin.class, b -> true);
    }

    /** Attaches a link on which this peer sends to {@code address} (handle {@code handle}). */
    void attachSender(int channel, int handle, String name, String address) throws IOException {
        Attach attach = senderAttach(handle, name);
        Target target = new Target();
        target.setAddress(address);
        attach.setTarget(target);
        frame(channel, attach, null);
    }

    /** Attaches a link on which this peer sends to the transaction coordinator (handle {@code handle}). */
    void attachCoordinator(int channel, int handle, String name) throws IOException {
        Attach attach = senderAttach(handle, name);
        attach.setTarget(new Coordinator());
        frame(channel, attach, null);
    }

    /** The attach of a sending link, unsettled, without its target. */
    private static Attach senderAttach(int handle, String name) {
        Attach attach = new Attach();
        attach.setName(name);
        attach.setHandle(UnsignedInteger.valueOf(handle));
        attach.setRole(Role.SENDER);
        attach.setSndSettleMode(SenderSettleMode.UNSETTLED);
        Source source = new Source();
        source.setAddress(name);
        attach.setSource(source);
        attach.setInitialDeliveryCount(UnsignedInteger.ZERO);
        return attach;
    }

    /** Attaches a link on which this peer receives from {@code address} (handle {@code handle}). */
    void attachReceiver(int channel, int handle, String name, String address) throws IOException {
        attachReceiver(channel, handle, name, address, false);
    }

    /** As above; {@code settled}: the endpoint sends pre-settled (receive-and-delete). */
    void attachReceiver(int channel, int handle, String name, String address, boolean settled) throws IOException {
        Attach attach = new Attach();
        attach.setSndSettleMode(settled ? SenderSettleMode.SETTLED : SenderSettleMode.UNSETTLED);
        attach.setName(name);
        attach.setHandle(UnsignedInteger.valueOf(handle));
        attach.setRole(Role.RECEIVER);
        Source source = new Source();
        source.setAddress(address);
        attach.setSource(source);
        Target target = new Target();
        target.setAddress(name);
        attach.setTarget(target);
        frame(channel, attach, null);
    }

    /**
     * Attaches a session receiver (AMQP-6) on {@code address}: the named session, or with {@code sessionId} null the
     * next available one, waiting up to {@code timeoutMillis} ({@code com.microsoft:timeout}).
     */
    void attachSessionReceiver(
            int channel, int handle, String name, String address, String sessionId, long timeoutMillis)
            throws IOException {
        Attach attach = new Attach();
        attach.setSndSettleMode(SenderSettleMode.UNSETTLED);
        attach.setName(name);
        attach.setHandle(UnsignedInteger.valueOf(handle));
        attach.setRole(Role.RECEIVER);
        Source source = new Source();
        source.setAddress(address);
        Map<Symbol, Object> filter = new HashMap<>();
        filter.put(Symbol.valueOf("com.microsoft:session-filter"), sessionId);
        source.setFilter(filter);
        attach.setSource(source);
        Target target = new Target();
        target.setAddress(name);
        attach.setTarget(target);
        attach.setProperties(Map.of(Symbol.valueOf("com.microsoft:timeout"), timeoutMillis));
        frame(channel, attach, null);
    }

    /** One transfer frame; {@code deliveryId} and {@code tag} are sent on a delivery's first frame only. */
    boolean transfer(
            int channel, int handle, Integer deliveryId, byte[] payload, boolean more, boolean aborted, Duration wait)
            throws IOException {
        Transfer transfer = new Transfer();
        transfer.setHandle(UnsignedInteger.valueOf(handle));
        if (deliveryId != null) {
            transfer.setDeliveryId(UnsignedInteger.valueOf(deliveryId));
            transfer.setDeliveryTag(new Binary(new byte[] {(byte) (int) deliveryId}));
            transfer.setMessageFormat(UnsignedInteger.ZERO);
        }
        transfer.setMore(more);
        transfer.setAborted(aborted);
        transfers++;
        return frame(channel, transfer, payload, wait);
    }

    /** Gives link {@code handle} (one this peer receives on) {@code credit}. */
    void flow(int channel, int handle, int credit) throws IOException {
        Flow flow = new Flow();
        flow.setNextIncomingId(UnsignedInteger.ZERO);
        flow.setIncomingWindow(UnsignedInteger.valueOf(Integer.MAX_VALUE));
        flow.setNextOutgoingId(UnsignedInteger.valueOf(transfers));
        flow.setOutgoingWindow(UnsignedInteger.valueOf(Integer.MAX_VALUE));
        flow.setHandle(UnsignedInteger.valueOf(handle));
        flow.setDeliveryCount(UnsignedInteger.ZERO);
        flow.setLinkCredit(UnsignedInteger.valueOf(credit));
        frame(channel, flow, null);
    }

    /**
     * Authenticates as the SDK does: a {@code $cbs} request link (handle 0) and reply link (handle 1) on session 0,
     * and a put-token with a token signed with {@code key}; returns the answer's status code.
     */
    Object putToken(String key) throws IOException {
        attachSender(0, 0, "cbs-requests", "$cbs");
        expect(Attach.class, a -> a.getName().equals("cbs-requests"));
        attachReceiver(0, 1, "cbs-replies", "$cbs");
        cbsReplies =
                expect(Attach.class, a -> a.getName().equals("cbs-replies")).getHandle();
        flow(0, 1, 100);
        return cbsRequest(key);
    }

    private UnsignedInteger cbsReplies;

    /** A put-token on the {@code $cbs} links {@link #putToken} attached; waits for its answer. */
    Object cbsRequest(String key) throws IOException {
        return cbsRequest(key, "cbs-replies", cbsReplies);
    }

    /**
     * A put-token with reply-to {@code replyTo} (null: none, as the Python SDK sends it) on request link 0 of session
     * 0; waits for the answer on the link whose (endpoint-side) handle is {@code replyHandle}.
     */
    Object cbsRequest(String key, String replyTo, UnsignedInteger replyHandle) throws IOException {
        String token = new ServiceBusSharedKeyCredential(ServiceBusEmulatorServer.KEY_NAME, key, Duration.ofHours(1))
                .getToken(new TokenRequestContext().addScopes("amqp://127.0.0.1/"))
                .block()
                .getToken();
        Message request = Proton.message();
        Properties properties = new Properties();
        properties.setMessageId("put-token-1");
        properties.setReplyTo(replyTo);
        request.setProperties(properties);
        request.setApplicationProperties(new ApplicationProperties(Map.of(
                "operation", "put-token", "type", "servicebus.windows.net:sastoken", "name", "amqp://127.0.0.1/")));
        request.setBody(new AmqpValue(token));
        transfer(0, 0, nextDeliveryId++, encode(request), false, false, WAIT);
        Transfer answer = expect(Transfer.class, t -> t.getHandle().equals(replyHandle));
        return answer == null ? null : "answered";
    }

    /** The next delivery id on session 0 (for scripts that mix {@link #putToken} and their own transfers). */
    int nextDeliveryId;

    static byte[] encode(Message message) {
        byte[] buffer = new byte[64 * 1024];
        int n = message.encode(buffer, 0, buffer.length);
        return Arrays.copyOf(buffer, n);
    }

    /** Detaches link {@code handle}, closing it. */
    void detach(int channel, int handle) throws IOException {
        Detach detach = new Detach();
        detach.setHandle(UnsignedInteger.valueOf(handle));
        detach.setClosed(true);
        frame(channel, detach, null);
    }

    void frame(int channel, FrameBody body, byte[] payload) throws IOException {
        if (!frame(channel, body, payload, WAIT)) {
            throw new AssertionError(
                    "the endpoint did not read a " + body.getClass().getSimpleName() + " frame within " + WAIT);
        }
    }

    /** Writes one frame; false when the endpoint did not take it within {@code wait} (it stopped reading). */
    boolean frame(int channel, FrameBody body, byte[] payload, Duration wait) throws IOException {
        ByteBuffer frame;
        synchronized (decoder) {
            frame = encodeFrame(encoder, channel, body, payload);
        }
        return write(frame, wait);
    }

    /** One AMQP frame's bytes, for a test that writes them on a plain socket. */
    static byte[] frameBytes(int channel, FrameBody body) {
        DecoderImpl decoder = new DecoderImpl();
        EncoderImpl encoder = new EncoderImpl(decoder);
        AMQPDefinedTypes.registerAllTypes(decoder, encoder);
        ByteBuffer frame = encodeFrame(encoder, channel, body, null);
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        return bytes;
    }

    private static ByteBuffer encodeFrame(EncoderImpl encoder, int channel, FrameBody body, byte[] payload) {
        ByteBuffer performative = ByteBuffer.allocate(4096);
        encoder.setByteBuffer(performative);
        encoder.writeObject(body);
        encoder.setByteBuffer((ByteBuffer) null);
        performative.flip();
        int size = 8 + performative.remaining() + (payload == null ? 0 : payload.length);
        ByteBuffer frame = ByteBuffer.allocate(size);
        frame.putInt(size).put((byte) 2).put((byte) 0).putShort((short) channel).put(performative);
        if (payload != null) {
            frame.put(payload);
        }
        frame.flip();
        return frame;
    }

    /** Writes a frame header announcing {@code size} bytes, and nothing more: an oversized frame. */
    boolean frameHeader(int size) throws IOException {
        return write(
                ByteBuffer.allocate(8)
                        .putInt(size)
                        .put((byte) 2)
                        .put((byte) 0)
                        .putShort((short) 0)
                        .flip(),
                WAIT);
    }

    /** Writes raw bytes. */
    boolean raw(byte[] bytes) throws IOException {
        return write(ByteBuffer.wrap(bytes), WAIT);
    }

    private boolean write(ByteBuffer bytes, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (bytes.hasRemaining()) {
            int n;
            try {
                n = channel.write(bytes);
            } catch (IOException e) {
                return false; // the endpoint closed the socket
            }
            bytesWritten += n;
            if (n == 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                writable.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                writable.selectedKeys().clear();
            }
        }
        return true;
    }

    long bytesWritten() {
        return bytesWritten;
    }

    /** Stops reading the socket (the endpoint's output backs up) or reads on. */
    void pauseReading(boolean pause) {
        synchronized (this.pause) {
            paused = pause;
            this.pause.notifyAll();
        }
    }

    /** The number of frames of {@code type} received so far (read by the reader thread). */
    long count(Class<?> type) {
        return snapshot().stream().filter(type::isInstance).count();
    }

    // ------------------------------------------------------------------------------------------- expectations

    /** Waits for a frame of {@code type} that {@code matches}; other frames are passed over (and remembered). */
    <T> T expect(Class<T> type, Predicate<T> matches) {
        return expect(type, matches, WAIT);
    }

    <T> T expect(Class<T> type, Predicate<T> matches, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Object frame;
            try {
                frame = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            if (frame == null) {
                throw new AssertionError(
                        "expected a " + type.getSimpleName() + " frame within " + wait + "; received: " + seen);
            }
            seen.add(frame);
            if (frame == END_OF_STREAM) {
                received.add(END_OF_STREAM); // stays the last thing received
                throw new AssertionError("expected a " + type.getSimpleName()
                        + " frame; the endpoint closed the socket; received: " + seen);
            }
            if (type.isInstance(frame) && matches.test(type.cast(frame))) {
                return type.cast(frame);
            }
        }
    }

    /** Expects a frame carrying the error {@code condition}: a detach, end or close. */
    ErrorCondition expectError(Class<? extends FrameBody> type, String condition) {
        FrameBody body =
                expect(type, f -> condition.equals(String.valueOf(error(f) == null ? null : error(f).getCondition())));
        return error(body);
    }

    private static ErrorCondition error(Object frame) {
        if (frame instanceof Detach d) {
            return d.getError();
        }
        if (frame instanceof Close c) {
            return c.getError();
        }
        if (frame instanceof End e) {
            return e.getError();
        }
        return null;
    }

    /** Expects the endpoint to close the socket (after whatever frames). */
    void expectEndOfStream(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Object frame;
            try {
                frame = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            if (frame == null) {
                throw new AssertionError(
                        "expected the endpoint to close the socket within " + wait + "; received: " + seen);
            }
            seen.add(frame);
            if (frame == END_OF_STREAM) {
                received.add(END_OF_STREAM);
                return;
            }
        }
    }

    /** The flow frames received so far for {@code handle}'s credit, the latest last (for assertions on credit). */
    long latestCredit(int handle) {
        long credit = -1;
        for (Object f : snapshot()) {
            if (f instanceof Flow flow
                    && flow.getHandle() != null
                    && flow.getHandle().intValue() == handle
                    && flow.getLinkCredit() != null) {
                credit = flow.getLinkCredit().longValue();
            }
        }
        return credit;
    }

    /** Frames seen by expectations plus those still queued. */
    List<Object> snapshot() {
        List<Object> all = new ArrayList<>(seen);
        all.addAll(received);
        return all;
    }

    // ---------------------------------------------------------------------------------------------- reading

    private void read() {
        ByteBuffer in = ByteBuffer.allocate(1024 * 1024);
        boolean headerRead = false;
        try (Selector readable = Selector.open()) {
            channel.register(readable, SelectionKey.OP_READ);
            while (!closed) {
                synchronized (pause) {
                    while (paused && !closed) {
                        pause.wait();
                    }
                }
                readable.select(200);
                readable.selectedKeys().clear();
                int n = channel.read(in);
                if (n < 0) {
                    break;
                }
                in.flip();
                if (!headerRead) {
                    if (in.remaining() < 8) {
                        in.compact();
                        continue;
                    }
                    in.position(in.position() + 8);
                    headerRead = true;
                }
                while (in.remaining() >= 4) {
                    int size = in.getInt(in.position());
                    if (in.remaining() < size) {
                        break;
                    }
                    ByteBuffer frame = in.slice();
                    frame.limit(size);
                    in.position(in.position() + size);
                    int doff = (frame.get(4) & 0xFF) * 4;
                    frame.position(doff);
                    if (frame.hasRemaining()) {
                        synchronized (decoder) {
                            decoder.setByteBuffer(frame);
                            received.add(decoder.readObject());
                            decoder.setByteBuffer(null);
                        }
                    } // an empty frame is a heartbeat
                }
                in.compact();
            }
        } catch (IOException | RuntimeException e) {
            // the endpoint reset the connection, or sent what the codec cannot read
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        received.add(END_OF_STREAM);
    }

    /** Frames whose error is {@code condition}, for assertions that a detach came once. */
    static boolean hasError(Object frame, String condition) {
        ErrorCondition error = error(frame);
        return error != null && Symbol.valueOf(condition).equals(error.getCondition());
    }

    @Override
    public void close() throws IOException {
        closed = true;
        channel.close();
        writable.close();
        try {
            reader.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
