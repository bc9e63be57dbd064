package dev.sbemu.core;

import java.util.Objects;

/**
 * Where messages are received from: a queue or a subscription, and one of its sub-queues.
 *
 * @param topicOrQueue the queue name, or the topic name for a subscription
 * @param subscription the subscription name, or {@code null} for a queue
 * @param subQueue the sub-queue
 */
public record EntityPath(String topicOrQueue, String subscription, SubQueue subQueue) {

    public EntityPath {
        Objects.requireNonNull(topicOrQueue, "topicOrQueue");
        Objects.requireNonNull(subQueue, "subQueue");
    }

    /** The queue itself. */
    public static EntityPath queue(String queue) {
        return new EntityPath(queue, null, SubQueue.NONE);
    }

    /** A subscription of a topic. */
    public static EntityPath subscription(String topic, String subscription) {
        Objects.requireNonNull(subscription, "subscription");
        return new EntityPath(topic, subscription, SubQueue.NONE);
    }

    /** The same entity's sub-queue. */
    public EntityPath withSubQueue(SubQueue subQueue) {
        return new EntityPath(topicOrQueue, subscription, subQueue);
    }

    /** The dead-letter sub-queue of the same entity. */
    public EntityPath deadLetter() {
        return withSubQueue(SubQueue.DEAD_LETTER_QUEUE);
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
