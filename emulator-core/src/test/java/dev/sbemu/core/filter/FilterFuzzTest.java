package dev.sbemu.core.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Seeded, deterministic fuzzing of the filter and action languages: generated, mutated and random
 * text must either parse or fail with {@link FilterSyntaxException}, and a parsed filter or action
 * must never throw on any message.
 */
@DisplayName(
        "RUL-2 RUL-4 fuzz: parsing only ever fails with FilterSyntaxException, evaluation throws nothing but RUL-8 FilterEvaluationException")
class FilterFuzzTest {

    private static final long SEED = 0x5BE_F11_7E2L;
    private static final int FILTERS = 12_000;
    private static final int ACTIONS = 3_000;
    private static final int MESSAGES_PER_INPUT = 3;

    private static final String[] PROPERTIES = {
        "a",
        "B",
        "c",
        "[my prop]",
        "\"q\"",
        "user.a",
        "sys.Label",
        "sys.SequenceNumber",
        "sys.EnqueuedTimeUtc",
        "sys.TimeToLive",
        "sys.MessageId",
        "sys.DeliveryCount",
        "[a]]b]",
        "p",
        "size"
    };
    private static final String[] SETTABLE = {"a", "B", "[my prop]", "new", "sys.Label", "sys.To", "sys.CorrelationId"};
    private static final String[] LITERALS = {
        "0",
        "1",
        "-1",
        "42",
        "9223372036854775807",
        "2.5",
        "0.1",
        "1e3",
        "1.5E-2",
        "'x'",
        "'it''s'",
        "''",
        "'ab%'",
        "TRUE",
        "FALSE",
        "NULL",
        "newid()",
        "p('a')",
        "property('sys.Label')",
        "property(c)"
    };
    private static final String[] COMPARISONS = {"=", "<>", "!=", ">", ">=", "<", "<="};
    private static final String[] ARITHMETIC = {"+", "-", "*", "/", "%"};
    private static final String[] TOKENS = {
        "AND",
        "OR",
        "NOT",
        "IS",
        "NULL",
        "IN",
        "LIKE",
        "ESCAPE",
        "EXISTS",
        "(",
        ")",
        ",",
        ";",
        ".",
        "sys",
        "user",
        "SET",
        "REMOVE",
        "BETWEEN",
        "'",
        "\"",
        "[",
        "]",
        "=",
        "-",
        "*",
        "1e",
        "9999999999999999999999"
    };
    private static final String ALPHABET = "abcxyzABCsSyY_019.,;:()[]'\"=<>!+-*/%@#$&?\\ \t\nßé\u0000\uD800";

    private final Random random = new Random(SEED);

    @Test
    void filters() {
        int parsed = 0;
        int rejected = 0;
        for (int i = 0; i < FILTERS; i++) {
            String text = nextFilterText();
            SqlFilter filter;
            try {
                filter = SqlFilter.parse(text);
            } catch (FilterSyntaxException e) {
                checkPosition(text, e);
                rejected++;
                continue;
            } catch (Throwable t) {
                throw new AssertionError("parse threw " + t + " for: " + text, t);
            }
            parsed++;
            for (int m = 0; m < MESSAGES_PER_INPUT; m++) {
                TestMessage message = randomMessage();
                try {
                    filter.evaluate(message);
                } catch (FilterEvaluationException divisionByZero) {
                    // RUL-8: the one error an expression may raise for a message
                } catch (Throwable t) {
                    throw new AssertionError("evaluation threw " + t + " for: " + text + " on " + message, t);
                }
                try {
                    filter.matches(message);
                } catch (Throwable t) {
                    throw new AssertionError("evaluation threw " + t + " for: " + text + " on " + message, t);
                }
            }
        }
        assertEquals(FILTERS, parsed + rejected);
        assertTrue(parsed > FILTERS / 5, "too few inputs parsed to exercise evaluation: " + parsed);
        assertTrue(rejected > FILTERS / 5, "too few inputs rejected to exercise errors: " + rejected);
    }

    @Test
    void actions() {
        int parsed = 0;
        for (int i = 0; i < ACTIONS; i++) {
            String text = nextActionText();
            SqlRuleAction action;
            try {
                action = SqlRuleAction.parse(text);
            } catch (FilterSyntaxException e) {
                checkPosition(text, e);
                continue;
            } catch (Throwable t) {
                throw new AssertionError("parse threw " + t + " for: " + text, t);
            }
            parsed++;
            for (int m = 0; m < MESSAGES_PER_INPUT; m++) {
                TestMessage message = randomMessage();
                try {
                    action.applyTo(message);
                } catch (FilterEvaluationException divisionByZero) {
                    // RUL-8: the one error an expression may raise for a message
                } catch (Throwable t) {
                    throw new AssertionError("action threw " + t + " for: " + text + " on " + message, t);
                }
            }
        }
        assertTrue(parsed > ACTIONS / 5, "too few actions parsed: " + parsed);
    }

    private static void checkPosition(String text, FilterSyntaxException e) {
        if (e.position() < 0 || e.position() > Math.max(text.length(), 0)) {
            fail("position " + e.position() + " outside the text for: " + text);
        }
    }

    // ---- inputs ----

    private String nextFilterText() {
        switch (random.nextInt(4)) {
            case 0:
            case 1:
                return condition(0);
            case 2:
                return mutate(condition(0));
            default:
                return randomText();
        }
    }

    private String nextActionText() {
        StringBuilder text = new StringBuilder();
        int statements = 1 + random.nextInt(4);
        for (int i = 0; i < statements; i++) {
            if (i > 0) {
                text.append(pick(new String[] {"; ", ", ", ";", " "}));
            }
            if (random.nextInt(4) == 0) {
                text.append("REMOVE ").append(pick(SETTABLE));
            } else {
                text.append("SET ").append(pick(SETTABLE)).append(" = ").append(expression(1));
            }
        }
        return random.nextInt(3) == 0 ? mutate(text.toString()) : text.toString();
    }

    private String condition(int depth) {
        int choice = depth > 3 ? 4 + random.nextInt(6) : random.nextInt(10);
        switch (choice) {
            case 0:
                return condition(depth + 1) + " AND " + condition(depth + 1);
            case 1:
                return condition(depth + 1) + " OR " + condition(depth + 1);
            case 2:
                return "NOT " + condition(depth + 1);
            case 3:
                return "(" + condition(depth + 1) + ")";
            case 4:
                return expression(depth + 1) + " IS " + (random.nextBoolean() ? "NOT " : "") + "NULL";
            case 5:
                return "EXISTS(" + pick(PROPERTIES) + ")";
            case 6:
                return expression(depth + 1) + (random.nextBoolean() ? " NOT" : "") + " IN (" + expression(depth + 2)
                        + ", " + expression(depth + 2) + ")";
            case 7:
                return expression(depth + 1) + (random.nextBoolean() ? " NOT" : "") + " LIKE "
                        + pick(new String[] {"'a%'", "'%_'", "'x!%' ESCAPE '!'", "c", "c ESCAPE B", "'%'"});
            default:
                return expression(depth + 1) + " " + pick(COMPARISONS) + " " + expression(depth + 1);
        }
    }

    private String expression(int depth) {
        int choice = depth > 3 ? random.nextInt(2) : random.nextInt(5);
        switch (choice) {
            case 0:
                return pick(PROPERTIES);
            case 1:
                return pick(LITERALS);
            case 2:
                return expression(depth + 1) + " " + pick(ARITHMETIC) + " " + expression(depth + 1);
            case 3:
                return pick(new String[] {"-", "+", "- -"}) + expression(depth + 1);
            default:
                return "(" + expression(depth + 1) + ")";
        }
    }

    private String mutate(String text) {
        StringBuilder s = new StringBuilder(text);
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits; i++) {
            int at = s.length() == 0 ? 0 : random.nextInt(s.length() + 1);
            switch (random.nextInt(5)) {
                case 0:
                    s.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
                    break;
                case 1:
                    if (at < s.length()) {
                        s.deleteCharAt(at);
                    }
                    break;
                case 2:
                    s.insert(at, " " + pick(TOKENS) + " ");
                    break;
                case 3:
                    s.setLength(at);
                    break;
                default:
                    if (at < s.length()) {
                        int end = Math.min(s.length(), at + 1 + random.nextInt(8));
                        s.insert(at, s.substring(at, end));
                    }
                    break;
            }
        }
        return s.toString();
    }

    private String randomText() {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(40);
        for (int i = 0; i < length; i++) {
            if (random.nextInt(4) == 0) {
                s.append(' ').append(pick(TOKENS)).append(' ');
            } else {
                s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
        }
        return s.toString();
    }

    // ---- messages ----

    private TestMessage randomMessage() {
        TestMessage message = new TestMessage();
        for (String name : new String[] {"a", "b", "c", "my prop", "q", "a]b", "p", "size"}) {
            if (random.nextInt(3) > 0) {
                String key = random.nextBoolean() ? name : name.toUpperCase();
                message.applicationProperties().put(key, randomValue());
            }
        }
        for (SystemProperty property : SystemProperty.values()) {
            if (random.nextBoolean()) {
                message.sys(property, randomValue());
            }
        }
        return message;
    }

    private Object randomValue() {
        switch (random.nextInt(22)) {
            case 0:
                return null;
            case 1:
                return random.nextInt(5) - 2;
            case 2:
                return random.nextLong();
            case 3:
                return Long.MIN_VALUE;
            case 4:
                return random.nextDouble() * 10;
            case 5:
                return Double.NaN;
            case 6:
                return Double.NEGATIVE_INFINITY;
            case 7:
                return (float) random.nextInt(10);
            case 8:
                return new BigDecimal("2.5");
            case 9:
                return (short) 3;
            case 10:
                return (byte) -1;
            case 11:
                return random.nextBoolean();
            case 12:
                return 'x';
            case 13:
                return UUID.randomUUID();
            case 14:
                return new byte[] {1, 2};
            case 15:
                return Instant.MAX;
            case 16:
                return OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
            case 17:
                return Duration.ofSeconds(Long.MAX_VALUE);
            case 18:
                return Duration.ofMinutes(5);
            case 19:
                return "a%";
            case 20:
                return "";
            default:
                return pick(new String[] {"x", "abc", "sys.Label", "a", "!", "ab%"});
        }
    }

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }
}
