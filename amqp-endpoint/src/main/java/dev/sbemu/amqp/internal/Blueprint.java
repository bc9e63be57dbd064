package dev.sbemu.amqp.internal;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.TopicOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What a namespace was when the endpoint was handed it: its entities with their options and rules, its clock's
 * instant and mode, tier and expiry mode. A reset ({@code POST /__admin/reset}) builds a fresh namespace from it:
 * the same topology, no messages, the clock back where it stood.
 */
final class Blueprint {
    private record Sub(String topic, String name, SubscriptionOptions options, List<RuleDescription> rules) {}

    private final Instant start;
    private final ClockMode mode;
    private final Tier tier;
    private final ExpiryMode expiryMode;
    private final List<String> queueNames = new ArrayList<>();
    private final List<QueueOptions> queues = new ArrayList<>();
    private final List<String> topicNames = new ArrayList<>();
    private final List<TopicOptions> topics = new ArrayList<>();
    private final List<Sub> subscriptions = new ArrayList<>();

    private Blueprint(Namespace namespace) {
        this.start = namespace.clock().instant();
        this.mode = namespace.clock().mode();
        this.tier = namespace.tier();
        this.expiryMode = namespace.expiryMode();
        for (String name : namespace.queueNames()) {
            queueNames.add(name);
            queues.add(namespace.getQueue(name));
        }
        for (String topic : namespace.topicNames()) {
            topicNames.add(topic);
            topics.add(namespace.getTopic(topic));
            for (String sub : namespace.subscriptionNames(topic)) {
                subscriptions.add(
                        new Sub(topic, sub, namespace.getSubscription(topic, sub), namespace.listRules(topic, sub)));
            }
        }
    }

    static Blueprint of(Namespace namespace) {
        return new Blueprint(namespace);
    }

    /** A new namespace with the blueprint's topology, its clock at the blueprint's start, in its mode. */
    Namespace build() {
        Namespace fresh = Namespace.builder()
                .startingAt(start)
                .clockMode(mode)
                .tier(tier)
                .expiryMode(expiryMode)
                .build();
        try {
            List<Runnable> pending = new ArrayList<>();
            for (int i = 0; i < queueNames.size(); i++) {
                String name = queueNames.get(i);
                QueueOptions options = queues.get(i);
                pending.add(() -> fresh.createQueue(name, options));
            }
            for (int i = 0; i < topicNames.size(); i++) {
                String name = topicNames.get(i);
                TopicOptions options = topics.get(i);
                pending.add(() -> fresh.createTopic(name, options));
            }
            createAll(pending);
            List<Runnable> subs = new ArrayList<>();
            for (Sub sub : subscriptions) {
                subs.add(() -> fresh.createSubscription(sub.topic(), sub.name(), sub.options(), sub.rules()));
            }
            createAll(subs);
            return fresh;
        } catch (RuntimeException e) {
            fresh.close();
            throw e;
        }
    }

    /** Runs the creations in passes, so an entity forwarding to one created later is created after it. */
    private static void createAll(List<Runnable> pending) {
        List<Runnable> left = new ArrayList<>(pending);
        while (!left.isEmpty()) {
            RuntimeException last = null;
            int before = left.size();
            for (Iterator<Runnable> it = left.iterator(); it.hasNext(); ) {
                try {
                    it.next().run();
                    it.remove();
                } catch (RuntimeException e) {
                    last = e;
                }
            }
            if (left.size() == before) {
                throw last;
            }
        }
    }
}
