package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Message;
import dev.sbemu.wire.AmqpMessages;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The message mapping at the wire, in both directions, with the SDK's own serializer at each end:
 * <ul>
 *   <li>send: {@code ServiceBusMessage} → the SDK's serializer → AMQP bytes → core {@link Message};
 *   <li>receive: {@link BrokeredMessage} → the AMQP message the broker would send
 *       ({@link AmqpMessages#toAmqp}) → AMQP bytes → the SDK's serializer, with the lock token as
 *       delivery tag → {@code ServiceBusReceivedMessage}.
 * </ul>
 * Going through the encoded bytes gives exactly the types, precision and failures the real wire gives
 * (an application property the SDK cannot encode fails the send, as it does in production), and no
 * received message shares mutable state with the broker's copy. The AMQP endpoint uses the same
 * {@link AmqpMessages} without the SDK's ends.
 */
public final class WireCodec {
    private WireCodec() {}

    /**
     * The core message for what the SDK puts on the wire for {@code message}. Like the SDK, this
     * rewrites {@code OffsetDateTime}, {@code Duration} and {@code URI} application properties of
     * {@code message} into their AMQP described types (the SDK's serializer does so in place).
     */
    public static Message toCore(ServiceBusMessage message) {
        return AmqpMessages.toCore(AmqpMessages.roundTrip(SdkAccess.serializer().serialize(message)));
    }

    /** What the SDK makes of the broker's delivery of {@code message}. */
    public static ServiceBusReceivedMessage toReceived(BrokeredMessage message) {
        return toReceived(message, message.lockToken());
    }

    /**
     * What the SDK makes of {@code message} delivered on its receive link, whose delivery tag is the SDK's lock
     * token: the message's lock token, or for a receive-and-delete message a GUID of its own (PAR-5: the service
     * tags every delivery with a GUID, so the SDK's {@code getLockToken()} is never null there).
     */
    public static ServiceBusReceivedMessage toReceivedFromLink(BrokeredMessage message) {
        return toReceived(message, message.lockToken() != null ? message.lockToken() : deliveryTag());
    }

    /** A version-4 GUID from the thread's generator: unique enough for a tag, without SecureRandom's cost. */
    private static UUID deliveryTag() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }

    private static ServiceBusReceivedMessage toReceived(BrokeredMessage message, UUID deliveryTag) {
        org.apache.qpid.proton.message.Message amqp = AmqpMessages.roundTrip(AmqpMessages.toAmqp(message));
        if (deliveryTag != null) {
            amqp = SdkAccess.withDeliveryTag(amqp, deliveryTag);
        }
        return SdkAccess.serializer().deserialize(amqp, ServiceBusReceivedMessage.class);
    }
}
