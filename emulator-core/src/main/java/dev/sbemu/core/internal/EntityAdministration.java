package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.MessageState;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The management side of a namespace: queues, topics, subscriptions and rules (create, read, update,
 * delete, list) and their runtime counts. Works on the namespace's {@link EntityRegistry} under the
 * namespace's lock.
 */
public final class EntityAdministration {
    private final Services services;
    private final EntityRegistry registry;

    EntityAdministration(EntityRegistry registry) {
        this.services = registry.services;
        this.registry = registry;
    }

    // ---- queues -------------------------------------------------------------------------------

    public QueueOptions createQueue(String name, QueueOptions options) {
        Validation.queueOrTopicName("queue", name);
        QueueOptions valid = Validation.queue(options, services.tier);
        return services.locked(() -> {
            registry.addQueue(name, valid);
            services.journal(Type.ENTITY_CREATED, name, "queue");
            return valid;
        });
    }

    public QueueOptions getQueue(String name) {
        return services.locked(() -> registry.queue(name).options);
    }

    public QueueOptions updateQueue(String name, QueueOptions options) {
        QueueOptions valid = Validation.queue(options, services.tier);
        return services.locked(() -> {
            QueueEntity queue = registry.queue(name);
            registry.checkForwardTargets(name, valid.forwardTo(), valid.forwardDeadLetteredMessagesTo());
            if (valid.requiresSession() != queue.options.requiresSession()) {
                throw immutable("requiresSession", "Queue");
            }
            if (valid.enablePartitioning() != queue.options.enablePartitioning()) {
                throw partitioningImmutable("Queue");
            }
            queue.options = valid;
            queue.updated();
            EntityRegistry.fireWaiters(queue);
            services.journal(Type.ENTITY_UPDATED, name, "queue");
            return valid;
        });
    }

    public void deleteQueue(String name) {
        services.locked(() -> registry.delete(registry.queue(name), Type.ENTITY_DELETED));
    }

    public List<String> queueNames() {
        return services.locked(() -> registry.queueNames());
    }

    public boolean queueExists(String name) {
        return services.locked(() -> registry.hasQueue(name));
    }

    // ---- topics and subscriptions ---------------------------------------------------------------

    public TopicOptions createTopic(String name, TopicOptions options) {
        Validation.queueOrTopicName("topic", name);
        TopicOptions valid = Validation.topic(options, services.tier);
        return services.locked(() -> {
            registry.addTopic(name, valid);
            services.journal(Type.ENTITY_CREATED, name, "topic");
            return valid;
        });
    }

    public TopicOptions getTopic(String name) {
        return services.locked(() -> registry.topic(name).options);
    }

    public TopicOptions updateTopic(String name, TopicOptions options) {
        TopicOptions valid = Validation.topic(options, services.tier);
        return services.locked(() -> {
            TopicEntity topic = registry.topic(name);
            if (valid.enablePartitioning() != topic.options.enablePartitioning()) {
                throw partitioningImmutable("Topic");
            }
            topic.options = valid;
            topic.updated();
            services.journal(Type.ENTITY_UPDATED, name, "topic");
            return valid;
        });
    }

    public void deleteTopic(String name) {
        services.locked(() -> registry.delete(registry.topic(name), Type.ENTITY_DELETED));
    }

    public List<String> topicNames() {
        return services.locked(() -> registry.topicNames());
    }

    public boolean topicExists(String name) {
        return services.locked(() -> registry.hasTopic(name));
    }

    public SubscriptionOptions createSubscription(
            String topicName, String name, SubscriptionOptions options, List<RuleDescription> rules) {
        Validation.subscriptionName(name);
        List<RuleDescription> initialRules = rules.isEmpty() ? List.of(RuleDescription.defaultRule()) : rules;
        initialRules.forEach(rule -> Validation.ruleName(rule.name()));
        SubscriptionOptions valid = Validation.subscription(options, services.tier);
        return services.locked(() -> {
            SubscriptionEntity subscription = registry.addSubscription(topicName, name, valid, initialRules);
            subscription.topic.touch();
            services.journal(Type.ENTITY_CREATED, subscription.name, "subscription");
            return valid;
        });
    }

    public SubscriptionOptions getSubscription(String topicName, String name) {
        return services.locked(() -> registry.subscription(topicName, name).options);
    }

    public SubscriptionOptions updateSubscription(String topicName, String name, SubscriptionOptions options) {
        SubscriptionOptions valid = Validation.subscription(options, services.tier);
        return services.locked(() -> {
            SubscriptionEntity subscription = registry.subscription(topicName, name);
            registry.checkForwardTargets(subscription.name, valid.forwardTo(), valid.forwardDeadLetteredMessagesTo());
            if (valid.requiresSession() != subscription.options.requiresSession()) {
                throw immutable("requiresSession", "Subscription");
            }
            subscription.options = valid;
            subscription.updated();
            EntityRegistry.fireWaiters(subscription);
            services.journal(Type.ENTITY_UPDATED, subscription.name, "subscription");
            return valid;
        });
    }

    public void deleteSubscription(String topicName, String name) {
        services.locked(() -> {
            SubscriptionEntity subscription = registry.subscription(topicName, name);
            subscription.topic.touch();
            registry.delete(subscription, Type.ENTITY_DELETED);
        });
    }

    public List<String> subscriptionNames(String topicName) {
        return services.locked(
                () -> new ArrayList<>(registry.topic(topicName).subscriptions.keySet()));
    }

    public boolean subscriptionExists(String topicName, String name) {
        return services.locked(() -> registry.hasTopic(topicName)
                && registry.topic(topicName).subscriptions.containsKey(name));
    }

    // ---- rules ----------------------------------------------------------------------------------

    public RuleDescription createRule(String topicName, String subscriptionName, RuleDescription rule) {
        Validation.ruleName(rule.name());
        return services.locked(() -> {
            SubscriptionEntity subscription = registry.subscription(topicName, subscriptionName);
            if (subscription.rules.get(rule.name()) != null) {
                throw new BrokerException.EntityAlreadyExists(subscription.name + "/Rules/" + rule.name());
            }
            subscription.rules.put(rule);
            subscription.touch();
            services.journal(Type.ENTITY_CREATED, subscription.name + "/Rules/" + rule.name(), "rule");
            return rule;
        });
    }

    public RuleDescription getRule(String topicName, String subscriptionName, String ruleName) {
        return services.locked(() -> rule(registry.subscription(topicName, subscriptionName), ruleName));
    }

    public RuleDescription updateRule(String topicName, String subscriptionName, RuleDescription rule) {
        return services.locked(() -> {
            SubscriptionEntity subscription = registry.subscription(topicName, subscriptionName);
            rule(subscription, rule.name());
            subscription.rules.put(rule);
            subscription.touch();
            services.journal(Type.ENTITY_UPDATED, subscription.name + "/Rules/" + rule.name(), "rule");
            return rule;
        });
    }

    public void deleteRule(String topicName, String subscriptionName, String ruleName) {
        services.locked(() -> {
            SubscriptionEntity subscription = registry.subscription(topicName, subscriptionName);
            rule(subscription, ruleName);
            subscription.rules.remove(ruleName);
            subscription.touch();
            services.journal(Type.ENTITY_DELETED, subscription.name + "/Rules/" + ruleName, "rule");
        });
    }

    public List<RuleDescription> listRules(String topicName, String subscriptionName) {
        return services.locked(
                () -> registry.subscription(topicName, subscriptionName).rules.list());
    }

    private static RuleDescription rule(SubscriptionEntity subscription, String ruleName) {
        RuleDescription rule = subscription.rules.get(ruleName);
        if (rule == null) {
            throw new BrokerException.EntityNotFound(subscription.name + "/Rules/" + ruleName);
        }
        return rule;
    }

    // ---- runtime counts -----------------------------------------------------------------------

    /** Counts of a queue or topic ({@code path} names it) or of a subscription. */
    public EntityRuntimeInfo runtimeInfo(EntityPath path) {
        return services.locked(() -> {
            TopicEntity topic = path.isSubscription() ? null : registry.topicOrNull(path.topicOrQueue());
            if (topic != null) {
                long size = topic.sizeInBytes();
                return new EntityRuntimeInfo(
                        0,
                        0,
                        topic.scheduledCount(),
                        0,
                        0,
                        0,
                        size,
                        topic.subscriptions.size(),
                        topic.createdAt,
                        topic.updatedAt,
                        topic.accessedAt);
            }
            MessageSource source = registry.source(path);
            MessageStore main = source.main;
            long active = main.count(MessageState.ACTIVE);
            long deferred = main.count(MessageState.DEFERRED);
            long scheduled = main.count(MessageState.SCHEDULED);
            long dead = source.deadLetters.size();
            long transferDead = source.transferDeadLetters.size();
            long size = main.sizeInBytes + source.deadLetters.sizeInBytes + source.transferDeadLetters.sizeInBytes;
            return new EntityRuntimeInfo(
                    active,
                    deferred,
                    scheduled,
                    dead,
                    transferDead,
                    active + deferred + scheduled + dead + transferDead,
                    size,
                    0,
                    source.createdAt,
                    source.updatedAt,
                    source.accessedAt);
        });
    }

    /** LIM-5: the service's words for a property an existing entity cannot change. */
    private static InvalidOptionException immutable(String property, String entityKind) {
        String serviceName = Character.toUpperCase(property.charAt(0)) + property.substring(1);
        return InvalidOptionException.withMessage(
                property,
                "The value for the " + serviceName + " property of an existing " + entityKind + " cannot be changed.");
    }

    /** LIM-5: the service's words (its trailing space included) for a change of partitioning. */
    private static InvalidOptionException partitioningImmutable(String entityKind) {
        return InvalidOptionException.withMessage(
                "enablePartitioning", "Partitioning cannot be changed for " + entityKind + ". ");
    }
}
