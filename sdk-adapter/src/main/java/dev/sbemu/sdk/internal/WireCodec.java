package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.Message;
import dev.sbemu.wire.AmqpMessages;
import java.util.UUID;

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
     * token: the message's lock token, or for a receive-and-delete message the service's tag (PAR-5: a GUID on a
     * partitioned entity; an empty tag on any other, which azure-core-amqp reads as the zero UUID).
     */
    public static ServiceBusReceivedMessage toReceivedFromLink(BrokeredMessage message) {
        if (message.lockToken() != null) {
            return toReceived(message, message.lockToken());
        }
        UUID presettled = AmqpMessages.presettledDeliveryTag(message);
        return toReceived(message, presettled == null ? EMPTY_TAG : presettled);
    }

    /** The lock token azure-core-amqp 2.12 gives a delivery whose tag is not 16 bytes ({@code DELIVERY_EMPTY_TAG}). */
    private static final UUID EMPTY_TAG = new UUID(0L, 0L);

    private static ServiceBusReceivedMessage toReceived(BrokeredMessage message, UUID deliveryTag) {
        org.apache.qpid.proton.message.Message amqp = AmqpMessages.roundTrip(AmqpMessages.toAmqp(message));
        if (deliveryTag != null) {
            amqp = SdkAccess.withDeliveryTag(amqp, deliveryTag);
        }
        return SdkAccess.serializer().deserialize(amqp, ServiceBusReceivedMessage.class);
    }
}
