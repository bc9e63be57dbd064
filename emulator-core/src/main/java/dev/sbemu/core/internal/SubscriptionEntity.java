package dev.sbemu.core.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.Message;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.filter.FilterEvaluationException;
import java.time.Duration;
import java.util.List;

/** A subscription: a message source fed by its topic through its rules (RUL-1). */
final class SubscriptionEntity extends MessageSource {
    static final String SESSION_ID_NULL = "Session id is null.";

    final TopicEntity topic;
    final String subscriptionName;
    SubscriptionOptions options;
    final RuleSet rules;

    SubscriptionEntity(
            EntityRegistry registry,
            TopicEntity topic,
            String subscriptionName,
            SubscriptionOptions options,
            List<RuleDescription> rules) {
        super(registry, EntityPath.subscription(topic.name, subscriptionName));
        // ADI-6: a subscription reports its creation as its first access (the service lists a fresh subscription's
        // AccessedAt as set), where a queue or topic reports the zero time until used
        this.accessedAt = createdAt;
        this.topic = topic;
        this.subscriptionName = subscriptionName;
        this.options = options;
        this.rules = new RuleSet(rules);
        main.sessionful = options.requiresSession();
    }

    /** Copies the topic's message in, once per matching rule set (RUL-1), keeping its sequence number (RUL-5). */
    void offer(StoredMessage fromTopic) {
        List<Message> copies;
        try {
            copies = rules.copiesFor(fromTopic);
        } catch (FilterEvaluationException e) {
            // RUL-8: the service dead-letters the message with the error, or leaves it out
            if (options.deadLetteringOnFilterEvaluationExceptions()) {
                moveToDeadLetters(fromTopic.copy(fromTopic.message), e.reason(), e.getMessage());
            }
            return;
        }
        int copyIndex = 0;
        for (var message : copies) {
            StoredMessage copy = fromTopic.copy(message);
            copy.copyIndex = (short) copyIndex++;
            if (requiresSession() && message.sessionId() == null) {
                moveToDeadLetters(copy, SESSION_ID_NULL, SESSION_ID_NULL);
                continue;
            }
            enqueue(copy);
        }
    }

    @Override
    public void touch() {
        super.touch();
        topic.touch();
    }

    @Override
    void inUseUntilNow() {
        super.inUseUntilNow();
        topic.inUseUntilNow();
    }

    @Override
    Duration lockDuration() {
        return options.lockDuration();
    }

    @Override
    int maxDeliveryCount() {
        return options.maxDeliveryCount();
    }

    /** TTL-8: the smaller of the topic's and the subscription's default. */
    @Override
    Duration defaultTimeToLive() {
        Duration topicTtl = topic.options.defaultMessageTimeToLive();
        Duration ownTtl = options.defaultMessageTimeToLive();
        return topicTtl.compareTo(ownTtl) <= 0 ? topicTtl : ownTtl;
    }

    @Override
    boolean deadLetteringOnMessageExpiration() {
        return options.deadLetteringOnMessageExpiration();
    }

    @Override
    String forwardTo() {
        return options.forwardTo();
    }

    @Override
    String forwardDeadLetteredMessagesTo() {
        return options.forwardDeadLetteredMessagesTo();
    }

    @Override
    boolean requiresSession() {
        return options.requiresSession();
    }

    @Override
    EntityStatus status() {
        return options.status();
    }

    @Override
    Duration autoDeleteOnIdle() {
        return options.autoDeleteOnIdle();
    }

    @Override
    boolean busy() {
        return forwardTo() != null || hasWaitingReceivers();
    }
}
