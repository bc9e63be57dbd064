package dev.sbemu.junit.internal;

import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.Entity;

/**
 * The entity an {@link Entity} annotation names, checked against the namespace so that a typo fails with the
 * names that do exist.
 */
final class EntityRef {
    private final Entity entity;
    private final String target;
    private final Namespace namespace;

    EntityRef(Entity entity, String target, Namespace namespace) {
        this.entity = entity;
        this.target = target;
        this.namespace = namespace;
        if (entity.value().isBlank()) {
            throw fail("@Entity needs the name of a queue or topic");
        }
    }

    /** The queue or topic a sender sends to. */
    String sendTarget() {
        if (!entity.subscription().isEmpty()) {
            throw fail("a sender sends to a queue or topic, not to a subscription: remove subscription = \""
                    + entity.subscription() + "\"");
        }
        rejectReceiverAttributes("a sender");
        if (!namespace.queueExists(entity.value()) && !namespace.topicExists(entity.value())) {
            throw unknownQueueOrTopic();
        }
        return entity.value();
    }

    /** The queue or subscription (and sub-queue) a receiver receives from. */
    EntityPath receivePath() {
        EntityPath path;
        if (entity.subscription().isEmpty()) {
            if (namespace.topicExists(entity.value())) {
                throw fail("'" + entity.value() + "' is a topic: receive from one of its subscriptions, e.g. "
                        + "@Entity(value = \"" + entity.value() + "\", subscription = \"" + firstSubscription()
                        + "\"); its subscriptions: " + namespace.subscriptionNames(entity.value()));
            }
            if (!namespace.queueExists(entity.value())) {
                throw unknownQueueOrTopic();
            }
            path = EntityPath.queue(entity.value());
        } else {
            path = subscriptionPath();
        }
        return path.withSubQueue(EntityPath.Part.valueOf(entity.subQueue().name()));
    }

    /** The subscription a rule manager manages. */
    EntityPath subscriptionPath() {
        if (entity.subscription().isEmpty()) {
            throw fail("name the topic's subscription, e.g. @Entity(value = \"" + entity.value()
                    + "\", subscription = \"...\")");
        }
        if (namespace.queueExists(entity.value())) {
            throw fail("'" + entity.value() + "' is a queue, and queues have no subscriptions: remove subscription = \""
                    + entity.subscription() + "\"");
        }
        if (!namespace.topicExists(entity.value())) {
            throw fail("the emulated namespace has no topic '" + entity.value() + "'; its topics: "
                    + namespace.topicNames() + "; its queues: " + namespace.queueNames());
        }
        if (!namespace.subscriptionExists(entity.value(), entity.subscription())) {
            throw fail("topic '" + entity.value() + "' has no subscription '" + entity.subscription()
                    + "'; its subscriptions: " + namespace.subscriptionNames(entity.value()));
        }
        return EntityPath.subscription(entity.value(), entity.subscription());
    }

    /** Whether the receive path's entity is session-enabled (a dead-letter queue never is). */
    boolean requiresSession(EntityPath path) {
        if (path.subQueue() != EntityPath.Part.NONE) {
            return false;
        }
        return path.isSubscription()
                ? namespace
                        .getSubscription(path.topicOrQueue(), path.subscription())
                        .requiresSession()
                : namespace.getQueue(path.topicOrQueue()).requiresSession();
    }

    void rejectReceiverAttributes(String what) {
        if (entity.subQueue() != SubQueue.NONE) {
            throw fail(what + " has no sub-queue: remove subQueue = " + entity.subQueue());
        }
        if (!entity.sessionId().isEmpty()) {
            throw fail(what + " takes no sessionId: remove sessionId = \"" + entity.sessionId() + "\"");
        }
    }

    InjectionException fail(String problem) {
        return new InjectionException("Cannot inject " + target + ": " + problem);
    }

    InjectionException fail(String problem, Throwable cause) {
        return new InjectionException("Cannot inject " + target + ": " + problem, cause);
    }

    private InjectionException unknownQueueOrTopic() {
        return fail("the emulated namespace has no queue or topic '" + entity.value() + "'; its queues: "
                + namespace.queueNames() + "; its topics: " + namespace.topicNames());
    }

    private String firstSubscription() {
        var names = namespace.subscriptionNames(entity.value());
        return names.isEmpty() ? "..." : names.get(0);
    }
}
