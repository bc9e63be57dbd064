package dev.sbemu.junit.internal;

import dev.sbemu.core.Durations;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.config.InvalidTopologyException;
import dev.sbemu.core.config.Origin;
import dev.sbemu.core.config.Topology.FilterSpec;
import dev.sbemu.core.config.Topology.QueueSpec;
import dev.sbemu.core.config.Topology.RuleSpec;
import dev.sbemu.core.config.Topology.SubscriptionSpec;
import dev.sbemu.core.config.Topology.TopicSpec;
import dev.sbemu.core.config.Topology;
import dev.sbemu.junit.CorrelationFilter;
import dev.sbemu.junit.Property;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.Rule;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Reads the entities of a {@link ServiceBusEmulator} annotation. */
public final class AnnotationTopology {
    private final String declaredOn;

    private AnnotationTopology(String declaredOn) {
        this.declaredOn = declaredOn;
    }

    /**
     * @param annotation the annotation
     * @param declaredOn where it sits, for error messages, e.g. {@code @ServiceBusEmulator on com.example.OrderTest}
     * @throws InvalidTopologyException for a malformed duration or rule
     */
    public static Topology of(ServiceBusEmulator annotation, String declaredOn) {
        AnnotationTopology reader = new AnnotationTopology(declaredOn);
        return new Topology(Arrays.stream(annotation.queues()).map(reader::queue).toList(),
                Arrays.stream(annotation.topics()).map(reader::topic).toList());
    }

    private QueueSpec queue(Queue q) {
        AnnotationOrigin origin = origin("@Queue", q.name());
        QueueOptions.Builder b = QueueOptions.builder()
                .maxDeliveryCount(q.maxDeliveryCount())
                .deadLetteringOnMessageExpiration(q.deadLetteringOnMessageExpiration())
                .requiresSession(q.requiresSession())
                .requiresDuplicateDetection(q.requiresDuplicateDetection())
                .forwardTo(emptyToNull(q.forwardTo()))
                .forwardDeadLetteredMessagesTo(emptyToNull(q.forwardDeadLetteredMessagesTo()))
                .maxSizeInMegabytes(q.maxSizeInMegabytes())
                .status(q.status())
                .enablePartitioning(q.enablePartitioning())
                .enableBatchedOperations(q.enableBatchedOperations())
                .maxMessageSizeInKilobytes(q.maxMessageSizeInKilobytes() == 0 ? null : q.maxMessageSizeInKilobytes())
                .userMetadata(emptyToNull(q.userMetadata()));
        duration(origin, "lockDuration", q.lockDuration(), b::lockDuration);
        duration(origin, "defaultMessageTimeToLive", q.defaultMessageTimeToLive(), b::defaultMessageTimeToLive);
        duration(origin, "autoDeleteOnIdle", q.autoDeleteOnIdle(), b::autoDeleteOnIdle);
        duration(origin, "duplicateDetectionHistoryTimeWindow", q.duplicateDetectionHistoryTimeWindow(),
                b::duplicateDetectionHistoryTimeWindow);
        return new QueueSpec(q.name(), b.build(), origin);
    }

    private TopicSpec topic(Topic t) {
        AnnotationOrigin origin = origin("@Topic", t.name());
        TopicOptions.Builder b = TopicOptions.builder()
                .requiresDuplicateDetection(t.requiresDuplicateDetection())
                .maxSizeInMegabytes(t.maxSizeInMegabytes())
                .status(t.status())
                .enablePartitioning(t.enablePartitioning())
                .enableBatchedOperations(t.enableBatchedOperations())
                .supportOrdering(t.supportOrdering())
                .maxMessageSizeInKilobytes(t.maxMessageSizeInKilobytes() == 0 ? null : t.maxMessageSizeInKilobytes())
                .userMetadata(emptyToNull(t.userMetadata()));
        duration(origin, "defaultMessageTimeToLive", t.defaultMessageTimeToLive(), b::defaultMessageTimeToLive);
        duration(origin, "autoDeleteOnIdle", t.autoDeleteOnIdle(), b::autoDeleteOnIdle);
        duration(origin, "duplicateDetectionHistoryTimeWindow", t.duplicateDetectionHistoryTimeWindow(),
                b::duplicateDetectionHistoryTimeWindow);
        List<SubscriptionSpec> subscriptions = new ArrayList<>();
        for (Subscription s : t.subscriptions()) {
            subscriptions.add(subscription(t.name(), s));
        }
        return new TopicSpec(t.name(), b.build(), subscriptions, origin);
    }

    private SubscriptionSpec subscription(String topic, Subscription s) {
        String element = "@Subscription(name = \"" + s.name() + "\") of @Topic(name = \"" + topic + "\")";
        AnnotationOrigin origin = new AnnotationOrigin(element, declaredOn);
        SubscriptionOptions.Builder b = SubscriptionOptions.builder()
                .maxDeliveryCount(s.maxDeliveryCount())
                .deadLetteringOnMessageExpiration(s.deadLetteringOnMessageExpiration())
                .deadLetteringOnFilterEvaluationExceptions(s.deadLetteringOnFilterEvaluationExceptions())
                .requiresSession(s.requiresSession())
                .forwardTo(emptyToNull(s.forwardTo()))
                .forwardDeadLetteredMessagesTo(emptyToNull(s.forwardDeadLetteredMessagesTo()))
                .status(s.status())
                .enableBatchedOperations(s.enableBatchedOperations())
                .userMetadata(emptyToNull(s.userMetadata()));
        duration(origin, "lockDuration", s.lockDuration(), b::lockDuration);
        duration(origin, "defaultMessageTimeToLive", s.defaultMessageTimeToLive(), b::defaultMessageTimeToLive);
        duration(origin, "autoDeleteOnIdle", s.autoDeleteOnIdle(), b::autoDeleteOnIdle);
        List<RuleSpec> rules = new ArrayList<>();
        for (Rule r : s.rules()) {
            rules.add(rule(r, element));
        }
        return new SubscriptionSpec(s.name(), b.build(), rules, origin);
    }

    private RuleSpec rule(Rule r, String subscriptionElement) {
        Origin origin = new AnnotationOrigin("@Rule(name = \"" + r.name() + "\") of " + subscriptionElement, declaredOn);
        FilterSpec correlation = correlation(r.correlation(), origin);
        boolean hasSql = !r.sql().isBlank();
        if (hasSql && correlation != null) {
            throw new InvalidTopologyException(origin.describe(null)
                    + " sets both sql and correlation: a rule has one filter, set one of them");
        }
        FilterSpec filter = hasSql ? new FilterSpec.Sql(r.sql()) : correlation != null ? correlation
                : new FilterSpec.True();
        return new RuleSpec(r.name(), filter, emptyToNull(r.action()), origin);
    }

    private static FilterSpec correlation(CorrelationFilter c, Origin origin) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Property p : c.properties()) {
            properties.put(p.name(), value(p, origin));
        }
        FilterSpec.Correlation filter = new FilterSpec.Correlation(emptyToNull(c.correlationId()),
                emptyToNull(c.messageId()), emptyToNull(c.to()), emptyToNull(c.replyTo()), emptyToNull(c.subject()),
                emptyToNull(c.sessionId()), emptyToNull(c.replyToSessionId()), emptyToNull(c.contentType()),
                properties);
        boolean empty = properties.isEmpty() && filter.equals(new FilterSpec.Correlation(null, null, null, null,
                null, null, null, null, Map.of()));
        return empty ? null : filter;
    }

    private static Object value(Property p, Origin origin) {
        try {
            return switch (p.type()) {
                case STRING -> p.value();
                case LONG -> Long.parseLong(p.value().trim());
                case DOUBLE -> Double.parseDouble(p.value().trim());
                case BOOLEAN -> parseBoolean(p.value());
            };
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(origin.describe("correlation") + ": @Property(name = \"" + p.name()
                    + "\", value = \"" + p.value() + "\", type = " + p.type() + "): the value is not a "
                    + p.type().name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    private static Boolean parseBoolean(String text) {
        if (text.trim().equalsIgnoreCase("true") || text.trim().equalsIgnoreCase("false")) {
            return Boolean.valueOf(text.trim());
        }
        throw new IllegalArgumentException(text);
    }

    private AnnotationOrigin origin(String annotation, String name) {
        return new AnnotationOrigin(annotation + "(name = \"" + name + "\")", declaredOn);
    }

    private static void duration(AnnotationOrigin origin, String attribute, String text, Consumer<Duration> setter) {
        if (text.isEmpty()) {
            return;
        }
        Duration d;
        try {
            d = Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new InvalidTopologyException(origin.element() + "." + attribute + " = \"" + text + "\" in "
                    + origin.declaredOn() + " is not an ISO-8601 duration such as \"PT30S\", \"PT10M\", \"PT1H\" or "
                    + "\"P1D\" (\"\" for the service default)", e);
        }
        setter.accept(Durations.isUnlimited(d) ? Durations.MAX : d);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
