package dev.sbemu.junit.internal;

import dev.sbemu.core.Durations;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.config.InvalidTopologyException;
import dev.sbemu.core.config.Origin;
import dev.sbemu.core.config.Topology;
import dev.sbemu.core.config.Topology.FilterSpec;
import dev.sbemu.core.config.Topology.QueueSpec;
import dev.sbemu.core.config.Topology.RuleSpec;
import dev.sbemu.core.config.Topology.SubscriptionSpec;
import dev.sbemu.core.config.Topology.TopicSpec;
import dev.sbemu.junit.CorrelationFilter;
import dev.sbemu.junit.Property;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.Rule;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import java.lang.reflect.Array;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
        return new Topology(
                Arrays.stream(annotation.queues()).map(reader::queue).toList(),
                Arrays.stream(annotation.topics()).map(reader::topic).toList());
    }

    private QueueSpec queue(Queue q) {
        Attributes a = new Attributes(origin("@Queue", q.name()));
        QueueOptions.Builder b = QueueOptions.builder();
        a.duration("lockDuration", q.lockDuration(), b::lockDuration);
        a.one("maxDeliveryCount", q.maxDeliveryCount(), b::maxDeliveryCount);
        a.duration("defaultMessageTimeToLive", q.defaultMessageTimeToLive(), b::defaultMessageTimeToLive);
        a.one(
                "deadLetteringOnMessageExpiration",
                q.deadLetteringOnMessageExpiration(),
                b::deadLetteringOnMessageExpiration);
        a.duration("autoDeleteOnIdle", q.autoDeleteOnIdle(), b::autoDeleteOnIdle);
        a.one("requiresSession", q.requiresSession(), b::requiresSession);
        a.one("requiresDuplicateDetection", q.requiresDuplicateDetection(), b::requiresDuplicateDetection);
        a.duration(
                "duplicateDetectionHistoryTimeWindow",
                q.duplicateDetectionHistoryTimeWindow(),
                b::duplicateDetectionHistoryTimeWindow);
        a.text("forwardTo", q.forwardTo(), b::forwardTo);
        a.text("forwardDeadLetteredMessagesTo", q.forwardDeadLetteredMessagesTo(), b::forwardDeadLetteredMessagesTo);
        a.one("maxSizeInMegabytes", q.maxSizeInMegabytes(), b::maxSizeInMegabytes);
        a.one("status", q.status(), b::status);
        a.one("enablePartitioning", q.enablePartitioning(), b::enablePartitioning);
        a.one("enableBatchedOperations", q.enableBatchedOperations(), b::enableBatchedOperations);
        a.one("maxMessageSizeInKilobytes", q.maxMessageSizeInKilobytes(), b::maxMessageSizeInKilobytes);
        a.text("userMetadata", q.userMetadata(), b::userMetadata);
        return new QueueSpec(q.name(), b.build(), a.origin());
    }

    private TopicSpec topic(Topic t) {
        Attributes a = new Attributes(origin("@Topic", t.name()));
        TopicOptions.Builder b = TopicOptions.builder();
        a.duration("defaultMessageTimeToLive", t.defaultMessageTimeToLive(), b::defaultMessageTimeToLive);
        a.duration("autoDeleteOnIdle", t.autoDeleteOnIdle(), b::autoDeleteOnIdle);
        a.one("requiresDuplicateDetection", t.requiresDuplicateDetection(), b::requiresDuplicateDetection);
        a.duration(
                "duplicateDetectionHistoryTimeWindow",
                t.duplicateDetectionHistoryTimeWindow(),
                b::duplicateDetectionHistoryTimeWindow);
        a.one("maxSizeInMegabytes", t.maxSizeInMegabytes(), b::maxSizeInMegabytes);
        a.one("status", t.status(), b::status);
        a.one("enablePartitioning", t.enablePartitioning(), b::enablePartitioning);
        a.one("enableBatchedOperations", t.enableBatchedOperations(), b::enableBatchedOperations);
        a.one("supportOrdering", t.supportOrdering(), b::supportOrdering);
        a.one("maxMessageSizeInKilobytes", t.maxMessageSizeInKilobytes(), b::maxMessageSizeInKilobytes);
        a.text("userMetadata", t.userMetadata(), b::userMetadata);
        List<SubscriptionSpec> subscriptions = new ArrayList<>();
        for (Subscription s : t.subscriptions()) {
            subscriptions.add(subscription(t.name(), s));
        }
        return new TopicSpec(t.name(), b.build(), subscriptions, a.origin());
    }

    private SubscriptionSpec subscription(String topic, Subscription s) {
        String element = "@Subscription(name = \"" + s.name() + "\") of @Topic(name = \"" + topic + "\")";
        Attributes a = new Attributes(new AnnotationOrigin(element, declaredOn));
        SubscriptionOptions.Builder b = SubscriptionOptions.builder();
        a.duration("lockDuration", s.lockDuration(), b::lockDuration);
        a.one("maxDeliveryCount", s.maxDeliveryCount(), b::maxDeliveryCount);
        a.duration("defaultMessageTimeToLive", s.defaultMessageTimeToLive(), b::defaultMessageTimeToLive);
        a.one(
                "deadLetteringOnMessageExpiration",
                s.deadLetteringOnMessageExpiration(),
                b::deadLetteringOnMessageExpiration);
        a.one(
                "deadLetteringOnFilterEvaluationExceptions",
                s.deadLetteringOnFilterEvaluationExceptions(),
                b::deadLetteringOnFilterEvaluationExceptions);
        a.duration("autoDeleteOnIdle", s.autoDeleteOnIdle(), b::autoDeleteOnIdle);
        a.one("requiresSession", s.requiresSession(), b::requiresSession);
        a.text("forwardTo", s.forwardTo(), b::forwardTo);
        a.text("forwardDeadLetteredMessagesTo", s.forwardDeadLetteredMessagesTo(), b::forwardDeadLetteredMessagesTo);
        a.one("status", s.status(), b::status);
        a.one("enableBatchedOperations", s.enableBatchedOperations(), b::enableBatchedOperations);
        a.text("userMetadata", s.userMetadata(), b::userMetadata);
        List<RuleSpec> rules = new ArrayList<>();
        for (Rule r : s.rules()) {
            rules.add(rule(r, element));
        }
        return new SubscriptionSpec(s.name(), b.build(), rules, a.origin());
    }

    private RuleSpec rule(Rule r, String subscriptionElement) {
        Origin origin =
                new AnnotationOrigin("@Rule(name = \"" + r.name() + "\") of " + subscriptionElement, declaredOn);
        FilterSpec correlation = correlation(r.correlation(), origin);
        boolean hasSql = !r.sql().isBlank();
        if (hasSql && correlation != null) {
            throw new InvalidTopologyException(
                    origin.describe(null) + " sets both sql and correlation: a rule has one filter, set one of them");
        }
        FilterSpec filter =
                hasSql ? new FilterSpec.Sql(r.sql()) : correlation != null ? correlation : new FilterSpec.True();
        return new RuleSpec(r.name(), filter, emptyToNull(r.action()), origin);
    }

    private static FilterSpec correlation(CorrelationFilter c, Origin origin) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Property p : c.properties()) {
            properties.put(p.name(), value(p, origin));
        }
        FilterSpec.Correlation filter = new FilterSpec.Correlation(
                emptyToNull(c.correlationId()),
                emptyToNull(c.messageId()),
                emptyToNull(c.to()),
                emptyToNull(c.replyTo()),
                emptyToNull(c.subject()),
                emptyToNull(c.sessionId()),
                emptyToNull(c.replyToSessionId()),
                emptyToNull(c.contentType()),
                properties);
        boolean empty = properties.isEmpty()
                && filter.equals(new FilterSpec.Correlation(null, null, null, null, null, null, null, null, Map.of()));
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
                    + p.type().name().toLowerCase(Locale.ROOT));
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

    /**
     * The attributes of one entity annotation, applied to its options builder only when set: {@code ""} for text
     * and durations, {@code {}} for the rest (arrays only so that "not set" differs from every value), so that
     * the defaults live in the options builders alone.
     */
    private record Attributes(AnnotationOrigin origin) {

        void duration(String attribute, String text, Consumer<Duration> setter) {
            if (text.isEmpty()) {
                return;
            }
            Duration d;
            try {
                d = Duration.parse(text.trim());
            } catch (DateTimeParseException e) {
                throw new InvalidTopologyException(
                        origin.element() + "." + attribute + " = \"" + text + "\" in "
                                + origin.declaredOn() + " is not an ISO-8601 duration such as \"PT30S\", \"PT10M\", "
                                + "\"PT1H\" or \"P1D\" (\"\" for the service default)",
                        e);
            }
            setter.accept(Durations.isUnlimited(d) ? Durations.MAX : d);
        }

        void text(String attribute, String text, Consumer<String> setter) {
            if (!text.isEmpty()) {
                setter.accept(text);
            }
        }

        /**
         * Applies the one value of an array attribute ({@code boolean[]}, {@code int[]}, {@code long[]} or an enum
         * array); none leaves the builder's default.
         */
        @SuppressWarnings("unchecked")
        <T> void one(String attribute, Object values, Consumer<T> setter) {
            int count = Array.getLength(values);
            if (count > 1) {
                String all = IntStream.range(0, count)
                        .mapToObj(i -> String.valueOf(Array.get(values, i)))
                        .collect(Collectors.joining(", "));
                throw new InvalidTopologyException(origin.element() + "." + attribute + " = {" + all + "} in "
                        + origin.declaredOn() + " has " + count + " values: give one, or none for the service default");
            }
            if (count == 1) {
                setter.accept((T) Array.get(values, 0));
            }
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
