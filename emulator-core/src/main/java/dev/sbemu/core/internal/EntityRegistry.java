package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The entities of one namespace: its queues and topics (and, through the topics, their subscriptions),
 * their lookups by name or path, adding them with their name and forward-target checks, and deleting
 * them (by the management side or on idle, ADI-1). Names are case-insensitive, as the service's are.
 * Every method runs under the namespace's lock ({@link Services}).
 */
final class EntityRegistry {
    final Services services;
    private final Map<String, QueueEntity> queues = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, TopicEntity> topics = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    EntityRegistry(Services services) {
        this.services = services;
    }

    // ---- lookups ------------------------------------------------------------------------------

    QueueEntity queue(String name) {
        QueueEntity queue = queues.get(name);
        if (queue == null) {
            throw new BrokerException.EntityNotFound(name);
        }
        return queue;
    }

    TopicEntity topic(String name) {
        TopicEntity topic = topics.get(name);
        if (topic == null) {
            throw new BrokerException.EntityNotFound(name);
        }
        return topic;
    }

    /** The topic of that name, or null. */
    TopicEntity topicOrNull(String name) {
        return topics.get(name);
    }

    SubscriptionEntity subscription(String topicName, String name) {
        SubscriptionEntity subscription = topic(topicName).subscriptions.get(name);
        if (subscription == null) {
            throw new BrokerException.EntityNotFound(topicName + "/Subscriptions/" + name);
        }
        return subscription;
    }

    /** The queue or subscription {@code path} names (its sub-queue aside). */
    MessageSource source(EntityPath path) {
        return path.isSubscription()
                ? subscription(path.topicOrQueue(), path.subscription())
                : queue(path.topicOrQueue());
    }

    /** The session-enabled queue or subscription of {@code path}, which a session receiver may use. */
    MessageSource sessionSource(EntityPath path) {
        MessageSource source = source(path);
        source.checkSessionReceivable(path);
        return source;
    }

    SendTarget sendTarget(String name) {
        QueueEntity queue = queues.get(name);
        if (queue != null) {
            return queue;
        }
        return topic(name);
    }

    /** The queue or topic of that name, or null (a forwarding destination that may be gone, FWD-3). */
    SendTarget sendTargetOrNull(String name) {
        QueueEntity queue = queues.get(name);
        return queue != null ? queue : topics.get(name);
    }

    List<String> queueNames() {
        return new ArrayList<>(queues.keySet());
    }

    List<String> topicNames() {
        return new ArrayList<>(topics.keySet());
    }

    boolean hasQueue(String name) {
        return queues.containsKey(name);
    }

    boolean hasTopic(String name) {
        return topics.containsKey(name);
    }

    // ---- adding -------------------------------------------------------------------------------

    QueueEntity addQueue(String name, QueueOptions options) {
        checkNameFree(name);
        checkEntityCount();
        checkForwardTargets(name, options.forwardTo(), options.forwardDeadLetteredMessagesTo());
        QueueEntity queue = new QueueEntity(this, name, options);
        queues.put(name, queue);
        queue.armAutoDelete();
        return queue;
    }

    TopicEntity addTopic(String name, TopicOptions options) {
        checkNameFree(name);
        checkEntityCount();
        TopicEntity topic = new TopicEntity(this, name, options);
        topics.put(name, topic);
        topic.armAutoDelete();
        return topic;
    }

    /** Refuses a queue or topic beyond the namespace's most (RES-6, NS-9). */
    private void checkEntityCount() {
        int max = services.maxQueuesAndTopics;
        if (queues.size() + topics.size() >= max) {
            String whose = max == services.tier.maxQueuesAndTopics()
                    ? " for the " + services.tier.name().toLowerCase(java.util.Locale.ROOT) + " tier"
                    : " set for this namespace";
            throw new BrokerException.QuotaExceeded("The maximum number of queues and topics in the " + "namespace ("
                    + max + whose + ") has been reached; delete some before creating more.");
        }
    }

    SubscriptionEntity addSubscription(
            String topicName, String name, SubscriptionOptions options, List<RuleDescription> rules) {
        TopicEntity topic = topic(topicName);
        if (topic.subscriptions.containsKey(name)) {
            throw new BrokerException.EntityAlreadyExists(topicName + "/Subscriptions/" + name);
        }
        checkForwardTargets(
                topicName + "/Subscriptions/" + name, options.forwardTo(), options.forwardDeadLetteredMessagesTo());
        SubscriptionEntity subscription = new SubscriptionEntity(this, topic, name, options, rules);
        topic.subscriptions.put(name, subscription);
        subscription.armAutoDelete();
        return subscription;
    }

    /** Queues and topics share one name space. */
    private void checkNameFree(String name) {
        if (queues.containsKey(name) || topics.containsKey(name)) {
            throw new BrokerException.EntityAlreadyExists(name);
        }
    }

    /** FWD-1: a forwarding destination is another existing queue or topic. */
    void checkForwardTargets(String source, String forwardTo, String forwardDeadLetteredTo) {
        String[] properties = {"forwardTo", "forwardDeadLetteredMessagesTo"};
        String[] targets = {forwardTo, forwardDeadLetteredTo};
        for (int i = 0; i < targets.length; i++) {
            String target = targets[i];
            if (target == null) {
                continue;
            }
            if (target.equalsIgnoreCase(source)) {
                throw new InvalidOptionException(properties[i], target, "an entity cannot forward to itself");
            }
            if (!queues.containsKey(target) && !topics.containsKey(target)) {
                throw new InvalidOptionException(
                        properties[i], target, "the destination must be an existing queue or topic");
            }
        }
    }

    // ---- deleting -----------------------------------------------------------------------------

    /** ADI-1: the entity was idle for its auto-delete-on-idle duration. */
    void autoDelete(Entity entity) {
        delete(entity, Type.AUTO_DELETED);
    }

    /** Removes the entity with its messages and timers; its blocked receivers wake and find it gone. */
    void delete(Entity entity, Type how) {
        entity.deleted = true;
        entity.cancelAutoDelete();
        entity.onDelete();
        if (entity instanceof QueueEntity queue) {
            queues.remove(queue.name);
            signal(queue);
        } else if (entity instanceof TopicEntity topic) {
            topics.remove(topic.name);
        } else if (entity instanceof SubscriptionEntity subscription) {
            subscription.topic.subscriptions.remove(subscription.subscriptionName);
            signal(subscription);
        }
        services.journal(how, entity.name, how == Type.AUTO_DELETED ? "idle for " + entity.autoDeleteOnIdle() : "");
    }

    /**
     * Wakes every blocked receiver so it re-checks; fires the receive-wait callbacks of every store when
     * {@code everyWaiter} (the close), else of the stores that may have a message ready (the end of a clock
     * advance: a callback is not fired for nothing, its receiver's next receive would count as an access, ADI-5).
     */
    void signalAll(boolean everyWaiter) {
        for (QueueEntity queue : queues.values()) {
            wake(queue, everyWaiter);
        }
        for (TopicEntity topic : topics.values()) {
            topic.subscriptions.values().forEach(s -> wake(s, everyWaiter));
        }
    }

    private static void wake(MessageSource source, boolean everyWaiter) {
        for (MessageStore store : List.of(source.main, source.deadLetters, source.transferDeadLetters)) {
            store.readyOrChanged.condition.signalAll();
            if (everyWaiter) {
                store.readyOrChanged.fireAll();
            } else if (store.mayHaveReady()) {
                // as many as there are messages (or free sessions) ready, oldest first: not every waiter (AMQP-11)
                if (store.sessionful && store == source.main) {
                    store.readyOrChanged.fireReady(
                            source.sessions.freeReadySessions(), source.sessions.heldReadySessions());
                } else {
                    store.readyOrChanged.fireReady(store.readyCount(), List.of());
                }
            }
        }
    }

    /**
     * Wakes the blocked calls and fires every receive-wait callback of {@code source}: its status or forwarding may
     * have changed (a disabled entity fails them at once, as the service ends its receives).
     */
    static void fireWaiters(MessageSource source) {
        source.main.readyOrChanged.signalAll();
        source.deadLetters.readyOrChanged.signalAll();
        source.transferDeadLetters.readyOrChanged.signalAll();
    }

    private void signal(MessageSource source) {
        source.main.readyOrChanged.signalAll();
        source.deadLetters.readyOrChanged.signalAll();
        source.transferDeadLetters.readyOrChanged.signalAll();
    }
}
