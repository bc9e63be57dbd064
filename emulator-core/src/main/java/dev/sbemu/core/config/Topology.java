package dev.sbemu.core.config;

import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.internal.config.TopologyApplier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Entities to create in a namespace, each with the {@link Origin} that declared it (a Config.json path, an
 * annotation), so that an entity the namespace rejects is reported where it was declared. Read from a file by
 * {@link EmulatorConfig#topology()}; built by hand or from annotations with the constructors. Immutable.
 *
 * @param queues the queues
 * @param topics the topics, with their subscriptions and rules
 */
public record Topology(List<QueueSpec> queues, List<TopicSpec> topics) {

    public Topology {
        queues = List.copyOf(queues);
        topics = List.copyOf(topics);
    }

    /** No entities. */
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

    /**
     * Creates these entities in {@code namespace}: topics first, then queues in an order that creates each
     * forwarding target before its source (FWD-1); queues that forward in a cycle are created without forwarding
     * and then updated. A subscription with rules has exactly those rules (none: the {@code $Default} rule).
     *
     * @throws InvalidTopologyException when the namespace rejects an entity or a rule, naming its origin and the
     *         property
     */
    public void applyTo(Namespace namespace) {
        TopologyApplier.apply(this, namespace);
    }

    /**
     * A queue and its options.
     *
     * @param name the queue's name
     * @param options its options
     * @param origin where it was declared, or null for {@link Origin#UNDECLARED}
     */
    public record QueueSpec(String name, QueueOptions options, Origin origin) {
        public QueueSpec {
            origin = origin == null ? Origin.UNDECLARED : origin;
            Objects.requireNonNull(options, "options");
        }
    }

    /**
     * A topic, its options and its subscriptions.
     *
     * @param name the topic's name
     * @param options its options
     * @param subscriptions its subscriptions
     * @param origin where it was declared, or null for {@link Origin#UNDECLARED}
     */
    public record TopicSpec(String name, TopicOptions options, List<SubscriptionSpec> subscriptions, Origin origin) {
        public TopicSpec {
            origin = origin == null ? Origin.UNDECLARED : origin;
            Objects.requireNonNull(options, "options");
            subscriptions = List.copyOf(subscriptions);
        }
    }

    /**
     * A subscription, its options and its rules.
     *
     * @param name the subscription's name
     * @param options its options
     * @param rules its rules; none: the {@code $Default} rule
     * @param origin where it was declared, or null for {@link Origin#UNDECLARED}
     */
    public record SubscriptionSpec(String name, SubscriptionOptions options, List<RuleSpec> rules, Origin origin) {
        public SubscriptionSpec {
            origin = origin == null ? Origin.UNDECLARED : origin;
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
     * @param origin where it was declared, or null for {@link Origin#UNDECLARED}
     */
    public record RuleSpec(String name, FilterSpec filter, String action, Origin origin) {
        public RuleSpec {
            origin = origin == null ? Origin.UNDECLARED : origin;
            Objects.requireNonNull(filter, "filter");
        }
    }

    /** A rule's filter. */
    public sealed interface FilterSpec {
        /** Matches every message. */
        record True() implements FilterSpec {}

        /** A SQL filter expression. */
        record Sql(String expression) implements FilterSpec {}

        /** A correlation filter; null fields are not compared. */
        record Correlation(
                String correlationId,
                String messageId,
                String to,
                String replyTo,
                String subject,
                String sessionId,
                String replyToSessionId,
                String contentType,
                Map<String, Object> properties)
                implements FilterSpec {}
    }
}
