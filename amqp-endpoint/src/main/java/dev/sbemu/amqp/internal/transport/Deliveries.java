package dev.sbemu.amqp.internal.transport;

import dev.sbemu.core.Message;
import dev.sbemu.wire.AmqpMessages;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.messaging.Data;
import org.apache.qpid.proton.codec.AMQPDefinedTypes;
import org.apache.qpid.proton.codec.DecoderImpl;
import org.apache.qpid.proton.codec.EncoderImpl;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Sender;

/** Delivery I/O: reading whole deliveries off a link, dropping them, decoding them, putting messages on a link; loop thread only. */
public final class Deliveries {
    /** The message format of a Service Bus batch: an envelope whose Data sections are encoded messages. */
    public static final int BATCH_FORMAT = 0x80013700;

    private static final DecoderImpl DECODER = new DecoderImpl();

    static {
        AMQPDefinedTypes.registerAllTypes(DECODER, new EncoderImpl(DECODER));
    }

    private Deliveries() {}

    /** The bytes of a complete delivery, or null while it is still partial. Advances the link. */
    public static byte[] read(Receiver receiver, Delivery delivery) {
        if (!delivery.isReadable() || delivery.isPartial()) {
            return null;
        }
        byte[] bytes = new byte[delivery.pending()];
        int read = receiver.recv(bytes, 0, bytes.length);
        receiver.advance();
        return read == bytes.length ? bytes : Arrays.copyOf(bytes, Math.max(read, 0));
    }

    /**
     * Drops what arrived of a delivery nobody will read (its link was detached, or it was aborted): its bytes are
     * freed, and once it is complete or aborted it is settled and the link moves past it.
     */
    public static void discard(Receiver receiver) {
        byte[] scratch = null;
        Delivery delivery;
        while ((delivery = receiver.current()) != null) {
            if (delivery.pending() > 0) {
                scratch = scratch != null ? scratch : new byte[8192];
                while (receiver.recv(scratch, 0, scratch.length) > 0) {
                    // dropped
                }
            }
            if (delivery.isPartial() && !delivery.isAborted()) {
                return;
            }
            receiver.advance();
            delivery.settle();
        }
    }

    /** A message whose bytes do not decode; answered with {@code amqp:decode-error} (AMQP-19). */
    public static final class MalformedMessage extends RuntimeException {
        public MalformedMessage(Throwable cause) {
            super("The message could not be decoded: " + cause, null, false, false);
        }
    }

    /** Drops an aborted delivery (AMQP 1.0 2.6.14): its bytes are freed and the link moves past it. */
    public static void dropAborted(Receiver receiver, Delivery delivery) {
        if (receiver.current() == delivery) {
            byte[] scratch = new byte[8192];
            while (receiver.recv(scratch, 0, scratch.length) > 0) {
                // dropped
            }
            receiver.advance();
        }
        delivery.settle();
    }

    /** Decodes a message the client sent; {@link MalformedMessage} when its bytes are not an AMQP message. */
    public static org.apache.qpid.proton.message.Message decode(byte[] bytes) {
        org.apache.qpid.proton.message.Message message = Proton.message();
        try {
            message.decode(bytes, 0, bytes.length);
        } catch (RuntimeException | StackOverflowError e) {
            throw new MalformedMessage(e);
        }
        return message;
    }

    /**
     * The core messages of a delivery: one, or every message of a batch envelope, as the client sent them (a
     * message sent without a message id gets one from the broker once its size was checked, MSG-2, MSG-3).
     */
    public static List<Message> messages(byte[] bytes, int format) {
        if (format != BATCH_FORMAT) {
            return List.of(AmqpMessages.toCore(bytes, 0, bytes.length));
        }
        List<Message> messages = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        synchronized (DECODER) {
            DECODER.setByteBuffer(buffer);
            try {
                while (buffer.hasRemaining()) {
                    if (DECODER.readObject() instanceof Data data) {
                        Binary b = data.getValue();
                        messages.add(AmqpMessages.toCore(b.getArray(), b.getArrayOffset(), b.getLength()));
                    }
                }
            } finally {
                DECODER.setByteBuffer(null);
            }
        }
        return messages;
    }

    /** Sends {@code message} on {@code sender} with {@code tag}, settled at once when {@code presettle}. */
    public static Delivery send(
            Sender sender, byte[] tag, org.apache.qpid.proton.message.Message message, boolean presettle) {
        Delivery delivery = sender.delivery(tag);
        byte[] bytes = AmqpMessages.encode(message);
        sender.send(bytes, 0, bytes.length);
        if (presettle) {
            delivery.settle();
        }
        sender.advance();
        return delivery;
    }
}
