package dev.sbemu.core.filter;

import static dev.sbemu.core.filter.SystemProperty.CONTENT_TYPE;
import static dev.sbemu.core.filter.SystemProperty.CORRELATION_ID;
import static dev.sbemu.core.filter.SystemProperty.DELIVERY_COUNT;
import static dev.sbemu.core.filter.SystemProperty.ENQUEUED_TIME_UTC;
import static dev.sbemu.core.filter.SystemProperty.EXPIRES_AT_UTC;
import static dev.sbemu.core.filter.SystemProperty.LABEL;
import static dev.sbemu.core.filter.SystemProperty.MESSAGE_ID;
import static dev.sbemu.core.filter.SystemProperty.REPLY_TO;
import static dev.sbemu.core.filter.SystemProperty.SEQUENCE_NUMBER;
import static dev.sbemu.core.filter.SystemProperty.SIZE;
import static dev.sbemu.core.filter.SystemProperty.TIME_TO_LIVE;
import static dev.sbemu.core.filter.SystemProperty.TO;
import static dev.sbemu.core.filter.TestMessage.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.AmqpDecimal;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("RUL-2 RUL-6 SQL filter evaluation: three-valued logic, coercions, LIKE, IN, EXISTS, names")
class SqlFilterEvaluationTest {

    private static final OffsetDateTime ENQUEUED = OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC);
    private static final UUID ID = UUID.fromString("3f2504e0-4f89-11d3-9a0c-0305e82c3301");

    @ParameterizedTest(name = "[{index}] {0}  on {1}  -> {2}")
    @MethodSource("cases")
    void evaluates(String expression, TestMessage message, boolean expected) {
        SqlFilter filter = SqlFilter.parse(expression);
        assertEquals(expected, filter.matches(message), expression + " on " + message);
    }

    @Test
    @DisplayName("RUL-2 long chains and 64 levels of parentheses parse and evaluate, even on a small thread stack")
    void deepNesting() throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread small = new Thread(
                null,
                () -> {
                    try {
                        assertTrue(SqlFilter.parse("(".repeat(64) + "a = 1" + ")".repeat(64))
                                .matches(with("a", 1)));
                        assertTrue(SqlFilter.parse("a = " + "p(".repeat(63) + "'a'" + ")".repeat(63))
                                .matches(with("a", "a")));
                        assertTrue(SqlFilter.parse("NOT ".repeat(251) + "a = 1").matches(with("a", 2)));
                        assertTrue(
                                SqlFilter.parse("a = " + "-".repeat(1000) + "1").matches(with("a", 1)));
                        assertTrue(SqlFilter.parse("a = " + "1 + ".repeat(250) + "1")
                                .matches(with("a", 251)));
                        assertTrue(SqlFilter.parse("a = 1" + " AND a = 1".repeat(100))
                                .matches(with("a", 1)));
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                },
                "small-stack",
                256 * 1024);
        small.start();
        small.join();
        assertNull(failure.get(), () -> "failed: " + failure.get());
    }

    @Test
    @DisplayName("RUL-6 matches() is false, never an exception, even when the message itself fails")
    void failingMessage() {
        FilterMessage broken = new FilterMessage() {
            @Override
            public Object systemProperty(SystemProperty property) {
                throw new IllegalStateException("broken");
            }

            @Override
            public Map<String, Object> applicationProperties() {
                throw new IllegalStateException("broken");
            }
        };
        assertFalse(SqlFilter.parse("a IS NULL").matches(broken));
        assertFalse(SqlFilter.parse("sys.Label IS NULL").matches(broken));
        assertFalse(new CorrelationFilter("c", null, null, null, null, null, null, null, null).matches(broken));
    }

    @Test
    @DisplayName("RUL-6 numbers of other libraries (AMQP's unsigned integers, which the JavaScript SDK sends) "
            + "compare and compute as numbers")
    void foreignNumbers() {
        assertTrue(SqlFilter.parse("size > 10").matches(with("size", new ForeignNumber("50"))));
        assertFalse(SqlFilter.parse("size > 10").matches(with("size", new ForeignNumber("5"))));
        assertTrue(SqlFilter.parse("size = 50 AND size + 1 = 51 AND size / 4 = 12")
                .matches(with("size", new ForeignNumber("50"))));
        assertTrue(SqlFilter.parse("size > 4294967295").matches(with("size", new ForeignNumber("4294967296"))));
        assertTrue(SqlFilter.parse("size > 9.2e18").matches(with("size", new ForeignNumber("18446744073709551615"))));
        assertTrue(SqlFilter.parse("ratio < 0.75").matches(with("ratio", new ForeignNumber("0.5"))));
    }

    /** A number type the filter does not know by name, printed as its decimal value (as proton-j's are). */
    private static final class ForeignNumber extends Number {
        private static final long serialVersionUID = 1L;
        private final BigDecimal value;

        ForeignNumber(String value) {
            this.value = new BigDecimal(value);
        }

        @Override
        public int intValue() {
            return value.intValue();
        }

        @Override
        public long longValue() {
            return value.longValue();
        }

        @Override
        public float floatValue() {
            return value.floatValue();
        }

        @Override
        public double doubleValue() {
            return value.doubleValue();
        }

        @Override
        public String toString() {
            return value.toPlainString();
        }
    }

    private static Arguments row(String expression, TestMessage message, boolean expected) {
        return Arguments.of(expression, message, expected);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // three-valued logic: a missing property is UNKNOWN, a message matches only on TRUE
                row("a = 5", with("a", 5), true),
                row("a = 5", with(), false),
                row("a <> 5", with(), false),
                row("NOT (a = 5)", with(), false),
                row("NOT (a = 'x')", with(), false),
                row("a = 5 OR b = 1", with("b", 1), true),
                row("a = 5 AND b = 1", with("b", 1), false),
                row("a = 5 AND b = 1", with("b", 2), false),
                row("NOT (a = 5 AND b = 2)", with("b", 1), true),
                row("NOT (a = 5 OR b = 1)", with("b", 2), false),
                row("a = 5 OR b = 1", with(), false),
                row("NOT NOT a = 5", with("a", 5), true),
                row("NOT a = 5", with("a", 6), true),
                row("a = NULL", with("a", null), false),
                row("a <> NULL", with("a", 5), false),
                row("a + 1 = 6", with("a", 5), true),
                row("a + 1 > 0", with(), false),
                row("-a < 0", with(), false),
                row("-a < 0", with("a", 3), true),
                row("a = b", with("a", null, "b", null), false),
                // IS NULL and EXISTS
                row("a IS NULL", with(), true),
                row("a IS NULL", with("a", null), true),
                row("a IS NULL", with("a", 0), false),
                row("a IS NOT NULL", with("a", null), false),
                row("a IS NOT NULL", with("a", ""), true),
                row("a IS NOT NULL", with(), false),
                row("EXISTS(a)", with("a", null), true),
                row("EXISTS(a)", with(), false),
                row("NOT EXISTS(a)", with(), true),
                row("EXISTS(A)", with("a", 1), true),
                row("EXISTS([my prop])", with("my prop", 1), true),
                row("EXISTS(sys.Label)", with().sys(LABEL, "x"), true),
                row("EXISTS(sys.Label)", with(), false),
                // numbers: 64-bit integers, doubles, C# promotion
                row("3 * 0.1 = 0.3", with(), false),
                row("5 / 2 = 2", with(), true),
                row("5 % 2 = 1", with(), true),
                row("5 / 2.0 = 2.5", with(), true),
                row("a / 2 = 2", with("a", 5), true),
                row("a / 2 = 2.5", with("a", 5.0), true),
                row("a = 5", with("a", 5L), true),
                row("a = 5", with("a", (short) 5), true),
                row("a = 5", with("a", (byte) 5), true),
                row("a = 5.0", with("a", 5), true),
                row("a = 2.5", with("a", 2.5f), true),
                row("a = 2.5", with("a", new BigDecimal("2.5")), true),
                // MSG-5 AMQP's decimals compare by their number (1.5 as a decimal64, 12.345 as the .NET SDK's
                // decimal128)
                row("a = 1.5", with("a", AmqpDecimal.decimal64((397L << 53) | 15)), true),
                row("a > 1.4 AND a < 1.6", with("a", AmqpDecimal.decimal64((397L << 53) | 15)), true),
                row("a = 0", with("a", AmqpDecimal.decimal64((397L << 53) | 15)), false),
                row("a > 12", with("a", AmqpDecimal.decimal128((6176L - 3) << 49, 12_345)), true),
                row("a = -2.25", with("a", AmqpDecimal.decimal32(0x8000_0000 | (99 << 23) | 225)), true),
                row("a = 1", with("a", AmqpDecimal.decimal32(0x7C00_0000)), false),
                row("a > 1e2", with("a", 101), true),
                row("a = 1.5E1", with("a", 15), true),
                row("2.5e-1 = 0.25", with(), true),
                row("1. = 1", with(), true),
                row("a * 2 = 0.6", with("a", 0.3), true),
                row("7 % -3 = 1", with(), true),
                row("-7 % 3 = -1", with(), true),
                row("5.5 % 2 = 1.5", with(), true),
                row("9223372036854775807 + 1 < 0", with(), true),
                row("-9223372036854775808 < 0", with(), true),
                row("1 / 0 = 1", with(), false),
                row("NOT (1 / 0 = 1)", with(), false),
                row("1.0 / 0 > 1000", with(), true),
                row("a % 0 IS NULL", with("a", 4), false), // RUL-8: an evaluation error, never a match
                // strings are never numbers
                row("a = '5'", with("a", 5), false),
                row("a <> '5'", with("a", 5), false),
                row("NOT (a = '5')", with("a", 5), false),
                row("a = 5", with("a", "5"), false),
                row("a > 4", with("a", "5"), false),
                row("a + 1 = 6", with("a", "5"), false),
                // booleans
                row("a = TRUE", with("a", true), true),
                row("a = true", with("a", false), false),
                row("a <> FALSE", with("a", true), true),
                row("a = 1", with("a", true), false),
                row("a = 'true'", with("a", true), false),
                row("a", with("a", true), true),
                row("a", with("a", "yes"), false),
                row("NOT a", with("a", false), true),
                row("TRUE", with(), true),
                row("FALSE", with(), false),
                row("NOT FALSE", with(), true),
                row("1=1", with(), true),
                row("1=0", with(), false),
                row("TRUE AND a = 1", with(), false),
                row("FALSE OR TRUE", with(), true),
                // strings: ordinal, case-sensitive
                row("a = 'Red'", with("a", "red"), false),
                row("a = 'red'", with("a", "red"), true),
                row("a > 'B'", with("a", "a"), true),
                row("a < 'b'", with("a", "B"), true),
                row("a = 'it''s'", with("a", "it's"), true),
                row("a + 'b' = 'ab'", with("a", "a"), true),
                row("'' = ''", with(), true),
                row("a = 'x'", with("a", 'x'), true),
                // LIKE: anchored, case-sensitive, % and _, ESCAPE
                row("a LIKE 'ab%'", with("a", "abc"), true),
                row("a LIKE 'ab%'", with("a", "xabc"), false),
                row("a LIKE '%bc'", with("a", "abc"), true),
                row("a LIKE 'a_c'", with("a", "abc"), true),
                row("a LIKE 'a_c'", with("a", "abbc"), false),
                row("a LIKE 'ABC'", with("a", "abc"), false),
                row("a LIKE '%'", with("a", ""), true),
                row("a LIKE 'a%c%e'", with("a", "abcde"), true),
                row("a LIKE 'a%c%e'", with("a", "abcdef"), false),
                row("a LIKE '%\\%' ESCAPE '\\'", with("a", "100%"), true),
                row("a LIKE '%\\%' ESCAPE '\\'", with("a", "100"), false),
                row("a LIKE 'a!_b' ESCAPE '!'", with("a", "a_b"), true),
                row("a LIKE 'a!_b' ESCAPE '!'", with("a", "axb"), false),
                row("a LIKE 'a!!b' ESCAPE '!'", with("a", "a!b"), true),
                row("a NOT LIKE 'ab%'", with("a", "xy"), true),
                row("a NOT LIKE 'ab%'", with("a", "abc"), false),
                row("a NOT LIKE 'ab%'", with(), false),
                row("a LIKE 'ab%'", with("a", 5), false),
                row("a NOT LIKE 'ab%'", with("a", 5), false),
                row("a LIKE b", with("a", "abc", "b", "a%"), true),
                row("a LIKE b", with("a", "abc"), false),
                row("a NOT LIKE b", with("a", "abc"), false),
                row("a LIKE 'x%' ESCAPE e", with("a", "xy"), false),
                row("a LIKE 'x%' ESCAPE e", with("a", "xy", "e", "!"), true),
                row("a LIKE '%.%'", with("a", "a.b"), true),
                row("a LIKE '[a]%'", with("a", "abc"), false),
                row("a LIKE '[a]%'", with("a", "[a]bc"), true),
                row("a LIKE '%%b%%'", with("a", "abc"), true),
                // IN / NOT IN
                row("a IN (1, 2, 3)", with("a", 2), true),
                row("a IN (1, 2, 3)", with("a", 4), false),
                row("a NOT IN (1, 2, 3)", with("a", 4), true),
                row("a NOT IN (1, 2, 3)", with("a", 2), false),
                row("a NOT IN (1, 2, 3)", with(), false),
                row("a IN (1, 2, 3)", with(), false),
                row("a IN ('x', 'y')", with("a", "y"), true),
                row("a IN ('X')", with("a", "x"), false),
                row("a IN (1, 2)", with("a", "1"), false),
                row("a IN (1.0, 2)", with("a", 1), true),
                row("a IN (b, 3)", with("a", 7, "b", 7), true),
                row("a IN (b, 3)", with("a", 3), true),
                row("a IN (1 + 1, 6 / 2)", with("a", 3), true),
                // sys. names: case-insensitive names, case-sensitive values
                row("sys.Label = 'red'", with().sys(LABEL, "red"), true),
                row("SYS.LABEL = 'red'", with().sys(LABEL, "red"), true),
                row("sys.label = 'Red'", with().sys(LABEL, "red"), false),
                row("Label = 'red'", with().sys(LABEL, "red"), false),
                row("sys.MessageId = 'm1'", with().sys(MESSAGE_ID, "m1"), true),
                row("sys.CorrelationId = 'c'", with(), false),
                row("sys.CorrelationId <> 'c'", with().sys(CORRELATION_ID, "d"), true),
                row("sys.SequenceNumber > 10", with().sys(SEQUENCE_NUMBER, 11L), true),
                row("sys.DeliveryCount = 1", with().sys(DELIVERY_COUNT, 1), true),
                row("sys.To = 'q' AND sys.ReplyTo = 'r'", with().sys(TO, "q").sys(REPLY_TO, "r"), true),
                row("sys.SessionId IS NULL", with(), true),
                row("sys.ContentType LIKE 'application/%'", with().sys(CONTENT_TYPE, "application/json"), true),
                row("sys.Size < 1024", with().sys(SIZE, 100L), true),
                row("sys.EnqueuedTimeUtc = sys.EnqueuedTimeUtc", with().sys(ENQUEUED_TIME_UTC, ENQUEUED), true),
                row(
                        "sys.ExpiresAtUtc > sys.EnqueuedTimeUtc",
                        with().sys(ENQUEUED_TIME_UTC, ENQUEUED)
                                .sys(EXPIRES_AT_UTC, ENQUEUED.toInstant().plusSeconds(60)),
                        true),
                row(
                        "sys.EnqueuedTimeUtc + sys.TimeToLive = sys.ExpiresAtUtc",
                        with().sys(ENQUEUED_TIME_UTC, ENQUEUED)
                                .sys(TIME_TO_LIVE, Duration.ofMinutes(1))
                                .sys(EXPIRES_AT_UTC, ENQUEUED.plusMinutes(1)),
                        true),
                row("sys.EnqueuedTimeUtc = 5", with().sys(ENQUEUED_TIME_UTC, ENQUEUED), false),
                row("sys.TimeToLive > 5", with().sys(TIME_TO_LIVE, Duration.ofMinutes(1)), false),
                row("user.a = 1", with("a", 1), true),
                row("USER.A = 1", with("a", 1), true),
                // identifiers: plain, [delimited], "quoted", case-insensitive lookup
                row("[my prop] = 1", with("my prop", 1), true),
                row("[a]]b] = 1", with("a]b", 1), true),
                row("\"my prop\" = 1", with("my prop", 1), true),
                row("\"a\"\"b\" = 1", with("a\"b", 1), true),
                row("[between] = 1", with("between", 1), true),
                row("\"end\" = 1", with("END", 1), true),
                row("user.[x.y] = 1", with("x.y", 1), true),
                row("[sys.Label] = 'x'", with("sys.Label", "x"), true),
                row("a_1 = 1", with("a_1", 1), true),
                row("Größe = 1", with("größe", 1), true),
                row("MyProp = 1", with("myprop", 1), true),
                row("myprop = 1", with("MyProp", 1), true),
                row("[MYPROP] = 1", with("MyProp", 1), true),
                row("myprop = 1", with("MyProp", 2, "myprop", 1), true),
                // arithmetic and precedence
                row("1 + 2 * 3 = 7", with(), true),
                row("(1 + 2) * 3 = 9", with(), true),
                row("10 - 4 - 3 = 3", with(), true),
                row("24 / 4 / 2 = 3", with(), true),
                row("2 * -3 = -6", with(), true),
                row("- -3 = 3", with(), true),
                row("+3 = 3", with(), true),
                row("-a = -5", with("a", 5), true),
                row("7 - 2 * 3 % 4 = 5", with(), true),
                row("1 - 1 - 1 = -1", with(), true),
                row("a = 1 OR b = 1 AND c = 1", with("a", 1, "b", 0, "c", 0), true),
                row("(a = 1 OR b = 1) AND c = 1", with("a", 1, "b", 0, "c", 0), false),
                row("NOT a = 1 AND b = 1", with("a", 2, "b", 1), true),
                row("a + b * 2 > 10 - c", with("a", 1, "b", 2L, "c", 6.5), true),
                // case-insensitive keywords
                row("a is null", with(), true),
                row("a In (1)", with("a", 1), true),
                row("a like 'x%' escape '!'", with("a", "xy"), true),
                row("exists(a) and not a = 2", with("a", 1), true),
                row("a = True Or b Is Not Null", with("a", false), false),
                // functions
                row("property('a') = 1", with("a", 1), true),
                row("P('A') = 1", with("a", 1), true),
                row("p('sys.Label') = 'red'", with().sys(LABEL, "red"), true),
                row("property('my' + ' prop') = 1", with("my prop", 1), true),
                row("property(a) = 1", with("a", "b", "b", 1), true),
                row("p('missing') IS NULL", with(), true),
                row("newid() = newid()", with(), false),
                row("newid() IS NOT NULL", with(), true),
                // other value types
                row("a = b", with("a", new byte[] {1, 2}, "b", new byte[] {1, 2}), true),
                row("a = b", with("a", ID, "b", UUID.fromString(ID.toString())), true),
                row("a = '" + ID + "'", with("a", ID), false),
                row(
                        "a = b",
                        with("a", Instant.EPOCH, "b", OffsetDateTime.of(1970, 1, 1, 1, 0, 0, 0, ZoneOffset.ofHours(1))),
                        true));
    }
}
