package dev.sbemu.junit.internal;

import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The entities to create in a namespace, from annotations or Config.json, each with its {@link Origin}.
 *
 * @param queues the queues
 * @param topics the topics, with their subscriptions and rules
 */
public record Topology(List<QueueSpec> queues, List<TopicSpec> topics) {

    public Topology {
        queues = List.copyOf(queues);
        topics = List.copyOf(topics);
    }

    public static Topology empty() {
        return new Topology(List.of(), List.of());
    }

    /** This topology's entities followed by {@code other}'s. */
    public Topology plus(Topology other) {
        List<QueueSpec> q = new ArrayList<>(queues);
        q.addAll(other.queues);
        List<TopicSpec> t = new ArrayList<>(topics);
        t.addAll(other.topics);
        return new Topology(q, t);
    }

    /** A queue and its options. */
    public record QueueSpec(String name, QueueOptions options, Origin origin) {
        public QueueSpec {
            Objects.requireNonNull(options, "options");
        }
    }

    /** A topic, its options and its subscriptions. */
    public record TopicSpec(String name, TopicOptions options, List<SubscriptionSpec> subscriptions, Origin origin) {
        public TopicSpec {
            Objects.requireNonNull(options, "options");
            subscriptions = List.copyOf(subscriptions);
        }
    }

    /** A subscription, its options and its rules (none: the {@code $Default} rule). */
    public record SubscriptionSpec(String name, SubscriptionOptions options, List<RuleSpec> rules, Origin origin) {
        public SubscriptionSpec {
            Objects.requireNonNull(options, "options");
            rules = List.copyOf(rules);
        }
    }

    /**
     * A subscription rule.
     *
     * @param name the rule's name
     * @param filter its filter
     * @param action its SQL action, or null
     * @param origin where it was declared
     */
    public record RuleSpec(String name, FilterSpec filter, String action, Origin origin) {
        public RuleSpec {
            Objects.requireNonNull(filter, "filter");
        }
    }

    /** A rule's filter. */
    public sealed interface FilterSpec {
        /** Matches every message. */
        record True() implements FilterSpec {
        }

        /** A SQL filter expression. */
        record Sql(String expression) implements FilterSpec {
        }

        /** A correlation filter; null fields are not compared. */
        record Correlation(String correlationId, String messageId, String to, String replyTo, String subject,
                           String sessionId, String replyToSessionId, String contentType,
                           Map<String, Object> properties) implements FilterSpec {
        }
    }
}
