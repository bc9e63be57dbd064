package dev.sbemu.junit.config;

import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.Topology;
import dev.sbemu.core.config.Topology.QueueSpec;
import dev.sbemu.core.config.Topology.RuleSpec;
import dev.sbemu.core.config.Topology.SubscriptionSpec;
import dev.sbemu.core.config.Topology.TopicSpec;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: topologies without their origins (so that equal declarations compare equal), and namespaces. */
final class Topologies {
    private Topologies() {}

    static Topology withoutOrigins(Topology t) {
        return new Topology(
                t.queues().stream()
                        .map(q -> new QueueSpec(q.name(), q.options(), null))
                        .toList(),
                t.topics().stream()
                        .map(topic -> new TopicSpec(
                                topic.name(),
                                topic.options(),
                                topic.subscriptions().stream()
                                        .map(s -> new SubscriptionSpec(
                                                s.name(),
                                                s.options(),
                                                s.rules().stream()
                                                        .map(r -> new RuleSpec(r.name(), r.filter(), r.action(), null))
                                                        .toList(),
                                                null))
                                        .toList(),
                                null))
                        .toList());
    }

    static Namespace namespaceOf(Topology t) {
        Namespace namespace = Namespace.create();
        t.applyTo(namespace);
        return namespace;
    }

    /** Every entity of the namespace with its options, one per line. */
    static String describe(Namespace ns) {
        List<String> lines = new ArrayList<>();
        ns.queueNames().stream().sorted().forEach(q -> lines.add("queue " + q + " " + ns.getQueue(q)));
        ns.topicNames().stream().sorted().forEach(t -> {
            lines.add("topic " + t + " " + ns.getTopic(t));
            ns.subscriptionNames(t).stream()
                    .sorted()
                    .forEach(s -> lines.add("subscription " + t + "/" + s + " " + ns.getSubscription(t, s) + " rules "
                            + ns.listRules(t, s)));
        });
        return String.join("\n", lines);
    }
}
