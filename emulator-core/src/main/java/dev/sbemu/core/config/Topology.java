package dev.sbemu.core.config;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import dev.sbemu.core.internal.config.TopologyApplier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
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
 * @param authorizationRules the namespace's own shared access authorization rules (spec SEC-1; an entity's are in its
 *     options); none: the endpoint's key mode alone decides
 */
public record Topology(List<QueueSpec> queues, List<TopicSpec> topics, List<AuthorizationRule> authorizationRules) {

    public Topology {
        queues = List.copyOf(queues);
        topics = List.copyOf(topics);
        authorizationRules = authorizationRules == null ? List.of() : List.copyOf(authorizationRules);
    }

    /** Entities without shared access policies. */
    public Topology(List<QueueSpec> queues, List<TopicSpec> topics) {
        this(queues, topics, List.of());
    }

    /**
     * The entities {@code namespace} has now, with their options and rules, in name order: what {@link
     * #applyTo(Namespace)} re-creates in a fresh namespace.
     */
    public static Topology of(Namespace namespace) {
        List<QueueSpec> queues = new ArrayList<>();
        for (String name : namespace.queueNames()) {
            queues.add(new QueueSpec(name, namespace.getQueue(name), null));
        }
        List<TopicSpec> topics = new ArrayList<>();
        for (String topic : namespace.topicNames()) {
            List<SubscriptionSpec> subscriptions = new ArrayList<>();
            for (String name : namespace.subscriptionNames(topic)) {
                List<RuleSpec> rules = new ArrayList<>();
                for (RuleDescription rule : namespace.listRules(topic, name)) {
                    rules.add(rule(rule));
                }
                subscriptions.add(new SubscriptionSpec(name, namespace.getSubscription(topic, name), rules, null));
            }
            topics.add(new TopicSpec(topic, namespace.getTopic(topic), subscriptions, null));
        }
        return new Topology(queues, topics, namespace.authorizationRules());
    }

    private static RuleSpec rule(RuleDescription rule) {
        FilterSpec filter;
        if (rule.filter() instanceof SqlFilter sql) {
            filter = new FilterSpec.Sql(sql.expression(), sql.parameters());
        } else if (rule.filter() instanceof CorrelationFilter c) {
            filter = new FilterSpec.Correlation(
                    c.correlationId(),
                    c.messageId(),
                    c.to(),
                    c.replyTo(),
                    c.subject(),
                    c.sessionId(),
                    c.replyToSessionId(),
                    c.contentType(),
                    c.properties());
        } else if (rule.filter() instanceof FalseFilter) {
            filter = new FilterSpec.False();
        } else {
            filter = new FilterSpec.True();
        }
        SqlRuleAction action = rule.action();
        return new RuleSpec(
                rule.name(),
                filter,
                action == null ? null : action.expression(),
                action == null ? Map.of() : action.parameters(),
                null);
    }

    private static Map<String, Object> copyParameters(Map<String, Object> parameters) {
        return parameters == null || parameters.isEmpty()
                ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
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
        List<AuthorizationRule> a = new ArrayList<>(authorizationRules);
        a.addAll(other.authorizationRules);
        return new Topology(q, t, a);
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
        if (!authorizationRules.isEmpty()) {
            namespace.authorizationRules(authorizationRules);
        }
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
     * @param actionParameters the values of the action's {@code @name} parameters (RUL-9); never null
     * @param origin where it was declared, or null for {@link Origin#UNDECLARED}
     */
    public record RuleSpec(
            String name, FilterSpec filter, String action, Map<String, Object> actionParameters, Origin origin) {
        public RuleSpec {
            origin = origin == null ? Origin.UNDECLARED : origin;
            Objects.requireNonNull(filter, "filter");
            actionParameters = copyParameters(actionParameters);
        }

        /** A rule whose action, if any, has no parameters. */
        public RuleSpec(String name, FilterSpec filter, String action, Origin origin) {
            this(name, filter, action, Map.of(), origin);
        }
    }

    /** A rule's filter. */
    public sealed interface FilterSpec {
        /** Matches every message. */
        record True() implements FilterSpec {}

        /** Matches no message. */
        record False() implements FilterSpec {}

        /**
         * A SQL filter expression.
         *
         * @param expression the SQL text
         * @param parameters the values of its {@code @name} parameters (RUL-9); never null
         */
        record Sql(String expression, Map<String, Object> parameters) implements FilterSpec {
            public Sql {
                Objects.requireNonNull(expression, "expression");
                parameters = copyParameters(parameters);
            }

            /** An expression without parameters. */
            public Sql(String expression) {
                this(expression, Map.of());
            }
        }

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
