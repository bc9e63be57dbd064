package dev.sbemu.core.internal.config;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.config.InvalidTopologyException;
import dev.sbemu.core.config.Origin;
import dev.sbemu.core.config.Topology;
import dev.sbemu.core.config.Topology.FilterSpec;
import dev.sbemu.core.config.Topology.QueueSpec;
import dev.sbemu.core.config.Topology.RuleSpec;
import dev.sbemu.core.config.Topology.SubscriptionSpec;
import dev.sbemu.core.config.Topology.TopicSpec;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.FilterSyntaxException;
import dev.sbemu.core.filter.RuleFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import dev.sbemu.core.filter.TrueFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Creates a {@link Topology}'s entities in a namespace. Topics come first, then queues in an order that
 * creates each forwarding target before its source (FWD-1); queues that forward in a cycle are created
 * without forwarding and then updated. A subscription with rules has exactly those rules (no {@code $Default}).
 * Errors name the entity's origin.
 */
public final class TopologyApplier {

    private TopologyApplier() {}

    /**
     * @throws InvalidTopologyException when the core rejects an entity or a rule
     */
    public static void apply(Topology topology, Namespace namespace) {
        for (TopicSpec topic : topology.topics()) {
            guarded(topic.origin(), () -> namespace.createTopic(topic.name(), topic.options()));
        }
        List<QueueSpec> forwardingLater = createQueuesInForwardingOrder(topology.queues(), namespace);
        for (QueueSpec queue : forwardingLater) {
            guarded(queue.origin(), () -> namespace.updateQueue(queue.name(), queue.options()), queue.options());
        }
        for (TopicSpec topic : topology.topics()) {
            for (SubscriptionSpec subscription : topic.subscriptions()) {
                createSubscription(namespace, topic, subscription);
            }
        }
    }

    private static List<QueueSpec> createQueuesInForwardingOrder(List<QueueSpec> queues, Namespace namespace) {
        List<QueueSpec> pending = new ArrayList<>(queues);
        boolean progress = true;
        while (!pending.isEmpty() && progress) {
            progress = false;
            for (QueueSpec queue : List.copyOf(pending)) {
                if (targetsExist(queue.options(), namespace, pending, queue)) {
                    guarded(
                            queue.origin(),
                            () -> namespace.createQueue(queue.name(), queue.options()),
                            queue.options());
                    pending.remove(queue);
                    progress = true;
                }
            }
        }
        for (QueueSpec queue : pending) {
            QueueOptions withoutForwarding = queue.options().toBuilder()
                    .forwardTo(null)
                    .forwardDeadLetteredMessagesTo(null)
                    .build();
            guarded(queue.origin(), () -> namespace.createQueue(queue.name(), withoutForwarding));
        }
        return pending;
    }

    /** Whether the queue's forwarding targets exist, or never will (then creating it reports the error). */
    private static boolean targetsExist(
            QueueOptions options, Namespace namespace, List<QueueSpec> pending, QueueSpec self) {
        for (String target : new String[] {options.forwardTo(), options.forwardDeadLetteredMessagesTo()}) {
            if (target != null
                    && !namespace.queueExists(target)
                    && !namespace.topicExists(target)
                    && pending.stream().anyMatch(q -> q != self && q.name().equals(target))) {
                return false;
            }
        }
        return true;
    }

    private static void createSubscription(Namespace namespace, TopicSpec topic, SubscriptionSpec subscription) {
        List<RuleDescription> rules =
                subscription.rules().stream().map(TopologyApplier::rule).toList();
        try {
            guarded(
                    subscription.origin(),
                    () -> namespace.createSubscription(
                            topic.name(), subscription.name(), subscription.options(), rules),
                    subscription.options().forwardTo(),
                    subscription.options().forwardDeadLetteredMessagesTo());
        } catch (InvalidTopologyException e) {
            throw blameRule(e, subscription);
        }
    }

    /** The rule as the core has it; a malformed SQL filter or action names the rule's attribute. */
    private static RuleDescription rule(RuleSpec spec) {
        RuleFilter filter = new TrueFilter();
        if (spec.filter() instanceof FilterSpec.Sql sql) {
            filter = parsed(spec, "sql", () -> SqlFilter.parse(sql.expression(), sql.parameters()));
        } else if (spec.filter() instanceof FilterSpec.False) {
            filter = new FalseFilter();
        } else if (spec.filter() instanceof FilterSpec.Correlation c) {
            filter = new CorrelationFilter(
                    c.correlationId(),
                    c.messageId(),
                    c.to(),
                    c.replyTo(),
                    c.subject(),
                    c.sessionId(),
                    c.replyToSessionId(),
                    c.contentType(),
                    c.properties());
        }
        SqlRuleAction action = spec.action() == null
                ? null
                : parsed(spec, "action", () -> SqlRuleAction.parse(spec.action(), spec.actionParameters()));
        return new RuleDescription(spec.name(), filter, action);
    }

    private static <T> T parsed(RuleSpec spec, String attribute, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (FilterSyntaxException e) {
            String text = attribute.equals("sql") ? ((FilterSpec.Sql) spec.filter()).expression() : spec.action();
            throw new InvalidTopologyException(
                    spec.origin().describe(attribute) + ": '" + text + "': " + e.getMessage(), e);
        }
    }

    /** The core reports a bad rule name against the subscription; point at the rule instead. */
    private static InvalidTopologyException blameRule(InvalidTopologyException e, SubscriptionSpec subscription) {
        if (e.getCause() instanceof InvalidOptionException invalid && "rule name".equals(invalid.property())) {
            for (RuleSpec rule : subscription.rules()) {
                if (invalid.getMessage().contains("'" + rule.name() + "'")) {
                    return new InvalidTopologyException(
                            rule.origin().describe("name") + ": " + invalid.getMessage(), invalid);
                }
            }
        }
        return e;
    }

    private static void guarded(Origin origin, Runnable create) {
        guarded(origin, create, null, null);
    }

    private static void guarded(Origin origin, Runnable create, QueueOptions options) {
        guarded(origin, create, options.forwardTo(), options.forwardDeadLetteredMessagesTo());
    }

    private static void guarded(Origin origin, Runnable create, String forwardTo, String forwardDeadLettersTo) {
        try {
            create.run();
        } catch (InvalidOptionException e) {
            String property = propertyOf(e, forwardTo, forwardDeadLettersTo);
            throw new InvalidTopologyException(origin.describe(property) + ": " + e.getMessage(), e);
        } catch (BrokerException.EntityAlreadyExists e) {
            throw new InvalidTopologyException(origin.describe("name") + ": " + e.getMessage(), e);
        } catch (BrokerException e) {
            throw new InvalidTopologyException(origin.describe(null) + ": " + e.getMessage(), e);
        }
    }

    /** The core reports both forwarding targets as {@code forwardTo}; name the one that was refused. */
    private static String propertyOf(InvalidOptionException e, String forwardTo, String forwardDeadLettersTo) {
        boolean forwardToNamed = forwardTo != null && e.getMessage().contains("'" + forwardTo + "'");
        if ("forwardTo".equals(e.property()) && !forwardToNamed && forwardDeadLettersTo != null) {
            return "forwardDeadLetteredMessagesTo";
        }
        return e.property();
    }
}
