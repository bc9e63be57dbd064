package dev.sbemu.core.robustness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.filter.TrueFilter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Seeded random inputs around and beyond the service's limits. The oracle for each case is written
 * here from SPEC.md (LIM-1..3, LOCK-1, DLQ-2, ADI-2, DUP-1), not taken from the core: a valid value
 * must be accepted, an invalid one refused with the typed error that names what was wrong.
 */
class BadInputTest {
    private static final long SEED = Long.getLong("sbemu.badinput.seed", 20260101L);
    private static final int CASES = Integer.getInteger("sbemu.badinput.cases", 1000);
    private static final String NAME_CHARS = "abcXYZ019._-/ !$#%?\\é:*";

    // ---- names (LIM-2) ---------------------------------------------------------------------------

    /** SPEC LIM-2: letters, digits, '.', '-', '_' (and '/' for queues and topics), first and last a letter or digit. */
    private static boolean validName(String name, int maxLength, boolean slashAllowed) {
        if (name.isEmpty() || name.length() > maxLength) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            boolean edge = i == 0 || i == name.length() - 1;
            boolean allowed = alnum || (!edge && (c == '.' || c == '-' || c == '_' || (slashAllowed && c == '/')));
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    private static String randomName(SplittableRandom random) {
        int length = switch (random.nextInt(6)) {
            case 0 -> random.nextInt(3);
            case 1 -> 48 + random.nextInt(5);
            case 2 -> 258 + random.nextInt(5);
            default -> 1 + random.nextInt(20);
        };
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            // mostly valid characters, so that long names are often valid apart from their length
            b.append(
                    random.nextInt(8) == 0
                            ? NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length()))
                            : "abcXYZ019".charAt(random.nextInt(9)));
        }
        String name = b.toString();
        // "a//b": whether an empty path segment is valid is not in SPEC; leave it out
        return name.replace("//", "/a/");
    }

    @Test
    @DisplayName("LIM-2 LIM-3 bad input: random queue, topic, subscription and rule names are accepted exactly when "
            + "valid, else refused with InvalidOptionException naming the kind of name")
    void names() {
        SplittableRandom random = new SplittableRandom(SEED);
        Namespace ns = Namespace.create();
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        for (int i = 0; i < CASES; i++) {
            String name = randomName(random);
            String id = "case " + i + " (seed " + SEED + "): '" + name + "'";
            check(id, validName(name, 260, true), "queue name", () -> ns.createQueue(name), () -> ns.deleteQueue(name));
            check(id, validName(name, 260, true), "topic name", () -> ns.createTopic(name), () -> ns.deleteTopic(name));
            check(
                    id,
                    validName(name, 50, false),
                    "subscription name",
                    () -> ns.createSubscription("t", name),
                    () -> ns.deleteSubscription("t", name));
            check(
                    id,
                    validName(name, 50, false),
                    "rule name",
                    () -> ns.createRule("t", "s", name, new TrueFilter(), null),
                    () -> ns.deleteRule("t", "s", name));
        }
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.deleteQueue("never-created"));
        ns.createQueue("exists");
        assertThrows(BrokerException.EntityAlreadyExists.class, () -> ns.createQueue("EXISTS"));
    }

    private static void check(String id, boolean valid, String property, Executable create, Executable cleanUp) {
        if (valid) {
            try {
                create.execute();
                cleanUp.execute();
            } catch (Throwable e) {
                throw new AssertionError(id + " is valid (" + property + ") but was refused: " + e, e);
            }
        } else {
            InvalidOptionException e =
                    assertThrows(InvalidOptionException.class, create, id + " is not a valid " + property);
            assertEquals(property, e.property(), id);
        }
    }

    // ---- durations and counts (LOCK-1, DLQ-2, ADI-2, DUP-1) --------------------------------------------

    /** One property and the range SPEC gives it. */
    private record Limit(String property, Duration min, Duration max) {
        boolean allows(Duration d) {
            return d.compareTo(min) >= 0 && (max == null || d.compareTo(max) <= 0);
        }
    }

    private static final Limit LOCK = new Limit("lockDuration", Duration.ofSeconds(5), Duration.ofMinutes(5));
    private static final Limit AUTO_DELETE = new Limit("autoDeleteOnIdle", Duration.ofMinutes(5), null);
    private static final Limit DUP_WINDOW =
            new Limit("duplicateDetectionHistoryTimeWindow", Duration.ofSeconds(20), Duration.ofDays(7));
    /** SPEC does not give a minimum TTL; zero and negative ones are certainly invalid, one second is valid. */
    private static final Limit TTL = new Limit("defaultMessageTimeToLive", Duration.ofSeconds(1), null);

    /** Values at, just inside and just outside the limit, and far away. */
    private static Duration around(SplittableRandom random, Limit limit) {
        Duration edge = limit.max != null && random.nextBoolean() ? limit.max : limit.min;
        return switch (random.nextInt(8)) {
            case 0 -> edge;
            case 1 -> edge.plusNanos(1);
            case 2 -> edge.minusNanos(1);
            case 3 -> edge.plusMillis(1);
            case 4 -> edge.minusMillis(1);
            case 5 -> Duration.ZERO;
            case 6 -> Duration.ofMillis(-random.nextInt(100_000));
            default -> Duration.ofMillis(random.nextLong(Duration.ofDays(10).toMillis()));
        };
    }

    @Test
    @DisplayName("LOCK-1 DLQ-2 ADI-2 DUP-1 LIM-3 bad input: random durations and delivery counts on queues, topics and "
            + "subscriptions, created and updated, are refused with InvalidOptionException naming the property")
    void durationsAndCounts() {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        Namespace ns = Namespace.create();
        ns.createQueue("q");
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        for (int i = 0; i < CASES; i++) {
            int entity = random.nextInt(3);
            List<Limit> limits = switch (entity) {
                case 0 -> List.of(LOCK, AUTO_DELETE, DUP_WINDOW, TTL);
                case 1 -> List.of(AUTO_DELETE, DUP_WINDOW, TTL);
                default -> List.of(LOCK, AUTO_DELETE, TTL);
            };
            Limit limit = limits.get(random.nextInt(limits.size()));
            Duration value = around(random, limit);
            if (limit == TTL && !value.isNegative() && !value.isZero() && value.compareTo(TTL.min) < 0) {
                continue; // below one second: not in SPEC
            }
            boolean update = random.nextBoolean();
            String id = "case " + i + " (seed " + (SEED + 1) + "): " + (update ? "update " : "create ")
                    + List.of("queue", "topic", "subscription").get(entity) + " with " + limit.property + " = " + value;
            Executable action = switch (entity) {
                case 0 -> {
                    QueueOptions o = set(
                                    QueueOptions.builder(),
                                    limit.property,
                                    value,
                                    QueueOptions.Builder::lockDuration,
                                    QueueOptions.Builder::autoDeleteOnIdle,
                                    QueueOptions.Builder::duplicateDetectionHistoryTimeWindow,
                                    QueueOptions.Builder::defaultMessageTimeToLive)
                            .build();
                    yield update
                            ? () -> ns.updateQueue("q", o)
                            : () -> {
                                ns.createQueue("q" + 2, o);
                                ns.deleteQueue("q2");
                            };
                }
                case 1 -> {
                    TopicOptions o = set(
                                    TopicOptions.builder(),
                                    limit.property,
                                    value,
                                    null,
                                    TopicOptions.Builder::autoDeleteOnIdle,
                                    TopicOptions.Builder::duplicateDetectionHistoryTimeWindow,
                                    TopicOptions.Builder::defaultMessageTimeToLive)
                            .build();
                    yield update
                            ? () -> ns.updateTopic("t", o)
                            : () -> {
                                ns.createTopic("t2", o);
                                ns.deleteTopic("t2");
                            };
                }
                default -> {
                    SubscriptionOptions o = set(
                                    SubscriptionOptions.builder(),
                                    limit.property,
                                    value,
                                    SubscriptionOptions.Builder::lockDuration,
                                    SubscriptionOptions.Builder::autoDeleteOnIdle,
                                    null,
                                    SubscriptionOptions.Builder::defaultMessageTimeToLive)
                            .build();
                    yield update
                            ? () -> ns.updateSubscription("t", "s", o)
                            : () -> {
                                ns.createSubscription("t", "s2", o);
                                ns.deleteSubscription("t", "s2");
                            };
                }
            };
            check(id, limit.allows(value), limit.property, action, () -> {});
        }
        QueueOptions before = ns.getQueue("q");
        assertThrows(
                InvalidOptionException.class,
                () -> ns.updateQueue(
                        "q",
                        before.toBuilder().lockDuration(Duration.ofMinutes(6)).build()));
        assertEquals(before, ns.getQueue("q"), "a refused update leaves the queue as it was");
        for (int n : new int[] {0, -1, Integer.MIN_VALUE}) {
            InvalidOptionException e = assertThrows(
                    InvalidOptionException.class,
                    () -> ns.createQueue(
                            "bad", QueueOptions.builder().maxDeliveryCount(n).build()));
            assertEquals("maxDeliveryCount", e.property());
        }
        ns.createQueue("one", QueueOptions.builder().maxDeliveryCount(1).build());
    }

    private static <B> B set(
            B builder,
            String property,
            Duration value,
            BiFunction<B, Duration, B> lock,
            BiFunction<B, Duration, B> autoDelete,
            BiFunction<B, Duration, B> dupWindow,
            BiFunction<B, Duration, B> ttl) {
        return switch (property) {
            case "lockDuration" -> lock.apply(builder, value);
            case "autoDeleteOnIdle" -> autoDelete.apply(builder, value);
            case "duplicateDetectionHistoryTimeWindow" -> dupWindow.apply(builder, value);
            default -> ttl.apply(builder, value);
        };
    }

    // ---- message fields and sizes (LIM-1, LIM-2) -----------------------------------------------------

    @Test
    @DisplayName("LIM-2 bad input: message id, session id and partition key longer than 128 characters are refused "
            + "with InvalidOptionException naming the field")
    void messageFields() {
        SplittableRandom random = new SplittableRandom(SEED + 2);
        Namespace ns = Namespace.create();
        ns.createQueue("q");
        for (int i = 0; i < CASES; i++) {
            int length = 120 + random.nextInt(20);
            String value = "x".repeat(length);
            int field = random.nextInt(3);
            Message.Builder b = Message.builder().body("x");
            String property = switch (field) {
                case 0 -> {
                    b.messageId(value);
                    yield "messageId";
                }
                case 1 -> {
                    b.sessionId(value).partitionKey(value);
                    yield "sessionId";
                }
                default -> {
                    b.partitionKey(value);
                    yield "partitionKey";
                }
            };
            Message m = b.build();
            String id = "case " + i + " (seed " + (SEED + 2) + "): " + property + " of " + length + " characters";
            check(id, length <= 128, property, () -> ns.send("q", m), () -> {});
        }
    }

    private static final int KB = 1024;

    @Test
    @DisplayName("LIM-1 bad input: messages and batches above 256 KB (Standard) or 1 MB (Premium) are refused with "
            + "MessageSizeExceeded and leave the queue unchanged; smaller ones are accepted")
    void sizes() {
        SplittableRandom random = new SplittableRandom(SEED + 3);
        for (Tier tier : new Tier[] {Tier.STANDARD, Tier.PREMIUM}) {
            int limit = tier == Tier.PREMIUM ? 1024 * KB : 256 * KB;
            Namespace ns = Namespace.builder().tier(tier).build();
            ns.createQueue("q");
            long accepted = 0;
            for (int i = 0; i < 300; i++) {
                boolean batch = random.nextInt(3) == 0;
                List<Message> messages = new ArrayList<>();
                int total = 0;
                int count = batch ? 2 + random.nextInt(3) : 1;
                // clearly below (leaving room for headers) or clearly above the limit
                boolean tooLarge = random.nextBoolean();
                int target = tooLarge ? limit + 1 + random.nextInt(limit) : random.nextInt(limit - 2 * KB);
                for (int k = 0; k < count; k++) {
                    int size = target / count;
                    total += size;
                    messages.add(Message.builder()
                            .messageId("m" + i + "-" + k)
                            .body(new byte[size])
                            .build());
                }
                String id = tier + " case " + i + " (seed " + (SEED + 3) + "): "
                        + (batch ? "batch of " + count + " messages, " : "one message, ") + total + " body bytes";
                if (tooLarge) {
                    assertThrows(BrokerException.MessageSizeExceeded.class, () -> ns.send("q", messages), id);
                } else {
                    ns.send("q", messages);
                    accepted += count;
                }
                assertEquals(accepted, ns.runtimeInfo(EntityPath.queue("q")).activeMessageCount(), id);
            }
        }
    }
}
