package dev.sbemu.amqp.internal.jms;

import static dev.sbemu.amqp.internal.jms.JmsSymbols.GLOBAL;
import static dev.sbemu.amqp.internal.jms.JmsSymbols.JMS_SELECTOR;
import static dev.sbemu.amqp.internal.jms.JmsSymbols.QUEUE_AUTO_DELETE;
import static dev.sbemu.amqp.internal.jms.JmsSymbols.SHARED;
import static dev.sbemu.amqp.internal.jms.JmsSymbols.SUBSCRIBER_AUTO_DELETE;
import static dev.sbemu.amqp.internal.jms.JmsSymbols.TEMPORARY_TOPIC;
import static dev.sbemu.amqp.internal.jms.JmsSymbols.TOPIC_AUTO_DELETE;

import dev.sbemu.amqp.internal.link.Attach;
import dev.sbemu.amqp.internal.link.AttachPolicy;
import dev.sbemu.amqp.internal.link.AttachPolicy.Role;
import dev.sbemu.amqp.internal.link.AttachPolicy.Stage;
import dev.sbemu.amqp.internal.link.BrowseLink;
import dev.sbemu.amqp.internal.link.HeldCalls;
import dev.sbemu.amqp.internal.link.IncomingLink;
import dev.sbemu.amqp.internal.link.OutgoingLink;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.LinkBound;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.filter.RuleFilter;
import dev.sbemu.core.filter.SqlFilter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.messaging.TerminusDurability;
import org.apache.qpid.proton.amqp.messaging.TerminusExpiryPolicy;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Sender;

/**
 * The JMS dialect's rows of the routing table (Qpid JMS and azure-servicebus-jms, Premium only, JMS-26): temporary
 * queues and topics (a sender with a dynamic target), unsubscribes (a receiver with no source), topic consumers (a
 * receiver on a topic's address: its subscription named and made here, its consumers counted in {@link
 * JmsConsumers}), queue browsers (the distribution mode {@code copy}, with a selector) and the refusals of what the
 * service refuses (browsers and selectors on Standard, selectors on queue receivers). The symbols are {@link
 * JmsSymbols}'.
 */
public final class JmsRoutes {
    private static final Logger LOG = Logger.getLogger(JmsRoutes.class.getName());

    private final ServedNamespace namespace;
    private final JmsConsumers consumers;

    public JmsRoutes(ServedNamespace namespace, JmsConsumers consumers) {
        this.namespace = namespace;
        this.consumers = consumers;
    }

    /** The rows, in the order they are tried. */
    public List<AttachPolicy> policies() {
        return List.of(
                new AttachPolicy(
                        "JMS temporary queue or topic",
                        Role.CLIENT_SENDS,
                        Stage.AUTHORIZED,
                        a -> a.target() != null
                                && Boolean.TRUE.equals(a.target().getDynamic()),
                        this::attachTemporary),
                new AttachPolicy(
                        "JMS unsubscribe",
                        Role.CLIENT_RECEIVES,
                        Stage.AUTHORIZED,
                        a -> a.source() == null,
                        this::unsubscribe),
                // before the browse check: a durable subscription's source has the distribution mode copy too
                new AttachPolicy(
                        "JMS topic consumer",
                        Role.CLIENT_RECEIVES,
                        Stage.ON_ENTITY,
                        a -> !a.entity().isSubscription()
                                && a.entity().subQueue() == EntityPath.Part.NONE
                                && namespace.get().topicExists(a.entity().topicOrQueue()),
                        this::attachTopicConsumer),
                // JMS-26: the service refuses browsers and selectors on Standard
                new AttachPolicy(
                        "JMS browser or selector on Standard (refused)",
                        Role.CLIENT_RECEIVES,
                        Stage.ON_ENTITY,
                        a -> (browse(a) || hasSelector(a)) && namespace.get().tier() != Tier.PREMIUM,
                        a -> a.refuse(premiumOnly())),
                new AttachPolicy(
                        "JMS queue browser", Role.CLIENT_RECEIVES, Stage.ON_ENTITY, JmsRoutes::browse, this::browser),
                // JMS-21: selectors on subscriptions and browsers only
                new AttachPolicy(
                        "JMS selector on a queue receiver (refused)",
                        Role.CLIENT_RECEIVES,
                        Stage.ON_ENTITY,
                        JmsRoutes::hasSelector,
                        a -> a.refuse(new ErrorCondition(
                                AmqpErrors.NOT_IMPLEMENTED,
                                "Message selectors are supported on "
                                        + "topic subscriptions and queue browsers, not on queue receivers."))));
    }

    private static boolean browse(Attach a) {
        return BrowseLink.COPY.equals(a.source().getDistributionMode());
    }

    private static boolean hasSelector(Attach a) {
        Map<Symbol, Object> filter = a.source().getFilter();
        return filter != null && filter.containsKey(JMS_SELECTOR);
    }

    /** A browser (JMS QueueBrowser) peeks: nothing is locked or removed, whatever its settle mode (JMS-11). */
    private void browser(Attach a) {
        SqlFilter browseSelector;
        try {
            browseSelector = selectorOf(a.source());
        } catch (RuntimeException e) {
            a.refuse(AmqpErrors.of(e));
            return;
        }
        a.open(new BrowseLink(namespace, a.connection(), a.sender(), a.entity(), browseSelector));
    }

    /**
     * A sender asking for a dynamic target: a JMS temporary queue or topic (Premium only, JMS-24). A queue or topic
     * with a fresh name is created, the attach answers its address, and it is deleted when the link goes (JMS
     * {@code delete()}, or the connection's end).
     */
    private void attachTemporary(Attach a) {
        Receiver receiver = a.receiver();
        Target requested = a.target();
        Symbol[] capabilities = requested.getCapabilities();
        boolean topic = capabilities != null && Arrays.asList(capabilities).contains(TEMPORARY_TOPIC);
        String name = "sbemu-temp-" + UUID.randomUUID();
        Namespace ns = namespace.get();
        if (ns.tier() != Tier.PREMIUM) {
            a.refuse(premiumOnly());
            return;
        }
        try {
            Duration idle = autoDeleteOnIdle(receiver, topic ? TOPIC_AUTO_DELETE : QUEUE_AUTO_DELETE);
            if (topic) {
                ns.createTopic(
                        name,
                        idle == null
                                ? TopicOptions.defaults()
                                : TopicOptions.builder().autoDeleteOnIdle(idle).build());
            } else {
                ns.createQueue(
                        name,
                        idle == null
                                ? QueueOptions.defaults()
                                : QueueOptions.builder().autoDeleteOnIdle(idle).build());
            }
        } catch (RuntimeException e) {
            a.refuse(AmqpErrors.of(e));
            return;
        }
        Target local = new Target();
        local.setAddress(name);
        local.setDynamic(true);
        local.setDurable(requested.getDurable());
        local.setExpiryPolicy(requested.getExpiryPolicy());
        local.setTimeout(requested.getTimeout());
        local.setCapabilities(capabilities);
        local.setDynamicNodeProperties(requested.getDynamicNodeProperties());
        receiver.setTarget(local);
        receiver.setMaxMessageSize(UnsignedLong.valueOf(a.maxMessageSize(name)));
        HeldCalls calls = a.heldCalls();
        IncomingLink incoming = a.incomingLink(name, calls);
        incoming.whenClosed(() -> {
            try {
                if (namespace.get() == ns && topic && ns.topicExists(name)) {
                    ns.deleteTopic(name);
                } else if (namespace.get() == ns && !topic && ns.queueExists(name)) {
                    ns.deleteQueue(name);
                }
            } catch (RuntimeException e) {
                LOG.fine(() -> "sbemu AMQP endpoint: could not delete temporary entity " + name + ": " + e);
            }
        });
        incoming.limits(() -> a.settings().linkCredit(), calls);
        a.open(incoming);
    }

    /**
     * A receiver on a topic (a JMS topic consumer, Premium only): its subscription is named as the service names JMS
     * subscriptions, {@code <name>$<client id>$D} (durable) or {@code <name>$<client id>$ND} (non-durable), the name
     * being the link name up to Qpid JMS's {@code |} suffix and the client id the connection's container id, empty for
     * a {@code global} (no client id) shared one; an unshared non-durable consumer gets a generated name. It is created
     * when absent, with the JMS selector (header names mapped) as its SQL filter; a durable one is resumed when it
     * exists and stays when its links go; a non-durable one is deleted when its last link goes (JMS-16 to JMS-20).
     */
    private void attachTopicConsumer(Attach a) {
        Sender sender = a.sender();
        Source source = a.source();
        String topic = a.entity().topicOrQueue();
        Namespace ns = namespace.get();
        if (ns.tier() != Tier.PREMIUM) {
            a.refuse(premiumOnly());
            return;
        }
        List<Symbol> capabilities =
                source.getCapabilities() == null ? List.of() : Arrays.asList(source.getCapabilities());
        boolean shared = capabilities.contains(SHARED);
        boolean durable = source.getDurable() != null && source.getDurable() != TerminusDurability.NONE
                || source.getExpiryPolicy() == TerminusExpiryPolicy.NEVER;
        String clientId = capabilities.contains(GLOBAL) ? "" : containerId(sender);
        String base = shared || durable
                ? baseName(sender.getName())
                : "jms-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String name = base + "$" + clientId + (durable ? "$D" : "$ND");
        List<RuleDescription> rules = List.of();
        try {
            SqlFilter selector = selectorOf(source);
            if (selector != null) {
                rules = List.of(new RuleDescription(RuleDescription.DEFAULT_RULE_NAME, selector, null));
            }
        } catch (RuntimeException e) {
            a.refuse(AmqpErrors.of(e));
            return;
        }
        // by name alone: the service refuses a second consumer "on the same or different topic"; a shared and an
        // unshared consumer of one name exclude each other (JMS-17)
        String key = name;
        if (!consumers.add(key, !shared)) {
            a.refuse(new ErrorCondition(
                    AmqpErrors.NOT_ALLOWED,
                    "Cannot create a new consumer on subscriber "
                            + name
                            + " because there is already a subscriber using the same name with an active consumer "
                            + "on the same or different topic."));
            return;
        }
        try {
            if (durable && consumers.count(key) == 1) {
                replaceChanged(ns, topic, name, rules);
            } else if (shared && ns.subscriptionExists(topic, name) && !sameRules(ns, topic, name, rules)) {
                // JMS: a shared subscription with consumers cannot change its selector (JMS-17)
                consumers.remove(key);
                a.refuse(new ErrorCondition(
                        AmqpErrors.NOT_ALLOWED,
                        "The shared subscription " + name + " has active consumers with another selector."));
                return;
            }
            if (!ns.subscriptionExists(topic, name)) {
                Duration idle = autoDeleteOnIdle(sender, SUBSCRIBER_AUTO_DELETE);
                ns.createSubscription(
                        topic,
                        name,
                        idle == null
                                ? SubscriptionOptions.defaults()
                                : SubscriptionOptions.builder()
                                        .autoDeleteOnIdle(idle)
                                        .build(),
                        rules);
            }
        } catch (RuntimeException e) {
            if (!ns.subscriptionExists(topic, name)) { // else another connection created it meanwhile
                consumers.remove(key);
                a.refuse(AmqpErrors.of(e));
                return;
            }
        }
        OutgoingLink link = a.outgoingLink(EntityPath.subscription(topic, name));
        link.whenClosed(() -> {
            int left = consumers.remove(key);
            if (durable || left > 0) {
                return;
            }
            try {
                if (namespace.get() == ns && ns.subscriptionExists(topic, name)) {
                    ns.deleteSubscription(topic, name);
                }
            } catch (RuntimeException e) {
                LOG.fine(() -> "sbemu AMQP endpoint: could not delete subscription " + name + ": " + e);
            }
        });
        a.open(link);
    }

    /**
     * JMS: a durable subscription attached with another topic or another selector than it has is deleted, and a new
     * one made ("equivalent to unsubscribing (deleting) the old one and creating a new one", {@code
     * Session.createDurableConsumer}); only while it has no other consumer (JMS-17).
     */
    private static void replaceChanged(Namespace ns, String topic, String name, List<RuleDescription> rules) {
        for (String other : ns.topicNames()) {
            if (ns.subscriptionExists(other, name)
                    && !(other.equalsIgnoreCase(topic) && sameRules(ns, other, name, rules))) {
                ns.deleteSubscription(other, name);
            }
        }
    }

    /** Whether the subscription's filters are those of {@code rules} ({@code $Default}'s when it is empty). */
    private static boolean sameRules(Namespace ns, String topic, String name, List<RuleDescription> rules) {
        List<RuleFilter> wanted = (rules.isEmpty() ? List.of(RuleDescription.defaultRule()) : rules)
                .stream().map(RuleDescription::filter).toList();
        return ns.listRules(topic, name).stream()
                .map(RuleDescription::filter)
                .toList()
                .equals(wanted);
    }

    /**
     * A receiver attached with no source: Qpid JMS's {@code unsubscribe(name)}, which looks the durable subscription
     * up by the link name and, when the attach answers with a source, detaches with closed=true to delete it. No such
     * subscription: attached without a source, then detached with {@code amqp:not-found}; one with an active
     * consumer: refused with {@code amqp:not-allowed} (JMS-18, JMS-19).
     */
    private void unsubscribe(Attach a) {
        Sender sender = a.sender();
        Namespace ns = namespace.get();
        if (ns.tier() != Tier.PREMIUM) {
            a.refuse(premiumOnly());
            return;
        }
        Symbol[] desired = sender.getRemoteDesiredCapabilities();
        boolean global = desired != null && Arrays.asList(desired).contains(GLOBAL)
                || sender.getName().contains("|global");
        String name = baseName(sender.getName()) + "$" + (global ? "" : containerId(sender)) + "$D";
        String topic = null;
        for (String candidate : ns.topicNames()) {
            if (ns.subscriptionExists(candidate, name)) {
                topic = candidate;
                break;
            }
        }
        if (topic == null) {
            a.refuse(new ErrorCondition(
                    AmqpErrors.NOT_FOUND, "The messaging entity '" + name + "' could not be found."));
            return;
        }
        String key = name;
        if (consumers.count(key) > 0) {
            a.refuse(new ErrorCondition(
                    AmqpErrors.NOT_ALLOWED,
                    "Cannot unsubscribe " + name + ": the " + "durable subscription has an active consumer."));
            return;
        }
        Source found = new Source();
        found.setAddress(topic);
        found.setDurable(TerminusDurability.UNSETTLED_STATE);
        found.setExpiryPolicy(TerminusExpiryPolicy.NEVER);
        found.setDistributionMode(BrowseLink.COPY);
        sender.setSource(found);
        String subscriptionTopic = topic;
        a.open(new Unsubscribe(sender, () -> {
            try {
                if (namespace.get() == ns
                        && ns.subscriptionExists(subscriptionTopic, name)
                        && consumers.count(key) == 0) {
                    ns.deleteSubscription(subscriptionTopic, name);
                }
            } catch (RuntimeException e) {
                LOG.fine(() -> "sbemu AMQP endpoint: could not unsubscribe " + name + ": " + e);
            }
        }));
    }

    /** The link of a JMS unsubscribe: it deletes the subscription when the client closes it. */
    private record Unsubscribe(Link link, Runnable delete) implements LinkBound {
        @Override
        public void onPeerClosed() {
            delete.run();
        }
    }

    /** The source's JMS selector as a SQL filter (JMS header names mapped, JMS-20), or null without one. */
    private static SqlFilter selectorOf(Source source) {
        Object selector = source.getFilter() == null ? null : source.getFilter().get(JMS_SELECTOR);
        if (selector instanceof DescribedType described
                && described.getDescribed() instanceof String jms
                && !jms.isBlank()) {
            return SqlFilter.parse(JmsSelector.toSqlFilter(jms));
        }
        return null;
    }

    /** A JMS subscription name from Qpid JMS's link name: {@code name}, {@code name|2}, {@code name|global}, ... */
    private static String baseName(String linkName) {
        int bar = linkName.indexOf('|');
        return bar < 0 ? linkName : linkName.substring(0, bar);
    }

    /**
     * The auto-delete-on-idle a {@code ServiceBusJmsConnectionFactory} asks for the entities the service makes for
     * it, in its connection's open properties ({@code ServiceBusJmsConnectionFactorySettings}), or null without one
     * (JMS-27).
     */
    private static Duration autoDeleteOnIdle(Link link, Symbol property) {
        Map<Symbol, Object> properties = link.getSession().getConnection().getRemoteProperties();
        Object seconds = properties == null ? null : properties.get(property);
        return seconds instanceof Number n && n.longValue() > 0 ? Duration.ofSeconds(n.longValue()) : null;
    }

    /** The client's container id (Qpid JMS's client id when one is set), or "" without one. */
    private static String containerId(Link link) {
        String container = link.getSession().getConnection().getRemoteContainer();
        return container == null ? "" : container;
    }

    /** What the service answers a Standard namespace's JMS 2.0 request (JMS-26). */
    static ErrorCondition premiumOnly() {
        return new ErrorCondition(
                AmqpErrors.NOT_ALLOWED,
                "Full JMS 2.0 parity over AMQP is a feature supported " + "only by a Premium Messaging namespace.");
    }
}
