package dev.sbemu.server;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.apache.qpid.proton.amqp.transport.Close;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.Open;
import org.apache.qpid.proton.codec.AMQPDefinedTypes;
import org.apache.qpid.proton.codec.DecoderImpl;
import org.apache.qpid.proton.codec.EncoderImpl;
import org.apache.qpid.proton.codec.WritableBuffer;

/**
 * A frame-level AMQP client for the server's tests: it opens a connection (no SASL, which the server allows) and
 * reads the server's frames, so a test can see the condition of the close the server sends. proton-j's codec only.
 */
final class RawAmqpConnection implements AutoCloseable {
    private static final byte[] AMQP_HEADER = {'A', 'M', 'Q', 'P', 0, 1, 0, 0};

    private final Socket socket;
    private final DataInputStream in;
    private final DecoderImpl decoder = new DecoderImpl();
    private final EncoderImpl encoder = new EncoderImpl(decoder);

    /** Connects to {@code port} on the loopback interface and opens a connection; returns once the server opened. */
    static RawAmqpConnection open(int port, Duration wait) throws IOException {
        RawAmqpConnection connection = new RawAmqpConnection(port, wait);
        connection.sendOpen();
        Object first = connection.nextPerformative();
        if (!(first instanceof Open)) {
            connection.close();
            throw new IOException("expected the server's open, got " + first);
        }
        return connection;
    }

    private RawAmqpConnection(int port, Duration wait) throws IOException {
        AMQPDefinedTypes.registerAllTypes(decoder, encoder);
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout((int) wait.toMillis());
        in = new DataInputStream(socket.getInputStream());
    }

    private void sendOpen() throws IOException {
        Open open = new Open();
        open.setContainerId("raw-test-client");
        ByteBuffer body = ByteBuffer.allocate(1024);
        encoder.setByteBuffer(new WritableBuffer.ByteBufferWrapper(body));
        encoder.writeObject(open);
        body.flip();
        ByteBuffer frame = ByteBuffer.allocate(8 + body.remaining());
        frame.putInt(8 + body.remaining())
                .put((byte) 2)
                .put((byte) 0)
                .putShort((short) 0)
                .put(body);
        OutputStream out = socket.getOutputStream();
        out.write(AMQP_HEADER);
        out.write(frame.array());
        out.flush();
    }

    /** The next performative the server sent (an empty frame, a heartbeat, is skipped); times out per the wait. */
    Object nextPerformative() throws IOException {
        while (true) {
            int size = in.readInt();
            if (size == 0x414D5150) { // "AMQP": the server's protocol header
                in.readInt();
                continue;
            }
            int dataOffset = in.readUnsignedByte() * 4;
            in.readUnsignedByte(); // type
            in.readUnsignedShort(); // channel
            in.skipNBytes(dataOffset - 8);
            byte[] body = new byte[size - dataOffset];
            in.readFully(body);
            if (body.length == 0) {
                continue;
            }
            decoder.setByteBuffer(ByteBuffer.wrap(body));
            return decoder.readObject();
        }
    }

    /** Reads until the server's close and returns its error (null for a close without one). */
    ErrorCondition awaitClose() throws IOException {
        while (true) {
            Object performative = nextPerformative();
            if (performative instanceof Close close) {
                return close.getError();
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
