package dev.sbemu.sdk.internal;

import com.azure.core.amqp.exception.AmqpErrorContext;
import com.azure.core.amqp.implementation.ErrorContextProvider;
import com.azure.core.amqp.implementation.MessageSerializer;
import com.azure.messaging.servicebus.ServiceBusErrorContext;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessageContext;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.implementation.instrumentation.ServiceBusTracer;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessibleObject;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import org.apache.qpid.proton.message.Message;

/**
 * The one place that reaches package-private members of the Azure SDK (7.17.x), so that the adapter
 * builds SDK objects exactly as the SDK does: its message serializer, its message batch, its
 * tagged AMQP message (the delivery tag carries the lock token), the settled flag of a received
 * message, the processor's context objects and transaction contexts. Every handle is resolved once, when this class loads;
 * a changed SDK fails here, loudly, naming the member.
 */
public final class SdkAccess {
    private static final String SB = "com.azure.messaging.servicebus.";
    private static final MessageSerializer SERIALIZER;
    private static final MethodHandle NEW_BATCH;
    private static final MethodHandle BATCH_MESSAGES;
    private static final MethodHandle NEW_TAGGED_MESSAGE;
    private static final MethodHandle IS_SETTLED;
    private static final MethodHandle SET_SETTLED;
    private static final MethodHandle NEW_MESSAGE_CONTEXT;
    private static final MethodHandle NEW_RECEIVED_MESSAGE_CONTEXT;
    private static final MethodHandle NEW_ERROR_CONTEXT;
    private static final MethodHandle NEW_TRANSACTION_CONTEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Class<?> serializerClass = Class.forName(SB + "ServiceBusMessageSerializer");
            SERIALIZER = (MessageSerializer)
                    open(serializerClass.getDeclaredConstructor()).newInstance();
            NEW_BATCH = lookup.unreflectConstructor(open(ServiceBusMessageBatch.class.getDeclaredConstructor(
                    boolean.class,
                    int.class,
                    ErrorContextProvider.class,
                    ServiceBusTracer.class,
                    MessageSerializer.class)));
            BATCH_MESSAGES = lookup.unreflect(open(ServiceBusMessageBatch.class.getDeclaredMethod("getMessages")));
            Class<?> tagged = Class.forName("com.azure.core.amqp.implementation.handler.MessageWithDeliveryTag");
            NEW_TAGGED_MESSAGE =
                    lookup.unreflectConstructor(open(tagged.getDeclaredConstructor(Message.class, UUID.class)));
            IS_SETTLED = lookup.unreflect(open(ServiceBusReceivedMessage.class.getDeclaredMethod("isSettled")));
            SET_SETTLED = lookup.unreflect(open(ServiceBusReceivedMessage.class.getDeclaredMethod("setIsSettled")));
            Class<?> messageContext = Class.forName(SB + "ServiceBusMessageContext");
            NEW_MESSAGE_CONTEXT = lookup.unreflectConstructor(
                    open(messageContext.getDeclaredConstructor(ServiceBusReceivedMessage.class)));
            NEW_RECEIVED_MESSAGE_CONTEXT =
                    lookup.unreflectConstructor(open(ServiceBusReceivedMessageContext.class.getDeclaredConstructor(
                            ServiceBusReceiverAsyncClient.class, messageContext)));
            NEW_ERROR_CONTEXT = lookup.unreflectConstructor(open(
                    ServiceBusErrorContext.class.getDeclaredConstructor(Throwable.class, String.class, String.class)));
            NEW_TRANSACTION_CONTEXT = lookup.unreflectConstructor(
                    open(ServiceBusTransactionContext.class.getDeclaredConstructor(ByteBuffer.class)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError(new IllegalStateException(
                    "This version of azure-messaging-servicebus does not have the members sbemu needs: " + e, e));
        }
    }

    private SdkAccess() {}

    private static <T extends AccessibleObject> T open(T member) {
        member.setAccessible(true);
        return member;
    }

    /** The SDK's own {@code ServiceBusMessageSerializer}: AMQP messages to and from SDK messages. */
    public static MessageSerializer serializer() {
        return SERIALIZER;
    }

    /** A real, empty {@link ServiceBusMessageBatch} with the SDK's size accounting for {@code maxSizeInBytes}. */
    public static ServiceBusMessageBatch newBatch(
            int maxSizeInBytes, String fullyQualifiedNamespace, String entityPath) {
        ErrorContextProvider errorContext = () -> new AmqpErrorContext(fullyQualifiedNamespace);
        ServiceBusTracer tracer = new ServiceBusTracer(null, fullyQualifiedNamespace, entityPath);
        return (ServiceBusMessageBatch) invoke(NEW_BATCH, true, maxSizeInBytes, errorContext, tracer, SERIALIZER);
    }

    /** The messages a batch holds. */
    @SuppressWarnings("unchecked")
    public static List<ServiceBusMessage> batchMessages(ServiceBusMessageBatch batch) {
        return (List<ServiceBusMessage>) invoke(BATCH_MESSAGES, batch);
    }

    /** An AMQP message as the SDK's receive link hands it on: with its delivery tag (the lock token). */
    public static Message withDeliveryTag(Message message, UUID deliveryTag) {
        return (Message) invoke(NEW_TAGGED_MESSAGE, message, deliveryTag);
    }

    /** Whether the SDK considers the message settled (completed, abandoned, deferred or dead-lettered). */
    public static boolean isSettled(ServiceBusReceivedMessage message) {
        return (boolean) invoke(IS_SETTLED, message);
    }

    /** Marks the message settled, as the SDK does after a successful settlement. */
    public static void markSettled(ServiceBusReceivedMessage message) {
        invoke(SET_SETTLED, message);
    }

    /** The context a processor hands its message handler; its settlement methods call {@code receiver}. */
    public static ServiceBusReceivedMessageContext receivedMessageContext(
            ServiceBusReceiverAsyncClient receiver, ServiceBusReceivedMessage message) {
        Object context = invoke(NEW_MESSAGE_CONTEXT, message);
        return (ServiceBusReceivedMessageContext) invoke(NEW_RECEIVED_MESSAGE_CONTEXT, receiver, context);
    }

    /** The context a processor hands its error handler. */
    public static ServiceBusErrorContext errorContext(
            Throwable error, String fullyQualifiedNamespace, String entityPath) {
        return (ServiceBusErrorContext) invoke(NEW_ERROR_CONTEXT, error, fullyQualifiedNamespace, entityPath);
    }

    /** A transaction context as the SDK makes it from the coordinator's declared transaction id. */
    public static ServiceBusTransactionContext transactionContext(ByteBuffer transactionId) {
        return (ServiceBusTransactionContext) invoke(NEW_TRANSACTION_CONTEXT, transactionId);
    }

    private static Object invoke(MethodHandle handle, Object... args) {
        try {
            return handle.invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
