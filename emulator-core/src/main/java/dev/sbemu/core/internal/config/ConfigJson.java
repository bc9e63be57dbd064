package dev.sbemu.core.internal.config;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.Durations;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.config.EmulatorConfigException;
import dev.sbemu.core.config.Topology;
import dev.sbemu.core.config.Topology.FilterSpec;
import dev.sbemu.core.config.Topology.QueueSpec;
import dev.sbemu.core.config.Topology.RuleSpec;
import dev.sbemu.core.config.Topology.SubscriptionSpec;
import dev.sbemu.core.config.Topology.TopicSpec;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads the topology file of Microsoft's Service Bus emulator (SPEC CFG-1..3) with {@link Json}, accepting
 * {@code //} comments, trailing commas, a byte-order mark, CRLF and tabs; absent keys take the real service's
 * defaults; {@code Logging} (the Docker emulator's log settings, in Microsoft's own sample) is ignored silently,
 * unknown keys with one warning each.
 */
public final class ConfigJson {
    private static final String[] QUEUE_KEYS = {
        "DeadLetteringOnMessageExpiration",
        "DefaultMessageTimeToLive",
        "DuplicateDetectionHistoryTimeWindow",
        "ForwardDeadLetteredMessagesTo",
        "ForwardTo",
        "LockDuration",
        "MaxDeliveryCount",
        "RequiresDuplicateDetection",
        "RequiresSession"
    };
    private static final String[] TOPIC_KEYS = {
        "DefaultMessageTimeToLive", "DuplicateDetectionHistoryTimeWindow", "RequiresDuplicateDetection"
    };
    private static final String[] SUBSCRIPTION_KEYS = {
        "DeadLetteringOnMessageExpiration",
        "DefaultMessageTimeToLive",
        "ForwardDeadLetteredMessagesTo",
        "ForwardTo",
        "LockDuration",
        "MaxDeliveryCount",
        "RequiresSession"
    };
    private static final String[] CORRELATION_KEYS = {
        "ContentType",
        "CorrelationId",
        "Label",
        "MessageId",
        "ReplyTo",
        "ReplyToSessionId",
        "SessionId",
        "To",
        "Properties"
    };

    private static final String AUTHORIZATION_RULES = "AuthorizationRules";

    private ConfigJson() {}

    /**
     * Parses a Config.json.
     *
     * @param content the file's bytes (UTF-8, with or without a byte-order mark)
     * @param file the file's name as shown in errors and warnings
     * @param warnings receives one line per ignored key
     * @throws EmulatorConfigException naming the file, JSON path, value and what is allowed
     */
    public static Topology read(byte[] content, String file, Consumer<String> warnings) {
        List<QueueSpec> queues = new ArrayList<>();
        List<TopicSpec> topics = new ArrayList<>();
        List<AuthorizationRule> policies = new ArrayList<>();
        for (Topology one : readNamespaces(content, file, warnings).values()) {
            queues.addAll(one.queues());
            topics.addAll(one.topics());
            policies.addAll(one.authorizationRules());
        }
        return new Topology(queues, topics, policies);
    }

    /**
     * Parses a Config.json into one topology per entry of {@code UserConfig.Namespaces}, by its {@code Name} (an
     * entry without one is {@code namespace-<index>}), in the file's order.
     *
     * @throws EmulatorConfigException as {@link #read}, and for two entries of one name
     */
    public static Map<String, Topology> readNamespaces(byte[] content, String file, Consumer<String> warnings) {
        return readNamespaces(content, file, warnings, new LinkedHashMap<>());
    }

    /**
     * As {@link #readNamespaces(byte[], String, Consumer)}, putting into {@code maxQueuesAndTopics} each namespace's
     * own most queues and topics: sbemu's extension {@code "Limits": { "MaxQueuesAndTopics": n }} (spec NS-9).
     */
    public static Map<String, Topology> readNamespaces(
            byte[] content, String file, Consumer<String> warnings, Map<String, Integer> maxQueuesAndTopics) {
        Object root = parse(content, file);
        JsonCursor top = new JsonCursor(root, "", file, warnings).requireObject();
        top.warnUnknownKeys("UserConfig");
        JsonCursor userConfig = top.object("UserConfig");
        if (userConfig == null) {
            throw new EmulatorConfigException(file + ": UserConfig is missing: a Config.json of the Service Bus "
                    + "emulator is { \"UserConfig\": { \"Namespaces\": [ { \"Name\": ..., \"Queues\": [...], "
                    + "\"Topics\": [...] } ] } }");
        }
        userConfig.warnUnknownKeys("Namespaces", "Logging");
        if (userConfig.field("Namespaces") == null) {
            throw new EmulatorConfigException(file + ": UserConfig.Namespaces is missing: expected "
                    + "\"Namespaces\": [ { \"Name\": \"sbemulatorns\", \"Queues\": [...], \"Topics\": [...] } ]");
        }
        Map<String, Topology> namespaces = new LinkedHashMap<>();
        int index = 0;
        for (JsonCursor namespace : userConfig.array("Namespaces")) {
            namespace.requireObject().warnUnknownKeys("Name", "Queues", "Topics", AUTHORIZATION_RULES, "Limits");
            String name = namespace.string("Name");
            if (name == null || name.isBlank()) {
                name = "namespace-" + index;
            }
            index++;
            List<QueueSpec> queues = new ArrayList<>();
            List<TopicSpec> topics = new ArrayList<>();
            List<AuthorizationRule> policies = new ArrayList<>(rules(namespace));
            for (JsonCursor queue : namespace.array("Queues")) {
                queues.add(queue(queue.requireObject()));
            }
            for (JsonCursor topic : namespace.array("Topics")) {
                topics.add(topic(topic.requireObject()));
            }
            if (namespaces.putIfAbsent(name, new Topology(queues, topics, policies)) != null) {
                throw new EmulatorConfigException(
                        file + ": UserConfig.Namespaces has two namespaces named '" + name + "'");
            }
            JsonCursor limits = namespace.object("Limits");
            if (limits != null) {
                limits.warnUnknownKeys("MaxQueuesAndTopics");
                Integer max = limits.integer("MaxQueuesAndTopics");
                if (max != null) {
                    if (max < 1) {
                        throw limits.field("MaxQueuesAndTopics").invalid("expected a positive whole number");
                    }
                    maxQueuesAndTopics.put(name, max);
                }
            }
        }
        return namespaces;
    }

    private static Object parse(byte[] content, String file) {
        try {
            Object root = Json.parse(content);
            if (root == null) {
                throw new EmulatorConfigException(file + ": the file is empty: expected { \"UserConfig\": ... }");
            }
            return root;
        } catch (Json.MalformedJsonException e) {
            String in = e.path().isEmpty() ? "" : " (in " + e.path() + ")";
            if (e.isLimit()) {
                throw new EmulatorConfigException(
                        file + ": not a Config.json the emulator can read" + in + ": " + e.getMessage(), e);
            }
            throw new EmulatorConfigException(
                    file + ": malformed JSON at line " + e.line() + ", column " + e.column() + in + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * sbemu's extension to Microsoft's format (spec SEC-9): {@code "AuthorizationRules": [ { "KeyName": ...,
     * "PrimaryKey": ..., "SecondaryKey": ..., "Rights": ["Manage", "Send", "Listen"] } ]} on a namespace, a queue or
     * a topic.
     */
    private static List<AuthorizationRule> rules(JsonCursor owner) {
        List<AuthorizationRule> into = new ArrayList<>();
        if (owner.field(AUTHORIZATION_RULES) == null) {
            return into;
        }
        for (JsonCursor rule : owner.array(AUTHORIZATION_RULES)) {
            rule.requireObject().warnUnknownKeys("KeyName", "PrimaryKey", "SecondaryKey", "Rights");
            String keyName = rule.requiredString("KeyName", "every authorization rule needs a KeyName");
            Set<AccessRight> rights = EnumSet.noneOf(AccessRight.class);
            for (JsonCursor right : rule.array("Rights")) {
                Object value = right.value();
                AccessRight parsed = value instanceof String text ? AccessRight.parse(text) : null;
                if (parsed == null) {
                    throw right.invalid("\"Manage\", \"Send\" or \"Listen\"");
                }
                rights.add(parsed);
            }
            if (rights.isEmpty()) {
                throw rule.invalid("\"Rights\": one or more of \"Manage\", \"Send\", \"Listen\"");
            }
            into.add(new AuthorizationRule(
                    keyName, rule.string("PrimaryKey"), rule.string("SecondaryKey"), rights, null, null));
        }
        return into;
    }

    private static QueueSpec queue(JsonCursor json) {
        json.warnUnknownKeys("Name", "Properties", AUTHORIZATION_RULES);
        String name = json.requiredString("Name", "every queue needs a Name");
        QueueOptions.Builder b = QueueOptions.builder();
        JsonCursor p = json.object("Properties");
        if (p != null) {
            p.warnUnknownKeys(QUEUE_KEYS);
            set(p.bool("DeadLetteringOnMessageExpiration"), b::deadLetteringOnMessageExpiration);
            set(ttl(p), b::defaultMessageTimeToLive);
            set(p.duration("DuplicateDetectionHistoryTimeWindow"), b::duplicateDetectionHistoryTimeWindow);
            b.forwardDeadLetteredMessagesTo(p.string("ForwardDeadLetteredMessagesTo"));
            b.forwardTo(p.string("ForwardTo"));
            set(p.duration("LockDuration"), b::lockDuration);
            set(p.integer("MaxDeliveryCount"), b::maxDeliveryCount);
            set(p.bool("RequiresDuplicateDetection"), b::requiresDuplicateDetection);
            set(p.bool("RequiresSession"), b::requiresSession);
        }
        b.authorizationRules(rules(json));
        return new QueueSpec(name, b.build(), json.origin());
    }

    private static TopicSpec topic(JsonCursor json) {
        json.warnUnknownKeys("Name", "Properties", "Subscriptions", AUTHORIZATION_RULES);
        String name = json.requiredString("Name", "every topic needs a Name");
        TopicOptions.Builder b = TopicOptions.builder();
        JsonCursor p = json.object("Properties");
        if (p != null) {
            p.warnUnknownKeys(TOPIC_KEYS);
            set(ttl(p), b::defaultMessageTimeToLive);
            set(p.duration("DuplicateDetectionHistoryTimeWindow"), b::duplicateDetectionHistoryTimeWindow);
            set(p.bool("RequiresDuplicateDetection"), b::requiresDuplicateDetection);
        }
        b.authorizationRules(rules(json));
        List<SubscriptionSpec> subscriptions = new ArrayList<>();
        for (JsonCursor subscription : json.array("Subscriptions")) {
            subscriptions.add(subscription(subscription.requireObject()));
        }
        return new TopicSpec(name, b.build(), subscriptions, json.origin());
    }

    private static SubscriptionSpec subscription(JsonCursor json) {
        json.warnUnknownKeys("Name", "Properties", "Rules");
        String name = json.requiredString("Name", "every subscription needs a Name");
        SubscriptionOptions.Builder b = SubscriptionOptions.builder();
        JsonCursor p = json.object("Properties");
        if (p != null) {
            p.warnUnknownKeys(SUBSCRIPTION_KEYS);
            set(p.bool("DeadLetteringOnMessageExpiration"), b::deadLetteringOnMessageExpiration);
            set(ttl(p), b::defaultMessageTimeToLive);
            b.forwardDeadLetteredMessagesTo(p.string("ForwardDeadLetteredMessagesTo"));
            b.forwardTo(p.string("ForwardTo"));
            set(p.duration("LockDuration"), b::lockDuration);
            set(p.integer("MaxDeliveryCount"), b::maxDeliveryCount);
            set(p.bool("RequiresSession"), b::requiresSession);
        }
        List<RuleSpec> rules = new ArrayList<>();
        for (JsonCursor rule : json.array("Rules")) {
            rules.add(rule(rule.requireObject()));
        }
        return new SubscriptionSpec(name, b.build(), rules, json.origin());
    }

    private static RuleSpec rule(JsonCursor json) {
        json.warnUnknownKeys("Name", "Properties");
        String name = json.requiredString("Name", "every rule needs a Name");
        JsonCursor p = json.object("Properties");
        if (p == null) {
            return new RuleSpec(name, new FilterSpec.True(), null, json.origin());
        }
        p.warnUnknownKeys("FilterType", "SqlFilter", "CorrelationFilter", "Action");
        FilterSpec filter = switch (filterType(p)) {
            case "sql" -> sqlFilter(p);
            case "correlation" -> correlationFilter(p.object("CorrelationFilter"));
            default -> new FilterSpec.True();
        };
        String action = null;
        JsonCursor actionJson = p.object("Action");
        if (actionJson != null) {
            actionJson.warnUnknownKeys("SqlExpression");
            action = actionJson.string("SqlExpression");
            action = action == null || action.isBlank() ? null : action;
        }
        return new RuleSpec(name, filter, action, json.origin());
    }

    /** {@code sql}, {@code correlation} or {@code true}; FilterType absent: whichever filter object is present. */
    private static String filterType(JsonCursor p) {
        JsonCursor type = p.field("FilterType");
        if (type == null) {
            return p.field("SqlFilter") != null ? "sql" : p.field("CorrelationFilter") != null ? "correlation" : "true";
        }
        String text = type.value() instanceof String s ? s.trim().toLowerCase(Locale.ROOT) : "";
        return switch (text) {
            case "sql", "sqlfilter" -> "sql";
            case "correlation", "correlationfilter" -> "correlation";
            default -> throw type.invalid("FilterType must be \"Sql\" or \"Correlation\"");
        };
    }

    private static FilterSpec sqlFilter(JsonCursor p) {
        JsonCursor sql = p.object("SqlFilter");
        if (sql == null) {
            throw new EmulatorConfigException(p.file() + ": " + p.path() + ".SqlFilter is missing: FilterType "
                    + "\"Sql\" needs \"SqlFilter\": { \"SqlExpression\": \"...\" }");
        }
        sql.warnUnknownKeys("SqlExpression");
        return new FilterSpec.Sql(sql.requiredString(
                "SqlExpression", "a SQL filter needs an expression, " + "such as \"color = 'red'\""));
    }

    private static FilterSpec correlationFilter(JsonCursor c) {
        if (c == null) {
            return new FilterSpec.Correlation(null, null, null, null, null, null, null, null, Map.of());
        }
        c.warnUnknownKeys(CORRELATION_KEYS);
        Map<String, Object> properties = new LinkedHashMap<>();
        JsonCursor props = c.object("Properties");
        if (props != null) {
            for (String key : props.keys()) {
                JsonCursor value = props.field(key);
                properties.put(key, value == null ? null : propertyValue(value));
            }
        }
        return new FilterSpec.Correlation(
                c.string("CorrelationId"),
                c.string("MessageId"),
                c.string("To"),
                c.string("ReplyTo"),
                c.string("Label"),
                c.string("SessionId"),
                c.string("ReplyToSessionId"),
                c.string("ContentType"),
                properties);
    }

    /** A correlation filter property's value: a string, boolean, whole number (as a long) or other number. */
    private static Object propertyValue(JsonCursor at) {
        Object value = at.value();
        if (value instanceof String || value instanceof Boolean) {
            return value;
        }
        if (value instanceof BigDecimal n) {
            try {
                return n.scale() == 0 ? (Object) n.longValueExact() : (Object) n.doubleValue();
            } catch (ArithmeticException beyondLong) {
                return n.doubleValue();
            }
        }
        throw at.invalid("a correlation filter property is a string, number, true or false");
    }

    private static Duration ttl(JsonCursor p) {
        Duration d = p.duration("DefaultMessageTimeToLive");
        return d != null && Durations.isUnlimited(d) ? Durations.MAX : d;
    }

    private static <T> void set(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
