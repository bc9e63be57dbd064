package dev.sbemu.core;

import java.util.Objects;

/**
 * Where messages are received from: a queue or a subscription, and one of its sub-queues.
 *
 * @param topicOrQueue the queue name, or the topic name for a subscription
 * @param subscription the subscription name, or {@code null} for a queue
 * @param subQueue the part of it: the queue itself or one of its dead-letter sub-queues
 */
public record EntityPath(String topicOrQueue, String subscription, Part subQueue) {

    /**
     * The part of a queue or subscription that is received from (the service's sub-queues). The SDK's
     * {@code com.azure.messaging.servicebus.models.SubQueue} names the same parts; this one keeps the core free of
     * the SDK.
     */
    public enum Part {
        /** The queue or subscription itself. */
        NONE(""),
        /** Its dead-letter queue (SPEC DLQ-1). */
        DEAD_LETTER_QUEUE("/$deadletterqueue"),
        /** Its transfer dead-letter queue, for messages that auto-forwarding could not deliver. */
        TRANSFER_DEAD_LETTER_QUEUE("/$Transfer/$deadletterqueue");

        private final String pathSuffix;

        Part(String pathSuffix) {
            this.pathSuffix = pathSuffix;
        }

        /** The suffix the service appends to the entity path. */
        public String pathSuffix() {
            return pathSuffix;
        }
    }

    public EntityPath {
        Objects.requireNonNull(topicOrQueue, "topicOrQueue");
        Objects.requireNonNull(subQueue, "subQueue");
    }

    /** The queue itself. */
    public static EntityPath queue(String queue) {
        return new EntityPath(queue, null, Part.NONE);
    }

    /** A subscription of a topic. */
    public static EntityPath subscription(String topic, String subscription) {
        Objects.requireNonNull(subscription, "subscription");
        return new EntityPath(topic, subscription, Part.NONE);
    }

    /** The same entity's sub-queue. */
    public EntityPath withSubQueue(Part subQueue) {
        return new EntityPath(topicOrQueue, subscription, subQueue);
    }

    /** The dead-letter sub-queue of the same entity. */
    public EntityPath deadLetter() {
        return withSubQueue(Part.DEAD_LETTER_QUEUE);
    }

    public boolean isSubscription() {
        return subscription != null;
    }

    /** The service's path: {@code queue}, {@code topic/Subscriptions/sub}, plus the sub-queue suffix. */
    @Override
    public String toString() {
        return entityName() + subQueue.pathSuffix();
    }

    /** The entity's path without the sub-queue. */
    public String entityName() {
        return subscription == null ? topicOrQueue : topicOrQueue + "/Subscriptions/" + subscription;
    }
}
