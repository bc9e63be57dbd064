package dev.sbemu.sdk;

import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerAsyncClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationAsyncClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;

/**
 * Creates real Azure SDK client instances wired to an emulated {@link Namespace}. Closing it closes
 * every client and processor it created. Thread-safe.
 *
 * <p>SKELETON: the signatures are settled; the bodies are being written.
 */
public final class EmulatorClients implements AutoCloseable {
    private final Namespace namespace;

    private EmulatorClients(Namespace namespace) {
        this.namespace = namespace;
    }

    /** Clients for {@code namespace}. */
    public static EmulatorClients of(Namespace namespace) {
        return new EmulatorClients(java.util.Objects.requireNonNull(namespace, "namespace"));
    }

    public Namespace namespace() {
        return namespace;
    }

    /** A sender to a queue or topic. */
    public ServiceBusSenderClient sender(String queueOrTopic) {
        throw new UnsupportedOperationException("sender");
    }

    public ServiceBusSenderAsyncClient senderAsync(String queueOrTopic) {
        throw new UnsupportedOperationException("senderAsync");
    }

    /** A receiver on a queue or subscription, or one of their sub-queues ({@link EntityPath#withSubQueue}). */
    public ServiceBusReceiverClient receiver(EntityPath entity, ServiceBusReceiveMode mode) {
        throw new UnsupportedOperationException("receiver");
    }

    public ServiceBusReceiverAsyncClient receiverAsync(EntityPath entity, ServiceBusReceiveMode mode) {
        throw new UnsupportedOperationException("receiverAsync");
    }

    /** A session receiver on a session-enabled queue or subscription. */
    public ServiceBusSessionReceiverClient sessionReceiver(EntityPath entity, ServiceBusReceiveMode mode) {
        throw new UnsupportedOperationException("sessionReceiver");
    }

    public ServiceBusSessionReceiverAsyncClient sessionReceiverAsync(EntityPath entity, ServiceBusReceiveMode mode) {
        throw new UnsupportedOperationException("sessionReceiverAsync");
    }

    /** A processor; configure handlers and concurrency through {@link ProcessorOptions}. */
    public ServiceBusProcessorClient processor(EntityPath entity, ProcessorOptions options) {
        throw new UnsupportedOperationException("processor");
    }

    public ServiceBusRuleManagerClient ruleManager(String topic, String subscription) {
        throw new UnsupportedOperationException("ruleManager");
    }

    public ServiceBusRuleManagerAsyncClient ruleManagerAsync(String topic, String subscription) {
        throw new UnsupportedOperationException("ruleManagerAsync");
    }

    public ServiceBusAdministrationClient administrationClient() {
        throw new UnsupportedOperationException("administrationClient");
    }

    public ServiceBusAdministrationAsyncClient administrationAsyncClient() {
        throw new UnsupportedOperationException("administrationAsyncClient");
    }

    @Override
    public void close() {
    }
}
