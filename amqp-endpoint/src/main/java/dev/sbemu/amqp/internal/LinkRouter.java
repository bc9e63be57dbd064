package dev.sbemu.amqp.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SessionLock;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.filter.SqlFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Logger;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnknownDescribedType;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.messaging.TerminusDurability;
import org.apache.qpid.proton.amqp.messaging.TerminusExpiryPolicy;
import org.apache.qpid.proton.amqp.transaction.Coordinator;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.SenderSettleMode;
import org.apache.qpid.proton.engine.EndpointState;
import org.apache.qpid.proton.engine.Link;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Sender;
import org.apache.qpid.proton.message.Message;

/**
 * Decides what an attaching link is, by its address, and answers the attach: {@code $cbs} and
 * {@code <entity>/$management} request and reply links, the transaction coordinator, senders to queues and
 * topics (or, without a target address, to each message's {@code to}), dynamic targets (JMS temporary queues and
 * topics), and receivers on queues, subscriptions and their sub-queues (a session filter makes it a session
 * receiver, attached once the session is locked), on a topic's address (a JMS topic consumer, whose subscription it
 * makes), with the distribution mode {@code copy} (a browser), or with no source (a JMS unsubscribe). Every link but {@code $cbs} and the coordinator needs an
 * authorized connection. A refused attach is answered as the service does: attached with no source or target, then
 * detached with the error. Loop thread only.
 */
final class LinkRouter {
    private static final Logger LOG = Logger.getLogger(LinkRouter.class.getName());
    static final Symbol SESSION_FILTER = Symbol.valueOf("com.microsoft:session-filter");
    static final Symbol LOCKED_UNTIL_UTC = Symbol.valueOf("com.microsoft:locked-until-utc");
    static final Symbol TIMEOUT = Symbol.valueOf("com.microsoft:timeout");
    private static final Symbol TEMPORARY_TOPIC = Symbol.valueOf("temporary-topic");
    private static final Symbol SHARED = Symbol.valueOf("shared");
    /** {@code ServiceBusJmsConnectionFactorySettings}' open properties (JMS-27). */
    private static final Symbol QUEUE_AUTO_DELETE =
            Symbol.valueOf("com.microsoft:queue-auto-delete-on-idle-duration-in-seconds");

    private static final Symbol TOPIC_AUTO_DELETE =
            Symbol.valueOf("com.microsoft:topic-auto-delete-on-idle-duration-in-seconds");
    private static final Symbol SUBSCRIBER_AUTO_DELETE =
            Symbol.valueOf("com.microsoft:subscriber-auto-delete-on-idle-duration-in-seconds");
    /** Qpid JMS's mark of a shared subscription without a client id. */
    private static final Symbol GLOBAL = Symbol.valueOf("global");
    /** Qpid JMS's selector filter key (its value is described by {@code apache.org:selector-filter:string}). */
    private static final Symbol JMS_SELECTOR = Symbol.valueOf("jms-selector");

    private static final String MANAGEMENT = "/$management";
    private static final String CBS = "$cbs";
    /** .NET ticks (100 ns since 0001-01-01) at the Unix epoch. */
    private static final long EPOCH_TICKS = 621_355_968_000_000_000L;

    private static final Duration DEFAULT_ACCEPT_WAIT = Duration.ofMinutes(1);

    private final AmqpConnection connection;
    private final EndpointContext context;
    private final Map<String, ReplyLink> replies = new HashMap<>();

    LinkRouter(AmqpConnection connection, EndpointContext context) {
        this.connection = connection;
        this.context = context;
    }

    void attach(Link link) {
        connection.loop().checkThread();
        if (link instanceof Receiver receiver) {
            attachIncoming(receiver);
        } else {
            attachOutgoing((Sender) link);
        }
    }

    private void attachIncoming(Receiver receiver) {
        if (receiver.getRemoteTarget() instanceof Coordinator) {
            // No token needed (AMQP-9): azure-core-amqp attaches the coordinator without authorizing it, and the
            // service accepts that. A transaction only takes effect through links that need one.
            CoordinatorLink coordinator = new CoordinatorLink(context, receiver);
            coordinator.limits(() -> context.options().linkCredit(), null);
            open(receiver, coordinator);
            return;
        }
        String address = receiver.getRemoteTarget() instanceof Target t ? EntityAddress.strip(t.getAddress()) : "";
        if (CBS.equalsIgnoreCase(address)) {
            // a token is small: a larger request is cut off, and before a token was accepted the link has little
            // credit, so an unauthenticated client cannot make the endpoint buffer much (AMQP-13)
            receiver.setMaxMessageSize(UnsignedLong.valueOf(context.options().maxRequestSize()));
            RequestLink cbs = new RequestLink(receiver, new CbsNode(context, connection), this, null);
            cbs.limits(
                    () -> connection.isAuthorized()
                            ? context.options().linkCredit()
                            : context.options().unauthenticatedCredit(),
                    () -> connection.isAuthorized()
                            ? Long.MAX_VALUE
                            : context.options().unauthenticatedCredit(),
                    null);
            open(receiver, cbs);
            return;
        }
        if (!authorized(receiver)) {
            return;
        }
        if (address.toLowerCase(Locale.ROOT).endsWith(MANAGEMENT)) {
            EntityPath entity = EntityAddress.parse(address.substring(0, address.length() - MANAGEMENT.length()));
            if (exists(entity, receiver)) {
                // a request carries up to a message of the entity (schedule-message), plus its envelope
                receiver.setMaxMessageSize(UnsignedLong.valueOf((long) maxMessageSize(entity.topicOrQueue())
                        + context.options().maxRequestSize()));
                HeldCalls calls = new HeldCalls(context, connection.loop());
                RequestLink management = new RequestLink(receiver, new ManagementNode(context, entity), this, calls);
                management.limits(() -> context.options().linkCredit(), calls);
                open(receiver, management);
            }
            return;
        }
        if (receiver.getRemoteTarget() instanceof Target dynamic && Boolean.TRUE.equals(dynamic.getDynamic())) {
            attachTemporary(receiver, dynamic);
            return;
        }
        Namespace ns = context.namespace();
        if (address.isEmpty() && receiver.getRemoteTarget() instanceof Target) {
            // an anonymous sender (ANONYMOUS-RELAY, Qpid JMS's anonymous producer): each message goes to its `to`
            receiver.setMaxMessageSize(UnsignedLong.valueOf(ns.tier().defaultMaxMessageSizeBytes()));
            HeldCalls calls = new HeldCalls(context, connection.loop());
            IncomingLink anonymous = new IncomingLink(context, receiver, null, calls);
            anonymous.limits(() -> context.options().linkCredit(), calls);
            open(receiver, anonymous);
            return;
        }
        if (!ns.queueExists(address) && !ns.topicExists(address)) {
            refuse(receiver, AmqpErrors.entityNotFound(address));
            return;
        }
        receiver.setMaxMessageSize(UnsignedLong.valueOf(maxMessageSize(address)));
        HeldCalls calls = new HeldCalls(context, connection.loop());
        IncomingLink incoming = new IncomingLink(context, receiver, address, calls);
        incoming.limits(() -> context.options().linkCredit(), calls);
        open(receiver, incoming);
    }

    /**
     * A sender asking for a dynamic target: a JMS temporary queue or topic (Premium only, JMS-24). A queue or topic
     * with a fresh name is created, the attach answers its address, and it is deleted when the link goes (JMS
     * {@code delete()}, or the connection's end).
     */
    private void attachTemporary(Receiver receiver, Target requested) {
        Symbol[] capabilities = requested.getCapabilities();
        boolean topic =
                capabilities != null && java.util.Arrays.asList(capabilities).contains(TEMPORARY_TOPIC);
        String name = "sbemu-temp-" + java.util.UUID.randomUUID();
        Namespace ns = context.namespace();
        if (ns.tier() != Tier.PREMIUM) {
            refuse(receiver, premiumOnly());
            return;
        }
        try {
            Duration idle = autoDeleteOnIdle(receiver, topic ? TOPIC_AUTO_DELETE : QUEUE_AUTO_DELETE);
            if (topic) {
                ns.createTopic(
                        name,
                        idle == null
                                ? dev.sbemu.core.TopicOptions.defaults()
                                : dev.sbemu.core.TopicOptions.builder()
                                        .autoDeleteOnIdle(idle)
                                        .build());
            } else {
                ns.createQueue(
                        name,
                        idle == null
                                ? dev.sbemu.core.QueueOptions.defaults()
                                : dev.sbemu.core.QueueOptions.builder()
                                        .autoDeleteOnIdle(idle)
                                        .build());
            }
        } catch (RuntimeException e) {
            refuse(receiver, AmqpErrors.of(e));
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
        receiver.setMaxMessageSize(UnsignedLong.valueOf(maxMessageSize(name)));
        HeldCalls calls = new HeldCalls(context, connection.loop());
        IncomingLink incoming = new IncomingLink(context, receiver, name, calls);
        incoming.whenClosed(() -> {
            try {
                if (context.namespace() == ns && topic && ns.topicExists(name)) {
                    ns.deleteTopic(name);
                } else if (context.namespace() == ns && !topic && ns.queueExists(name)) {
                    ns.deleteQueue(name);
                }
            } catch (RuntimeException e) {
                LOG.fine(() -> "sbemu AMQP endpoint: could not delete temporary entity " + name + ": " + e);
            }
        });
        incoming.limits(() -> context.options().linkCredit(), calls);
        open(receiver, incoming);
    }

    private void attachOutgoing(Sender sender) {
        Source source = sender.getRemoteSource() instanceof Source s ? s : null;
        String address = source == null ? "" : EntityAddress.strip(source.getAddress());
        String lower = address.toLowerCase(Locale.ROOT);
        if (CBS.equals(lower) || lower.endsWith(MANAGEMENT)) {
            // The reply-to address is the link's target address; a link without one (the JavaScript SDK's
            // $cbs reply link) is addressed by its name, which that SDK puts in its requests' reply-to.
            String target = sender.getRemoteTarget() instanceof Target t ? t.getAddress() : null;
            String replyTo = target != null ? target : sender.getName();
            ReplyLink reply = new ReplyLink(sender, closed -> replies.remove(replyTo, closed));
            open(sender, reply);
            replies.put(replyTo, reply);
            return;
        }
        if (!authorized(sender)) {
            return;
        }
        if (source == null) {
            unsubscribe(sender);
            return;
        }
        EntityPath entity = EntityAddress.parse(address);
        if (!exists(entity, sender)) {
            return;
        }
        ReceiveMode mode = sender.getRemoteSenderSettleMode() == SenderSettleMode.SETTLED
                ? ReceiveMode.RECEIVE_AND_DELETE
                : ReceiveMode.PEEK_LOCK;
        if (!entity.isSubscription()
                && entity.subQueue() == EntityPath.Part.NONE
                && context.namespace().topicExists(entity.topicOrQueue())) {
            // before the browse check: a durable subscription's source has the distribution mode copy too
            attachTopicConsumer(sender, source, entity.topicOrQueue(), mode);
            return;
        }
        Map<Symbol, Object> filter = source.getFilter();
        boolean browse = BrowseLink.COPY.equals(source.getDistributionMode());
        if ((browse || filter != null && filter.containsKey(JMS_SELECTOR))
                && context.namespace().tier() != Tier.PREMIUM) {
            refuse(sender, premiumOnly()); // Standard: no browsers, no selectors (JMS-26)
            return;
        }
        if (browse) {
            // a browser (JMS QueueBrowser) peeks: nothing is locked or removed, whatever its settle mode (JMS-11)
            SqlFilter browseSelector;
            try {
                browseSelector = selectorOf(source);
            } catch (RuntimeException e) {
                refuse(sender, AmqpErrors.of(e));
                return;
            }
            open(sender, new BrowseLink(context, connection, sender, entity, browseSelector));
            return;
        }
        if (filter != null && filter.containsKey(JMS_SELECTOR)) {
            refuse(
                    sender,
                    new ErrorCondition(
                            AmqpErrors.NOT_IMPLEMENTED,
                            "Message selectors are supported on "
                                    + "topic subscriptions and queue browsers, not on queue receivers.")); // JMS-21
            return;
        }
        if (filter != null && filter.containsKey(SESSION_FILTER)) {
            acceptSession(sender, entity, mode, sessionIdOf(filter.get(SESSION_FILTER)));
            return;
        }
        open(sender, new OutgoingLink(context, connection, sender, entity, mode, null));
    }

    /**
     * A receiver on a topic (a JMS topic consumer, Premium only): its subscription is named as the service names JMS
     * subscriptions, {@code <name>$<client id>$D} (durable) or {@code <name>$<client id>$ND} (non-durable), the name
     * being the link name up to Qpid JMS's {@code |} suffix and the client id the connection's container id, empty for
     * a {@code global} (no client id) shared one; an unshared non-durable consumer gets a generated name. It is created
     * when absent, with the JMS selector (header names mapped) as its SQL filter; a durable one is resumed when it
     * exists and stays when its links go; a non-durable one is deleted when its last link goes (JMS-16 to JMS-20).
     */
    private void attachTopicConsumer(Sender sender, Source source, String topic, ReceiveMode mode) {
        Namespace ns = context.namespace();
        if (ns.tier() != Tier.PREMIUM) {
            refuse(sender, premiumOnly());
            return;
        }
        List<Symbol> capabilities =
                source.getCapabilities() == null ? List.of() : java.util.Arrays.asList(source.getCapabilities());
        boolean shared = capabilities.contains(SHARED);
        boolean durable = source.getDurable() != null && source.getDurable() != TerminusDurability.NONE
                || source.getExpiryPolicy() == TerminusExpiryPolicy.NEVER;
        String clientId = capabilities.contains(GLOBAL) ? "" : containerId(sender);
        String base = shared || durable
                ? baseName(sender.getName())
                : "jms-"
                        + java.util
                                .UUID
                                .randomUUID()
                                .toString()
                                .replace("-", "")
                                .substring(0, 12);
        String name = base + "$" + clientId + (durable ? "$D" : "$ND");
        List<RuleDescription> rules = List.of();
        try {
            SqlFilter selector = selectorOf(source);
            if (selector != null) {
                rules = List.of(new RuleDescription(RuleDescription.DEFAULT_RULE_NAME, selector, null));
            }
        } catch (RuntimeException e) {
            refuse(sender, AmqpErrors.of(e));
            return;
        }
        // by name alone: the service refuses a second consumer "on the same or different topic"; a shared and an
        // unshared consumer of one name exclude each other (JMS-17)
        String key = name;
        if (!context.addJmsConsumer(key, !shared)) {
            refuse(
                    sender,
                    new ErrorCondition(
                            AmqpErrors.NOT_ALLOWED,
                            "Cannot create a new consumer on subscriber "
                                    + name
                                    + " because there is already a subscriber using the same name with an active consumer "
                                    + "on the same or different topic."));
            return;
        }
        try {
            if (durable && context.jmsConsumers(key) == 1) {
                replaceChanged(ns, topic, name, rules);
            } else if (shared && ns.subscriptionExists(topic, name) && !sameRules(ns, topic, name, rules)) {
                // JMS: a shared subscription with consumers cannot change its selector (JMS-17)
                context.removeJmsConsumer(key);
                refuse(
                        sender,
                        new ErrorCondition(
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
                context.removeJmsConsumer(key);
                refuse(sender, AmqpErrors.of(e));
                return;
            }
        }
        OutgoingLink link =
                new OutgoingLink(context, connection, sender, EntityPath.subscription(topic, name), mode, null);
        link.whenClosed(() -> {
            int left = context.removeJmsConsumer(key);
            if (durable || left > 0) {
                return;
            }
            try {
                if (context.namespace() == ns && ns.subscriptionExists(topic, name)) {
                    ns.deleteSubscription(topic, name);
                }
            } catch (RuntimeException e) {
                LOG.fine(() -> "sbemu AMQP endpoint: could not delete subscription " + name + ": " + e);
            }
        });
        open(sender, link);
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
        List<dev.sbemu.core.filter.RuleFilter> wanted = (rules.isEmpty()
                        ? List.of(RuleDescription.defaultRule())
                        : rules)
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
    private void unsubscribe(Sender sender) {
        Namespace ns = context.namespace();
        if (ns.tier() != Tier.PREMIUM) {
            refuse(sender, premiumOnly());
            return;
        }
        Symbol[] desired = sender.getRemoteDesiredCapabilities();
        boolean global = desired != null && java.util.Arrays.asList(desired).contains(GLOBAL)
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
            refuse(
                    sender,
                    new ErrorCondition(
                            AmqpErrors.NOT_FOUND, "The messaging entity '" + name + "' could not be found."));
            return;
        }
        String key = name;
        if (context.jmsConsumers(key) > 0) {
            refuse(
                    sender,
                    new ErrorCondition(
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
        open(sender, new Unsubscribe(sender, () -> {
            try {
                if (context.namespace() == ns
                        && ns.subscriptionExists(subscriptionTopic, name)
                        && context.jmsConsumers(key) == 0) {
                    ns.deleteSubscription(subscriptionTopic, name);
                }
            } catch (RuntimeException e) {
                LOG.fine(() -> "sbemu AMQP endpoint: could not unsubscribe " + name + ": " + e);
            }
        }));
    }

    /** The link of a JMS unsubscribe: it deletes the subscription when the client closes it. */
    private record Unsubscribe(Link link, Runnable delete) implements AmqpConnection.LinkBound {
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
    private static ErrorCondition premiumOnly() {
        return new ErrorCondition(
                AmqpErrors.NOT_ALLOWED,
                "Full JMS 2.0 parity over AMQP is a feature supported " + "only by a Premium Messaging namespace.");
    }

    /**
     * The session id a {@code com.microsoft:session-filter} asks for, null for the next available session: the Java,
     * JavaScript and Python SDKs send the id (or null) itself, the Go SDK wraps it in a described value (descriptor
     * {@code 0x137000000C}).
     */
    private static String sessionIdOf(Object value) {
        Object id = value instanceof DescribedType described ? described.getDescribed() : value;
        return id == null ? null : id.toString();
    }

    /**
     * Locks the session, then answers the attach. The next available session is waited for without a thread: when
     * none is free, the accept registers {@link Namespace#whenSessionAvailable} and tries again when woken, until the
     * client's timeout (a timer of the connection), then refuses with {@code com.microsoft:timeout} (AMQP-6). With a
     * delay scripted (AMQP-18) the accept, which a delay may hold, runs on a worker as any such call.
     */
    private void acceptSession(Sender sender, EntityPath entity, ReceiveMode mode, String sessionId) {
        PendingAttach pending = new PendingAttach(sender);
        sender.setContext(pending);
        connection.track(pending);
        Duration wait = acceptWait(
                sender.getRemoteProperties() == null
                        ? null
                        : sender.getRemoteProperties().get(TIMEOUT));
        if (context.namespace().faults().delaysScripted()) {
            try {
                context.work(() -> acceptOnWorker(pending, sender, entity, mode, sessionId, wait));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                connection.untrack(pending);
                sender.setContext(null);
                refuse(sender, AmqpErrors.of(e));
            }
            return;
        }
        pending.timer = connection.after(wait, () -> {
            pending.timer = null;
            if (pending.end()) {
                refused(
                        pending,
                        sender,
                        AmqpErrors.of(new dev.sbemu.core.BrokerException.ServiceTimeout(
                                "No session available to accept on '" + entity + "' within " + wait + ".")));
            }
        });
        acceptOnLoop(pending, sender, entity, mode, sessionId);
    }

    /** Loop thread: one try of a session accept without waiting; registers for a wake-up when none was free. */
    private void acceptOnLoop(
            PendingAttach pending, Sender sender, EntityPath entity, ReceiveMode mode, String sessionId) {
        if (pending.ended) {
            return;
        }
        Namespace ns = context.namespace();
        SessionLock lock;
        try {
            lock = ns.acceptSessionIfAvailable(entity, sessionId);
            if (lock == null) {
                pending.wait = ns.whenSessionAvailable(
                        entity,
                        () -> connection.loop().execute(() -> {
                            pending.wait = null;
                            acceptOnLoop(pending, sender, entity, mode, sessionId);
                        }));
                return;
            }
        } catch (RuntimeException e) {
            if (pending.end()) {
                refused(pending, sender, AmqpErrors.of(e));
            }
            return;
        }
        if (!pending.end()) {
            ns.releaseSession(lock); // the link went meanwhile: the session is free again
            return;
        }
        context.holdSession(lock);
        attachSession(pending, sender, entity, mode, lock);
    }

    /** Loop thread: the accept failed or timed out: the attach is refused with {@code error}. */
    private void refused(PendingAttach pending, Sender sender, ErrorCondition error) {
        connection.untrack(pending);
        if (!pending.closed) {
            sender.setContext(null);
            refuse(sender, error);
        }
    }

    /**
     * How long a session accept waits: the client's {@code com.microsoft:timeout} in milliseconds, capped at the
     * endpoint's maximum (a client cannot hold a worker thread for ever); 1 minute without one (AMQP-6, AMQP-19).
     */
    Duration acceptWait(Object timeout) {
        Duration max = context.options().maxOperationTimeout();
        if (!(timeout instanceof Number n) || n.longValue() < 0) {
            return DEFAULT_ACCEPT_WAIT.compareTo(max) < 0 ? DEFAULT_ACCEPT_WAIT : max;
        }
        return n.longValue() >= max.toMillis() ? max : Duration.ofMillis(n.longValue());
    }

    private void acceptOnWorker(
            PendingAttach pending,
            Sender sender,
            EntityPath entity,
            ReceiveMode mode,
            String sessionId,
            Duration wait) {
        SessionLock lock;
        try {
            lock = context.namespace().acceptSession(entity, sessionId, wait);
        } catch (RuntimeException e) {
            ErrorCondition error = AmqpErrors.of(e);
            connection.loop().execute(() -> {
                connection.untrack(pending);
                if (!pending.closed) {
                    sender.setContext(null);
                    refuse(sender, error);
                }
            });
            return;
        }
        context.holdSession(lock);
        connection.loop().execute(() -> attachSession(pending, sender, entity, mode, lock));
    }

    /** Loop thread: the session is locked: the attach is answered with it (AMQP-6). */
    private void attachSession(
            PendingAttach pending, Sender sender, EntityPath entity, ReceiveMode mode, SessionLock lock) {
        {
            connection.untrack(pending);
            if (pending.closed || sender.getLocalState() != EndpointState.UNINITIALIZED) {
                context.dropSession(lock);
                context.namespace().releaseSession(lock);
                return;
            }
            Source local = (Source) sender.getRemoteSource();
            Map<Symbol, Object> echoed = new HashMap<>(local.getFilter());
            // in the form it came: the Go SDK (go-amqp) sends and reads it as a described value (AMQP-6)
            echoed.put(
                    SESSION_FILTER,
                    local.getFilter().get(SESSION_FILTER) instanceof DescribedType asked
                            ? new UnknownDescribedType(asked.getDescriptor(), lock.sessionId())
                            : lock.sessionId());
            local.setFilter(echoed);
            Map<Symbol, Object> properties = new HashMap<>();
            properties.put(LOCKED_UNTIL_UTC, ticks(lock.lockedUntil()));
            sender.setProperties(properties);
            open(sender, new OutgoingLink(context, connection, sender, entity, mode, lock));
        }
    }

    /**
     * A session receiver's attach, not answered while its session is being locked. Loop thread (but {@code closed},
     * which a worker's accept reads on the loop too).
     */
    private static final class PendingAttach implements AmqpConnection.LinkBound {
        private final Link link;
        private boolean closed;
        /** The accept is over: answered, refused, timed out or given up. */
        private boolean ended;
        /** The registered wait for a session, while one is registered. */
        private Namespace.ReceiveWait wait;
        /** The accept's timeout, while it runs. */
        private AmqpConnection.Timer timer;

        PendingAttach(Link link) {
            this.link = link;
        }

        @Override
        public Link link() {
            return link;
        }

        /** Ends the accept: true for the first caller, who answers the attach; the wait and the timer are dropped. */
        boolean end() {
            if (ended) {
                return false;
            }
            ended = true;
            if (timer != null) {
                timer.cancel();
                timer = null;
            }
            if (wait != null) {
                Namespace.ReceiveWait registered = wait;
                wait = null;
                try {
                    registered.cancel(); // passes the wake-up on if it came meanwhile
                } catch (RuntimeException e) {
                    LOG.fine(() -> "sbemu AMQP endpoint: cancelling a session wait failed: " + e);
                }
            }
            return !closed;
        }

        @Override
        public void onClosed() {
            closed = true;
            end(); // the client detached, or the connection ended: the accept is given up
        }
    }

    private static long ticks(Instant instant) {
        return EPOCH_TICKS + instant.getEpochSecond() * 10_000_000L + instant.getNano() / 100;
    }

    private boolean authorized(Link link) {
        if (connection.isAuthorized()) {
            return true;
        }
        refuse(
                link,
                new ErrorCondition(
                        AmqpErrors.UNAUTHORIZED,
                        "Unauthorized access: put a valid token on $cbs before attaching links."));
        return false;
    }

    private boolean exists(EntityPath entity, Link link) {
        Namespace ns = context.namespace();
        boolean exists = entity.isSubscription()
                ? ns.subscriptionExists(entity.topicOrQueue(), entity.subscription())
                : ns.queueExists(entity.topicOrQueue()) || ns.topicExists(entity.topicOrQueue());
        if (!exists) {
            refuse(link, AmqpErrors.entityNotFound(entity.toString()));
        }
        return exists;
    }

    private int maxMessageSize(String entity) {
        Namespace ns = context.namespace();
        Long kilobytes = ns.queueExists(entity)
                ? ns.getQueue(entity).maxMessageSizeInKilobytes()
                : ns.getTopic(entity).maxMessageSizeInKilobytes();
        return ns.tier() == Tier.PREMIUM && kilobytes != null
                ? (int) (kilobytes * 1024)
                : ns.tier().defaultMaxMessageSizeBytes();
    }

    private void open(Link link, LinkHandler handler) {
        // an unsubscribe's source was set to the subscription found (JMS-18)
        link.setSource(link.getSource() != null ? link.getSource() : link.getRemoteSource());
        // a dynamic node's target was set with its address (JMS-13)
        link.setTarget(link.getTarget() != null ? link.getTarget() : link.getRemoteTarget());
        link.setSenderSettleMode(link.getRemoteSenderSettleMode());
        link.setReceiverSettleMode(link.getRemoteReceiverSettleMode());
        link.setContext(handler);
        connection.track(handler);
        link.open();
        if (handler instanceof ReceivingLink receiving) {
            receiving.grantCredit();
        }
    }

    void refuse(Link link, ErrorCondition error) {
        if (link instanceof Sender) {
            link.setSource(null);
            link.setTarget(link.getRemoteTarget());
        } else {
            link.setSource(link.getRemoteSource());
            link.setTarget(null);
        }
        link.open();
        link.setCondition(error);
        link.close();
    }

    /** Sends a management or CBS answer to the reply link at {@code replyTo}. */
    void reply(String replyTo, Message answer) {
        connection.loop().checkThread();
        ReplyLink link = replyTo == null ? null : replies.get(replyTo);
        if (link == null) {
            LOG.fine(() -> "sbemu AMQP endpoint: no reply link for '" + replyTo + "'; answer dropped");
            return;
        }
        link.reply(answer);
    }
}
