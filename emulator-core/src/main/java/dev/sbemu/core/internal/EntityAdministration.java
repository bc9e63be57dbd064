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
 * delete, list) and their runtime counts. Works on the {@link Broker}'s state under its lock.
 */
public final class EntityAdministration {
    private final Broker broker;

    public EntityAdministration(Broker broker) {
        this.broker = broker;
    }

    // ---- queues -------------------------------------------------------------------------------

    public QueueOptions createQueue(String name, QueueOptions options) {
        Validation.queueOrTopicName("queue", name);
        QueueOptions valid = Validation.queue(options, broker.tier);
        return broker.locked(() -> {
            broker.checkNameFree(name);
            broker.checkForwardTargets(name, valid.forwardTo(), valid.forwardDeadLetteredMessagesTo());
            QueueEntity queue = new QueueEntity(broker, name, valid);
            broker.queues.put(name, queue);
            queue.armAutoDelete();
            broker.journal(Type.ENTITY_CREATED, name, "queue");
            return valid;
        });
    }

    public QueueOptions getQueue(String name) {
        return broker.locked(() -> broker.queue(name).options);
    }

    public QueueOptions updateQueue(String name, QueueOptions options) {
        QueueOptions valid = Validation.queue(options, broker.tier);
        return broker.locked(() -> {
            QueueEntity queue = broker.queue(name);
            broker.checkForwardTargets(name, valid.forwardTo(), valid.forwardDeadLetteredMessagesTo());
            if (valid.requiresSession() != queue.options.requiresSession()
                    || valid.enablePartitioning() != queue.options.enablePartitioning()) {
                throw new InvalidOptionException("requiresSession/enablePartitioning",
                        valid.requiresSession() + "/" + valid.enablePartitioning(),
                        "cannot be changed on an existing queue");
            }
            queue.options = valid;
            queue.updated();
            broker.journal(Type.ENTITY_UPDATED, name, "queue");
            return valid;
        });
    }

    public void deleteQueue(String name) {
        broker.locked(() -> broker.delete(broker.queue(name), Type.ENTITY_DELETED));
    }

    public List<String> queueNames() {
        return broker.locked(() -> new ArrayList<>(broker.queues.keySet()));
    }

    public boolean queueExists(String name) {
        return broker.locked(() -> broker.queues.containsKey(name));
    }

    // ---- topics and subscriptions ---------------------------------------------------------------

    public TopicOptions createTopic(String name, TopicOptions options) {
        Validation.queueOrTopicName("topic", name);
        TopicOptions valid = Validation.topic(options, broker.tier);
        return broker.locked(() -> {
            broker.checkNameFree(name);
            TopicEntity topic = new TopicEntity(broker, name, valid);
            broker.topics.put(name, topic);
            topic.armAutoDelete();
            broker.journal(Type.ENTITY_CREATED, name, "topic");
            return valid;
        });
    }

    public TopicOptions getTopic(String name) {
        return broker.locked(() -> broker.topic(name).options);
    }

    public TopicOptions updateTopic(String name, TopicOptions options) {
        TopicOptions valid = Validation.topic(options, broker.tier);
        return broker.locked(() -> {
            TopicEntity topic = broker.topic(name);
            if (valid.enablePartitioning() != topic.options.enablePartitioning()) {
                throw new InvalidOptionException("enablePartitioning", valid.enablePartitioning(),
                        "cannot be changed on an existing topic");
            }
            topic.options = valid;
            topic.updated();
            broker.journal(Type.ENTITY_UPDATED, name, "topic");
            return valid;
        });
    }

    public void deleteTopic(String name) {
        broker.locked(() -> broker.delete(broker.topic(name), Type.ENTITY_DELETED));
    }

    public List<String> topicNames() {
        return broker.locked(() -> new ArrayList<>(broker.topics.keySet()));
    }

    public boolean topicExists(String name) {
        return broker.locked(() -> broker.topics.containsKey(name));
    }

    public SubscriptionOptions createSubscription(String topicName, String name, SubscriptionOptions options,
                                                  List<RuleDescription> rules) {
        Validation.subscriptionName(name);
        List<RuleDescription> initialRules = rules.isEmpty() ? List.of(RuleDescription.defaultRule()) : rules;
        initialRules.forEach(rule -> Validation.ruleName(rule.name()));
        SubscriptionOptions valid = Validation.subscription(options, broker.tier);
        return broker.locked(() -> {
            TopicEntity topic = broker.topic(topicName);
            if (topic.subscriptions.containsKey(name)) {
                throw new BrokerException.EntityAlreadyExists(topicName + "/Subscriptions/" + name);
            }
            broker.checkForwardTargets(topicName + "/Subscriptions/" + name, valid.forwardTo(),
                    valid.forwardDeadLetteredMessagesTo());
            SubscriptionEntity subscription = new SubscriptionEntity(broker, topic, name, valid, initialRules);
            topic.subscriptions.put(name, subscription);
            subscription.armAutoDelete();
            topic.touch();
            broker.journal(Type.ENTITY_CREATED, subscription.name, "subscription");
            return valid;
        });
    }

    public SubscriptionOptions getSubscription(String topicName, String name) {
        return broker.locked(() -> broker.subscription(topicName, name).options);
    }

    public SubscriptionOptions updateSubscription(String topicName, String name, SubscriptionOptions options) {
        SubscriptionOptions valid = Validation.subscription(options, broker.tier);
        return broker.locked(() -> {
            SubscriptionEntity subscription = broker.subscription(topicName, name);
            broker.checkForwardTargets(subscription.name, valid.forwardTo(), valid.forwardDeadLetteredMessagesTo());
            if (valid.requiresSession() != subscription.options.requiresSession()) {
                throw new InvalidOptionException("requiresSession", valid.requiresSession(),
                        "cannot be changed on an existing subscription");
            }
            subscription.options = valid;
            subscription.updated();
            broker.journal(Type.ENTITY_UPDATED, subscription.name, "subscription");
            return valid;
        });
    }

    public void deleteSubscription(String topicName, String name) {
        broker.locked(() -> {
            SubscriptionEntity subscription = broker.subscription(topicName, name);
            subscription.topic.touch();
            broker.delete(subscription, Type.ENTITY_DELETED);
        });
    }

    public List<String> subscriptionNames(String topicName) {
        return broker.locked(() -> new ArrayList<>(broker.topic(topicName).subscriptions.keySet()));
    }

    public boolean subscriptionExists(String topicName, String name) {
        return broker.locked(() -> broker.topics.containsKey(topicName) && broker.topics.get(topicName).subscriptions.containsKey(name));
    }

    // ---- rules ----------------------------------------------------------------------------------

    public RuleDescription createRule(String topicName, String subscriptionName, RuleDescription rule) {
        Validation.ruleName(rule.name());
        return broker.locked(() -> {
            SubscriptionEntity subscription = broker.subscription(topicName, subscriptionName);
            if (subscription.rules.get(rule.name()) != null) {
                throw new BrokerException.EntityAlreadyExists(subscription.name + "/Rules/" + rule.name());
            }
            subscription.rules.put(rule);
            subscription.touch();
            broker.journal(Type.ENTITY_CREATED, subscription.name + "/Rules/" + rule.name(), "rule");
            return rule;
        });
    }

    public RuleDescription getRule(String topicName, String subscriptionName, String ruleName) {
        return broker.locked(() -> rule(broker.subscription(topicName, subscriptionName), ruleName));
    }

    public RuleDescription updateRule(String topicName, String subscriptionName, RuleDescription rule) {
        return broker.locked(() -> {
            SubscriptionEntity subscription = broker.subscription(topicName, subscriptionName);
            rule(subscription, rule.name());
            subscription.rules.put(rule);
            subscription.touch();
            broker.journal(Type.ENTITY_UPDATED, subscription.name + "/Rules/" + rule.name(), "rule");
            return rule;
        });
    }

    public void deleteRule(String topicName, String subscriptionName, String ruleName) {
        broker.locked(() -> {
            SubscriptionEntity subscription = broker.subscription(topicName, subscriptionName);
            rule(subscription, ruleName);
            subscription.rules.remove(ruleName);
            subscription.touch();
            broker.journal(Type.ENTITY_DELETED, subscription.name + "/Rules/" + ruleName, "rule");
        });
    }

    public List<RuleDescription> listRules(String topicName, String subscriptionName) {
        return broker.locked(() -> broker.subscription(topicName, subscriptionName).rules.list());
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
        return broker.locked(() -> {
            if (!path.isSubscription() && broker.topics.containsKey(path.topicOrQueue())) {
                TopicEntity topic = broker.topics.get(path.topicOrQueue());
                long size = topic.sizeInBytes();
                return new EntityRuntimeInfo(0, 0, topic.scheduledCount(), 0, 0, 0, size,
                        topic.subscriptions.size(), topic.createdAt, topic.updatedAt, topic.accessedAt);
            }
            MessageSource source = broker.source(path);
            MessageStore main = source.main;
            long active = main.count(MessageState.ACTIVE);
            long deferred = main.count(MessageState.DEFERRED);
            long scheduled = main.count(MessageState.SCHEDULED);
            long dead = source.deadLetters.size();
            long transferDead = source.transferDeadLetters.size();
            long size = main.sizeInBytes + source.deadLetters.sizeInBytes + source.transferDeadLetters.sizeInBytes;
            return new EntityRuntimeInfo(active, deferred, scheduled, dead, transferDead,
                    active + deferred + scheduled + dead + transferDead, size, 0,
                    source.createdAt, source.updatedAt, source.accessedAt);
        });
    }
}
