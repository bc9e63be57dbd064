package dev.sbemu.core.internal;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.Message;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** The service's limits on names, entity properties and message fields (LIM-2, LOCK-1, DLQ-2, ADI-2, DUP-1). */
final class Validation {
    static final int MAX_AUTHORIZATION_RULES = 12;
    static final Duration MIN_LOCK = Duration.ofSeconds(5);
    static final Duration MAX_LOCK = Duration.ofMinutes(5);
    static final Duration MIN_AUTO_DELETE = Duration.ofMinutes(5);
    static final Duration MIN_TTL = Duration.ofSeconds(1);
    static final Duration MIN_DUP_WINDOW = Duration.ofSeconds(20);
    static final Duration MAX_DUP_WINDOW = Duration.ofDays(7);
    static final Duration BASIC_MAX_TTL = Duration.ofDays(14);
    static final long MAX_SIZE_MB = 81920;

    private static final Pattern PATH_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?");
    private static final Pattern SHORT_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?");

    private Validation() {}

    static void queueOrTopicName(String kind, String name) {
        checkName(
                kind + " name",
                name,
                260,
                PATH_NAME,
                "letters, digits, '.', '-', '_' and '/', starting and ending with a letter or digit");
        for (String segment : name.split("/")) {
            if (segment.equalsIgnoreCase("subscriptions")) {
                throw new InvalidOptionException(
                        kind + " name",
                        name,
                        "no path segment 'Subscriptions': the service "
                                + "addresses a subscription as <topic>/Subscriptions/<name>");
            }
        }
    }

    /**
     * A subscription the service creates for a JMS consumer: {@code <name>$<client id>$D} (durable) or
     * {@code <name>$<client id>$ND} (non-durable), the client id possibly empty ("JMS 2.0 entities", "Representation
     * of client scoped subscriptions"). The service makes these names itself, beyond the rules it sets for names it is
     * given; sbemu accepts them as they come.
     */
    private static final Pattern JMS_SCOPED = Pattern.compile("[^$/\\\\?#]+\\$[^$/\\\\?#]*\\$N?D");

    static void subscriptionName(String name) {
        if (name != null && JMS_SCOPED.matcher(name).matches()) {
            return;
        }
        checkName(
                "subscription name",
                name,
                50,
                SHORT_NAME,
                "letters, digits, '.', '-' and '_', starting and ending with a letter or digit");
    }

    static void ruleName(String name) {
        if ("$Default".equals(name)) {
            return;
        }
        checkName(
                "rule name",
                name,
                50,
                SHORT_NAME,
                "letters, digits, '.', '-' and '_', starting and ending with a letter or digit");
    }

    private static void checkName(String what, String name, int maxLength, Pattern pattern, String allowed) {
        if (name == null || name.isEmpty()) {
            throw new InvalidOptionException(what, name, "a name is required");
        }
        if (name.length() > maxLength) {
            throw new InvalidOptionException(what, name, "at most " + maxLength + " characters");
        }
        if (!pattern.matcher(name).matches() || name.contains("//")) {
            throw new InvalidOptionException(what, name, allowed);
        }
    }

    static QueueOptions queue(QueueOptions o, Tier tier) {
        lockDuration(o.lockDuration());
        maxDeliveryCount(o.maxDeliveryCount());
        ttl(o.defaultMessageTimeToLive());
        autoDelete(o.autoDeleteOnIdle());
        duplicateWindow(o.duplicateDetectionHistoryTimeWindow());
        maxSize(o.maxSizeInMegabytes());
        maxMessageSize(o.maxMessageSizeInKilobytes(), tier);
        authorizationRules(o.authorizationRules());
        if (o.requiresSession() && o.forwardTo() != null) {
            throw new InvalidOptionException(
                    "forwardTo", o.forwardTo(), "a session-enabled entity cannot forward messages");
        }
        return o.toBuilder()
                .defaultMessageTimeToLive(capTtl(o.defaultMessageTimeToLive(), tier))
                .build();
    }

    static TopicOptions topic(TopicOptions o, Tier tier) {
        ttl(o.defaultMessageTimeToLive());
        autoDelete(o.autoDeleteOnIdle());
        duplicateWindow(o.duplicateDetectionHistoryTimeWindow());
        maxSize(o.maxSizeInMegabytes());
        maxMessageSize(o.maxMessageSizeInKilobytes(), tier);
        authorizationRules(o.authorizationRules());
        return o.toBuilder()
                .defaultMessageTimeToLive(capTtl(o.defaultMessageTimeToLive(), tier))
                .build();
    }

    /** LIM-4: at most 12 shared access rules per entity, each name once. */
    private static void authorizationRules(List<AuthorizationRule> rules) {
        if (rules.size() > MAX_AUTHORIZATION_RULES) {
            throw new InvalidOptionException(
                    "authorizationRules",
                    rules.size() + " rules",
                    "an entity has at most " + MAX_AUTHORIZATION_RULES + " authorization rules");
        }
        Set<String> names = new HashSet<>();
        for (AuthorizationRule rule : rules) {
            if (!names.add(rule.keyName().toLowerCase(Locale.ROOT))) {
                throw new InvalidOptionException(
                        "authorizationRules", rule.keyName(), "each authorization rule needs its own key name");
            }
        }
    }

    static SubscriptionOptions subscription(SubscriptionOptions o, Tier tier) {
        lockDuration(o.lockDuration());
        maxDeliveryCount(o.maxDeliveryCount());
        ttl(o.defaultMessageTimeToLive());
        autoDelete(o.autoDeleteOnIdle());
        if (o.requiresSession() && o.forwardTo() != null) {
            throw new InvalidOptionException(
                    "forwardTo", o.forwardTo(), "a session-enabled entity cannot forward messages");
        }
        return o.toBuilder()
                .defaultMessageTimeToLive(capTtl(o.defaultMessageTimeToLive(), tier))
                .build();
    }

    /** TTL-7: a Basic namespace caps the default TTL at 14 days. */
    private static Duration capTtl(Duration ttl, Tier tier) {
        return tier == Tier.BASIC && ttl.compareTo(BASIC_MAX_TTL) > 0 ? BASIC_MAX_TTL : ttl;
    }

    /** A receive or peek asks for at least one message. */
    static void maxMessages(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxMessages must be at least 1, was " + max);
        }
    }

    static void lockDuration(Duration d) {
        if (d.compareTo(MIN_LOCK) < 0 || d.compareTo(MAX_LOCK) > 0) {
            throw new InvalidOptionException("lockDuration", d, "must be between PT5S and PT5M");
        }
    }

    static void maxDeliveryCount(int n) {
        if (n < 1) {
            throw new InvalidOptionException("maxDeliveryCount", n, "must be at least 1");
        }
    }

    static void ttl(Duration d) {
        if (d.compareTo(MIN_TTL) < 0) {
            throw new InvalidOptionException("defaultMessageTimeToLive", d, "must be at least PT1S");
        }
    }

    static void autoDelete(Duration d) {
        if (d.compareTo(MIN_AUTO_DELETE) < 0) {
            throw new InvalidOptionException("autoDeleteOnIdle", d, "must be at least PT5M");
        }
    }

    static void duplicateWindow(Duration d) {
        if (d.compareTo(MIN_DUP_WINDOW) < 0 || d.compareTo(MAX_DUP_WINDOW) > 0) {
            throw new InvalidOptionException("duplicateDetectionHistoryTimeWindow", d, "must be between PT20S and P7D");
        }
    }

    static void maxSize(long mb) {
        if (mb < 1 || mb > MAX_SIZE_MB) {
            throw new InvalidOptionException("maxSizeInMegabytes", mb, "must be between 1 and " + MAX_SIZE_MB);
        }
    }

    static void maxMessageSize(Long kb, Tier tier) {
        if (kb == null) {
            return;
        }
        if (tier != Tier.PREMIUM) {
            throw new InvalidOptionException("maxMessageSizeInKilobytes", kb, "can be set on Premium only");
        }
        if (kb < 1024 || kb > 102400) {
            throw new InvalidOptionException("maxMessageSizeInKilobytes", kb, "must be between 1024 and 102400");
        }
    }

    /** LIM-2: message id, session id and partition key at most 128 characters; TTL positive. */
    static void message(Message m) {
        m.checkHeaderLimits();
        scheduledEnqueueTime(m.scheduledEnqueueTime());
        fieldLength("messageId", m.messageId());
        fieldLength("sessionId", m.sessionId());
        fieldLength("partitionKey", m.partitionKey());
        if (m.partitionKey() != null
                && m.sessionId() != null
                && !m.partitionKey().equals(m.sessionId())) {
            throw new InvalidOptionException(
                    "partitionKey",
                    m.partitionKey(),
                    "must equal the sessionId ('" + m.sessionId() + "') when both are set");
        }
    }

    /** LIM-2: a session id no message can carry cannot name a session to accept either. */
    static void sessionId(String sessionId) {
        fieldLength("sessionId", sessionId);
    }

    /** CLK-4: a schedule time the clock can reach. */
    static void scheduledEnqueueTime(Instant at) {
        if (at != null && at.isAfter(VirtualClock.LATEST)) {
            throw new InvalidOptionException(
                    "scheduledEnqueueTime",
                    at,
                    "must be at most " + VirtualClock.LATEST + ", the latest instant the service represents");
        }
    }

    private static void fieldLength(String field, String value) {
        if (value != null && value.length() > 128) {
            throw new InvalidOptionException(field, value.substring(0, 16) + "...", "at most 128 characters");
        }
    }
}
