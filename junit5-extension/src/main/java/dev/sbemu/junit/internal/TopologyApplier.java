package dev.sbemu.junit.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.junit.internal.Topology.QueueSpec;
import dev.sbemu.junit.internal.Topology.RuleSpec;
import dev.sbemu.junit.internal.Topology.SubscriptionSpec;
import dev.sbemu.junit.internal.Topology.TopicSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates a {@link Topology}'s entities in a namespace. Topics come first, then queues in an order that
 * creates each forwarding target before its source (FWD-1); queues that forward in a cycle are created
 * without forwarding and then updated. Errors name the entity's origin.
 */
public final class TopologyApplier {

    private TopologyApplier() {
    }

    /**
     * @throws InvalidTopologyException when the core rejects an entity
     * @throws UnsupportedOperationException when a subscription declares rules the core cannot create yet
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
                    guarded(queue.origin(), () -> namespace.createQueue(queue.name(), queue.options()),
                            queue.options());
                    pending.remove(queue);
                    progress = true;
                }
            }
        }
        for (QueueSpec queue : pending) {
            QueueOptions withoutForwarding = queue.options().toBuilder()
                    .forwardTo(null).forwardDeadLetteredMessagesTo(null).build();
            guarded(queue.origin(), () -> namespace.createQueue(queue.name(), withoutForwarding));
        }
        return pending;
    }

    /** Whether the queue's forwarding targets exist, or never will (then creating it reports the error). */
    private static boolean targetsExist(QueueOptions options, Namespace namespace, List<QueueSpec> pending,
                                        QueueSpec self) {
        for (String target : new String[] {options.forwardTo(), options.forwardDeadLetteredMessagesTo()}) {
            if (target != null && !namespace.queueExists(target) && !namespace.topicExists(target)
                    && pending.stream().anyMatch(q -> q != self && q.name().equals(target))) {
                return false;
            }
        }
        return true;
    }

    private static void createSubscription(Namespace namespace, TopicSpec topic, SubscriptionSpec subscription) {
        guarded(subscription.origin(),
                () -> namespace.createSubscription(topic.name(), subscription.name(), subscription.options()),
                subscription.options().forwardTo(), subscription.options().forwardDeadLetteredMessagesTo());
        if (!subscription.rules().isEmpty()) {
            RuleSpec first = subscription.rules().get(0);
            throw new UnsupportedOperationException("Subscription rules are not supported yet (emulator-core has no "
                    + "Namespace.createRule): rule '" + first.name() + "' of subscription '" + topic.name()
                    + "/Subscriptions/" + subscription.name() + "', declared at " + first.origin().describe(null)
                    + ". Remove the rules, or declare the subscription without them.");
        }
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
