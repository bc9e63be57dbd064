package dev.sbemu.amqp.internal.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import org.apache.qpid.proton.engine.Transport;
import org.apache.qpid.proton.engine.TransportException;
import org.apache.qpid.proton.engine.impl.TransportInput;
import org.apache.qpid.proton.engine.impl.TransportLayer;
import org.apache.qpid.proton.engine.impl.TransportOutput;
import org.apache.qpid.proton.engine.impl.TransportWrapper;

/**
 * AMQP over WebSockets, the server's side (AMQP-26): a proton-j transport layer between the socket (or the TLS layer)
 * and SASL, as the SDKs' client side is (qpid-proton-j-extensions' {@code WebSocketImpl}). It answers the upgrade
 * request ({@link WebSocketUpgrade}), then unmasks the client's frames into the AMQP bytes proton-j reads and sends
 * what proton-j writes in unmasked binary frames; it answers pings with pongs and a close with a close. RFC 6455
 * framing only: no extensions, no text. Everything is bounded: the upgrade head ({@value WebSocketUpgrade#MAX_HEAD}
 * bytes), a frame's length (the endpoint's max frame size before the connection is authorized; payloads stream
 * through a fixed buffer, so a longer one after that costs no memory), control frames (125 bytes, only the last
 * unanswered ping kept). A broken rule closes the connection with the RFC's status code (1002, 1003, 1009) and a
 * reason. On the TLS port the layer first sniffs the decrypted bytes: an HTTP request line is an upgrade request,
 * anything else passes through as AMQP. Loop thread only, as the transport it is part of.
 */
final class WebSocketLayer implements TransportLayer {
    /** The input and output buffers' size: payloads stream through them, frames of any length fit. */
    private static final int BUFFER = 16 * 1024;

    private static final int OP_CONTINUATION = 0;
    private static final int OP_TEXT = 1;
    private static final int OP_BINARY = 2;
    private static final int OP_CLOSE = 8;
    private static final int OP_PING = 9;
    private static final int OP_PONG = 10;

    private final boolean sniff;
    private final int maxFrameBeforeAuthorization;
    private final BooleanSupplier authorized;

    /**
     * @param sniff the TLS port's layer: the first bytes tell a WebSocket upgrade (an HTTP request line) from AMQP,
     *     which passes through untouched
     * @param maxFrameSize the largest frame payload taken before the connection is authorized (the endpoint's max AMQP
     *     frame size: SASL and the first frames are small)
     * @param authorized whether the connection is authorized now
     */
    WebSocketLayer(boolean sniff, int maxFrameSize, BooleanSupplier authorized) {
        this.sniff = sniff;
        this.maxFrameBeforeAuthorization = maxFrameSize;
        this.authorized = authorized;
    }

    @Override
    public TransportWrapper wrap(TransportInput input, TransportOutput output) {
        return new Wrapper(input, output);
    }

    private enum In {
        /** TLS port: the first byte decides. */
        SNIFF,
        /** Reading the upgrade request's head. */
        HEAD,
        FRAME_HEADER,
        /** A data frame's payload, streamed into proton-j. */
        PAYLOAD,
        /** A control frame's payload, read whole (at most 125 bytes). */
        CONTROL,
        /** AMQP without WebSocket (TLS port): copied through. */
        PASS,
        /** Closed or failed: the rest is read and dropped until the client hangs up. */
        DISCARD
    }

    private enum Out {
        /** Nothing goes out before the upgrade is answered. */
        HOLD,
        OPEN,
        /** A refusal or a close frame is the last thing out; then end of stream. */
        CLOSING,
        /** AMQP without WebSocket (TLS port). */
        PASS
    }

    private final class Wrapper implements TransportWrapper {
        private final TransportInput under;
        private final TransportOutput underOut;
        /** Write mode: the bytes not processed yet are at its start. */
        private final ByteBuffer in = ByteBuffer.allocate(BUFFER);
        /** Write mode: whole frames (or the handshake's answer) waiting for the socket. */
        private final ByteBuffer out = ByteBuffer.allocate(BUFFER + 16);

        private In inState = sniff ? In.SNIFF : In.HEAD;
        private Out outState = Out.HOLD;
        private boolean tailClosed;
        private boolean underTailClosed;

        private int opcode;
        private long payloadLeft;
        private final byte[] mask = new byte[4];
        private int maskAt;
        /** A fragmented message has begun and not ended. */
        private boolean inMessage;
        /** The payload of the last ping not answered yet (RFC 6455 §5.5.3 allows answering the last only). */
        private byte[] pong;
        /** A close frame waiting for room in {@link #out}. */
        private byte[] closeFrame;
        /** Set by a broken rule: thrown from {@link #process} once the answer is queued. */
        private String failure;

        private Wrapper(TransportInput under, TransportOutput underOut) {
            this.under = under;
            this.underOut = underOut;
        }

        @Override
        public int capacity() {
            return tailClosed ? Transport.END_OF_STREAM : in.remaining();
        }

        @Override
        public int position() {
            return tailClosed ? Transport.END_OF_STREAM : in.position();
        }

        @Override
        public ByteBuffer tail() {
            if (tailClosed) {
                throw new TransportException("tail closed");
            }
            return in;
        }

        @Override
        public void process() throws TransportException {
            in.flip();
            try {
                drive();
            } finally {
                in.compact();
            }
            if (failure != null) {
                String reason = failure;
                failure = null;
                throw new TransportException(reason);
            }
        }

        @Override
        public void close_tail() {
            tailClosed = true;
            closeUnderTail();
        }

        private void closeUnderTail() {
            if (!underTailClosed) {
                underTailClosed = true;
                under.close_tail();
            }
        }

        private void drive() {
            boolean more = true;
            while (more) {
                more = switch (inState) {
                    case SNIFF -> sniffed();
                    case HEAD -> upgradeHead();
                    case FRAME_HEADER -> frameHeader();
                    case PAYLOAD -> payload();
                    case CONTROL -> control();
                    case PASS -> passOn();
                    case DISCARD -> {
                        in.position(in.limit());
                        yield false;
                    }
                };
            }
        }

        private boolean sniffed() {
            if (!in.hasRemaining()) {
                return false;
            }
            if (ProtocolSniffer.isHttpStart(in.get(in.position()))) {
                inState = In.HEAD;
            } else {
                inState = In.PASS;
                outState = Out.PASS;
            }
            return true;
        }

        private boolean passOn() {
            int capacity = under.capacity();
            if (capacity < 0) {
                in.position(in.limit());
                return false;
            }
            int n = Math.min(capacity, in.remaining());
            if (n == 0) {
                return false;
            }
            ByteBuffer chunk = in.duplicate();
            chunk.limit(chunk.position() + n);
            under.tail().put(chunk);
            in.position(in.position() + n);
            under.process();
            return true;
        }

        private boolean upgradeHead() {
            int end = blankLine();
            if (end < 0 || end - in.position() > WebSocketUpgrade.MAX_HEAD) {
                if (end >= 0 || in.remaining() >= WebSocketUpgrade.MAX_HEAD) {
                    answer(WebSocketUpgrade.refuse(
                            431,
                            "Request Header Fields Too Large",
                            "The upgrade request's head is over " + WebSocketUpgrade.MAX_HEAD + " bytes."));
                }
                return false;
            }
            byte[] bytes = new byte[end - in.position()];
            in.get(bytes);
            in.position(end + 4);
            WebSocketUpgrade.Answer answer = WebSocketUpgrade.answer(new String(bytes, StandardCharsets.ISO_8859_1));
            answer(answer);
            return answer.upgraded();
        }

        /** Where the head's blank line ({@code \r\n\r\n}) starts, or -1 while it has not come. */
        private int blankLine() {
            for (int i = in.position(); i + 3 < in.limit(); i++) {
                if (in.get(i) == '\r' && in.get(i + 1) == '\n' && in.get(i + 2) == '\r' && in.get(i + 3) == '\n') {
                    return i;
                }
            }
            return -1;
        }

        private void answer(WebSocketUpgrade.Answer answer) {
            out.put(answer.bytes());
            if (answer.upgraded()) {
                outState = Out.OPEN;
                inState = In.FRAME_HEADER;
            } else {
                outState = Out.CLOSING;
                inState = In.DISCARD;
                failure = "WebSocket upgrade refused: " + answer.refusal();
            }
        }

        private boolean frameHeader() {
            if (in.remaining() < 2) {
                return false;
            }
            int at = in.position();
            int first = in.get(at) & 0xFF;
            int second = in.get(at + 1) & 0xFF;
            int lengthCode = second & 0x7F;
            int extended = lengthCode == 126 ? 2 : lengthCode == 127 ? 8 : 0;
            boolean masked = (second & 0x80) != 0;
            int headerLength = 2 + extended + (masked ? 4 : 0);
            if (in.remaining() < headerLength) {
                return false;
            }
            long length = lengthCode;
            if (extended == 2) {
                length = in.getShort(at + 2) & 0xFFFF;
            } else if (extended == 8) {
                length = in.getLong(at + 2);
            }
            boolean fin = (first & 0x80) != 0;
            opcode = first & 0x0F;
            boolean control = opcode >= OP_CLOSE;
            if ((first & 0x70) != 0) {
                return fail(1002, "reserved bits set in a frame; no extension was agreed");
            }
            if (!masked) {
                return fail(1002, "a client's frame must be masked (RFC 6455 section 5.1)");
            }
            if (opcode != OP_CONTINUATION
                    && opcode != OP_TEXT
                    && opcode != OP_BINARY
                    && opcode != OP_CLOSE
                    && opcode != OP_PING
                    && opcode != OP_PONG) {
                return fail(1002, "unknown opcode " + opcode);
            }
            if (control && (!fin || length > 125)) {
                return fail(1002, "a control frame must be one frame of at most 125 bytes");
            }
            if (opcode == OP_TEXT) {
                return fail(1003, "AMQP travels in binary messages; a text frame came");
            }
            if (opcode == OP_CONTINUATION && !inMessage) {
                return fail(1002, "a continuation frame with no message to continue");
            }
            if (opcode == OP_BINARY && inMessage) {
                return fail(1002, "a message began before the previous one ended");
            }
            long limit = authorized.getAsBoolean() ? Integer.MAX_VALUE : maxFrameBeforeAuthorization;
            if (length < 0 || length > limit) {
                return fail(
                        1009,
                        "a frame of " + length + " bytes is over the " + limit + " bytes allowed"
                                + (authorized.getAsBoolean() ? "" : " before the connection is authorized"));
            }
            for (int i = 0; i < 4; i++) {
                mask[i] = in.get(at + 2 + extended + i);
            }
            in.position(at + headerLength);
            payloadLeft = length;
            maskAt = 0;
            if (control) {
                inState = In.CONTROL;
            } else {
                inMessage = !fin;
                inState = In.PAYLOAD;
            }
            return true;
        }

        private boolean payload() {
            if (payloadLeft == 0) {
                inState = In.FRAME_HEADER;
                return true;
            }
            if (!in.hasRemaining()) {
                return false;
            }
            int available = (int) Math.min(payloadLeft, in.remaining());
            int capacity = under.capacity();
            if (capacity < 0) {
                // proton-j's input has ended: what still comes is dropped
                in.position(in.position() + available);
                payloadLeft -= available;
                return true;
            }
            int n = Math.min(available, capacity);
            if (n == 0) {
                return false;
            }
            ByteBuffer tail = under.tail();
            for (int i = 0; i < n; i++) {
                tail.put((byte) (in.get() ^ mask[maskAt++ & 3]));
            }
            payloadLeft -= n;
            under.process();
            return true;
        }

        private boolean control() {
            if (in.remaining() < payloadLeft) {
                return false;
            }
            byte[] data = new byte[(int) payloadLeft];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (in.get() ^ mask[i & 3]);
            }
            payloadLeft = 0;
            inState = In.FRAME_HEADER;
            if (opcode == OP_PING) {
                pong = data;
            } else if (opcode == OP_CLOSE) {
                if (data.length == 1) {
                    return fail(1002, "a close frame's body must be empty or start with a status code");
                }
                // the client closes: the close is answered with its status code (RFC 6455 section 5.5.1), then the
                // connection ends as when a client hangs up
                byte[] status = data.length == 0 ? new byte[0] : new byte[] {data[0], data[1]};
                closeFrame = frame(OP_CLOSE, status);
                outState = Out.CLOSING;
                inState = In.DISCARD;
                closeUnderTail();
                return false;
            }
            return true;
        }

        /** A broken rule: the connection is closed with {@code status} and {@code reason}, and the rest is dropped. */
        private boolean fail(int status, String reason) {
            byte[] text = reason.getBytes(StandardCharsets.UTF_8);
            byte[] body = new byte[2 + Math.min(text.length, 123)];
            body[0] = (byte) (status >> 8);
            body[1] = (byte) status;
            System.arraycopy(text, 0, body, 2, body.length - 2);
            closeFrame = frame(OP_CLOSE, body);
            outState = Out.CLOSING;
            inState = In.DISCARD;
            failure = "WebSocket protocol error (" + status + "): " + reason;
            return false;
        }

        @Override
        public int pending() {
            if (outState == Out.PASS) {
                return underOut.pending();
            }
            fill();
            if (out.position() > 0) {
                return out.position();
            }
            return outState == Out.CLOSING && closeFrame == null ? Transport.END_OF_STREAM : 0;
        }

        /** Moves what proton-j has to send into binary frames, after a pong or a close waiting for room. */
        private void fill() {
            if (outState == Out.OPEN && pong != null && out.remaining() >= 2 + pong.length) {
                out.put(frame(OP_PONG, pong));
                pong = null;
            }
            while (outState == Out.OPEN && out.remaining() > 4) {
                int pending = underOut.pending();
                if (pending < 0) {
                    // proton-j is done (its close is out): the WebSocket closes normally after it
                    closeFrame = frame(OP_CLOSE, new byte[] {(byte) (1000 >> 8), (byte) (1000 & 0xFF)});
                    outState = Out.CLOSING;
                    break;
                }
                if (pending == 0) {
                    break;
                }
                // the buffer holds less than 64 KB: a payload's length takes at most the 2 extended bytes
                int length = Math.min(pending, out.remaining() - 4);
                header(OP_BINARY, length);
                ByteBuffer chunk = underOut.head().duplicate();
                chunk.limit(chunk.position() + length);
                out.put(chunk);
                underOut.pop(length);
            }
            if (closeFrame != null && out.remaining() >= closeFrame.length) {
                out.put(closeFrame);
                closeFrame = null;
            }
        }

        private void header(int op, int length) {
            out.put((byte) (0x80 | op));
            if (length <= 125) {
                out.put((byte) length);
            } else {
                out.put((byte) 126);
                out.putShort((short) length);
            }
        }

        private byte[] frame(int op, byte[] payload) {
            byte[] frame = new byte[2 + payload.length];
            frame[0] = (byte) (0x80 | op);
            frame[1] = (byte) payload.length;
            System.arraycopy(payload, 0, frame, 2, payload.length);
            return frame;
        }

        @Override
        public ByteBuffer head() {
            if (outState == Out.PASS) {
                return underOut.head();
            }
            ByteBuffer view = out.duplicate();
            view.flip();
            return view;
        }

        @Override
        public void pop(int bytes) {
            if (outState == Out.PASS) {
                underOut.pop(bytes);
                return;
            }
            out.flip();
            out.position(bytes);
            out.compact();
        }

        @Override
        public void close_head() {
            underOut.close_head();
        }
    }
}
