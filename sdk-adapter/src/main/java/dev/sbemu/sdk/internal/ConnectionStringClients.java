package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusClientBuilder.ServiceBusProcessorClientBuilder;
import com.azure.messaging.servicebus.ServiceBusClientBuilder.ServiceBusReceiverClientBuilder;
import com.azure.messaging.servicebus.ServiceBusClientBuilder.ServiceBusSessionProcessorClientBuilder;
import com.azure.messaging.servicebus.ServiceBusClientBuilder.ServiceBusSessionReceiverClientBuilder;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerAsyncClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.EntityPath;
import dev.sbemu.sdk.ProcessorOptions;
import java.time.Duration;

/**
 * Builds the SDK's own clients with {@code new ServiceBusClientBuilder().connectionString(...)}, as production
 * code does, all from one builder and so over one shared AMQP connection (transactions span the clients of a
 * connection).
 *
 * <p>Receivers and session receivers are built with automatic lock renewal off
 * ({@code maxAutoLockRenewDuration(Duration.ZERO)}), as the in-process receivers behave: the SDK renews on the
 * wall clock, while the broker's locks run on the namespace's virtual clock, so a renewal would keep a lock
 * alive that the test expects to time out when it advances the clock. They are also built with
 * {@code disableAutoComplete()}: the in-process async receivers leave settling to the caller, while the SDK's
 * async receiver would complete each message its {@code receiveMessages()} flux hands on (the sync receivers
 * never auto-complete). Processors keep the renewal and auto-completion their {@link ProcessorOptions} ask for.
 */
public final class ConnectionStringClients {
    private final ServiceBusClientBuilder builder;

    public ConnectionStringClients(String connectionString) {
        this.builder = new ServiceBusClientBuilder().connectionString(connectionString);
    }

    public ServiceBusSenderClient sender(String queueOrTopic) {
        return builder.sender().queueName(queueOrTopic).buildClient();
    }

    public ServiceBusSenderAsyncClient senderAsync(String queueOrTopic) {
        return builder.sender().queueName(queueOrTopic).buildAsyncClient();
    }

    public ServiceBusReceiverClient receiver(EntityPath entity, ServiceBusReceiveMode mode) {
        return receiverBuilder(entity, mode).buildClient();
    }

    public ServiceBusReceiverAsyncClient receiverAsync(EntityPath entity, ServiceBusReceiveMode mode) {
        return receiverBuilder(entity, mode).buildAsyncClient();
    }

    private ServiceBusReceiverClientBuilder receiverBuilder(EntityPath entity, ServiceBusReceiveMode mode) {
        ServiceBusReceiverClientBuilder receiver = builder.receiver()
                .receiveMode(mode)
                .disableAutoComplete()
                .maxAutoLockRenewDuration(Duration.ZERO)
                .subQueue(sdkSubQueue(entity.subQueue()));
        return entity.isSubscription()
                ? receiver.topicName(entity.topicOrQueue()).subscriptionName(entity.subscription())
                : receiver.queueName(entity.topicOrQueue());
    }

    public ServiceBusSessionReceiverClient sessionReceiver(EntityPath entity, ServiceBusReceiveMode mode) {
        return sessionReceiverBuilder(entity, mode).buildClient();
    }

    public ServiceBusSessionReceiverAsyncClient sessionReceiverAsync(EntityPath entity, ServiceBusReceiveMode mode) {
        return sessionReceiverBuilder(entity, mode).buildAsyncClient();
    }

    private ServiceBusSessionReceiverClientBuilder sessionReceiverBuilder(
            EntityPath entity, ServiceBusReceiveMode mode) {
        requireNoSubQueue(entity, "session receiver");
        ServiceBusSessionReceiverClientBuilder receiver = builder.sessionReceiver()
                .receiveMode(mode)
                .disableAutoComplete()
                .maxAutoLockRenewDuration(Duration.ZERO);
        return entity.isSubscription()
                ? receiver.topicName(entity.topicOrQueue()).subscriptionName(entity.subscription())
                : receiver.queueName(entity.topicOrQueue());
    }

    /** The SDK's processor (or session processor) with the options' handlers and settings. */
    public ServiceBusProcessorClient processor(EntityPath entity, ProcessorOptions options) {
        if (options.sessionEnabled()) {
            requireNoSubQueue(entity, "session processor");
            ServiceBusSessionProcessorClientBuilder processor = builder.sessionProcessor()
                    .processMessage(options.processMessage())
                    .processError(options.processError())
                    .maxConcurrentCalls(options.maxConcurrentCalls())
                    .maxConcurrentSessions(options.maxConcurrentSessions())
                    .maxAutoLockRenewDuration(options.maxAutoLockRenewDuration())
                    .receiveMode(options.receiveMode());
            if (!options.autoComplete()) {
                processor.disableAutoComplete();
            }
            return (entity.isSubscription()
                            ? processor.topicName(entity.topicOrQueue()).subscriptionName(entity.subscription())
                            : processor.queueName(entity.topicOrQueue()))
                    .buildProcessorClient();
        }
        ServiceBusProcessorClientBuilder processor = builder.processor()
                .processMessage(options.processMessage())
                .processError(options.processError())
                .maxConcurrentCalls(options.maxConcurrentCalls())
                .maxAutoLockRenewDuration(options.maxAutoLockRenewDuration())
                .receiveMode(options.receiveMode())
                .subQueue(sdkSubQueue(entity.subQueue()));
        if (!options.autoComplete()) {
            processor.disableAutoComplete();
        }
        return (entity.isSubscription()
                        ? processor.topicName(entity.topicOrQueue()).subscriptionName(entity.subscription())
                        : processor.queueName(entity.topicOrQueue()))
                .buildProcessorClient();
    }

    public ServiceBusRuleManagerClient ruleManager(String topic, String subscription) {
        return builder.ruleManager()
                .topicName(topic)
                .subscriptionName(subscription)
                .buildClient();
    }

    public ServiceBusRuleManagerAsyncClient ruleManagerAsync(String topic, String subscription) {
        return builder.ruleManager()
                .topicName(topic)
                .subscriptionName(subscription)
                .buildAsyncClient();
    }

    private static SubQueue sdkSubQueue(EntityPath.Part subQueue) {
        return switch (subQueue) {
            case NONE -> SubQueue.NONE;
            case DEAD_LETTER_QUEUE -> SubQueue.DEAD_LETTER_QUEUE;
            case TRANSFER_DEAD_LETTER_QUEUE -> SubQueue.TRANSFER_DEAD_LETTER_QUEUE;
        };
    }

    private static void requireNoSubQueue(EntityPath entity, String what) {
        if (entity.subQueue() != EntityPath.Part.NONE) {
            throw new IllegalArgumentException(
                    "A " + what + " cannot read a sub-queue (" + entity + "): sub-queues have no sessions");
        }
    }
}
