package dev.sbemu.core.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("RUL-2 RUL-6 SQL filter syntax errors are rejected at creation with their position")
class SqlFilterSyntaxTest {

    @ParameterizedTest(name = "[{index}] \"{0}\" fails at {1}")
    @MethodSource("malformed")
    void rejects(String expression, int position) {
        FilterSyntaxException e = assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse(expression));
        assertEquals(position, e.position(), e.getMessage());
        assertTrue(e.getMessage().startsWith("Syntax error at position " + position + " "), e.getMessage());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("", 0),
                Arguments.of("   ", 0),
                Arguments.of("a = ", 4),
                Arguments.of("a = 1 AND", 9),
                Arguments.of("a == 1", 3),
                Arguments.of("(a = 1", 6),
                Arguments.of("a = 1)", 5),
                Arguments.of("'abc", 0),
                Arguments.of("a = 'x", 4),
                Arguments.of("a = 'x''", 4),
                Arguments.of("sys.Foo = 1", 4),
                Arguments.of("sys.Subject = 'x'", 4),
                Arguments.of("EXISTS(sys.Nope)", 11),
                Arguments.of("foo.bar = 1", 0),
                Arguments.of("between = 1", 0),
                Arguments.of("a = 1 AND end = 2", 10),
                Arguments.of("user.coalesce = 1", 5),
                Arguments.of("a LIKE 'x' ESCAPE 'ab'", 18),
                Arguments.of("a LIKE 'x' ESCAPE ''", 18),
                Arguments.of("a LIKE 'x\\' ESCAPE '\\'", 7),
                Arguments.of("a IN ()", 6),
                Arguments.of("a IN (1, 2", 10),
                Arguments.of("a IN 1", 5),
                Arguments.of("coalesce(a, 1) = 1", 0),
                Arguments.of("upper(a) = 'X'", 0),
                Arguments.of("1 = 1 = 1", 6),
                Arguments.of("a = 1 b = 2", 6),
                Arguments.of("_a = 1", 0),
                Arguments.of("a = 1 @", 6),
                Arguments.of("!a", 0),
                Arguments.of("[abc = 1", 0),
                Arguments.of("\"abc = 1", 0),
                Arguments.of("[] = 1", 0),
                Arguments.of("a NOT = 1", 6),
                Arguments.of("a IS 5", 5),
                Arguments.of("a IS NOT 1", 9),
                Arguments.of("EXISTS a", 7),
                Arguments.of("EXISTS(1)", 7),
                Arguments.of("EXISTS(a", 8),
                Arguments.of("newid(1) = 1", 6),
                Arguments.of("property() = 1", 9),
                Arguments.of("5", 0),
                Arguments.of("a + 1", 0),
                Arguments.of("'text'", 0),
                Arguments.of("a = 1 OR 2", 9),
                Arguments.of("NOT 'x'", 4),
                Arguments.of("99999999999999999999 = 1", 0),
                Arguments.of("a = 1e999", 4),
                Arguments.of("NOT", 3),
                Arguments.of("a LIKE", 6),
                Arguments.of("a = 1 AND AND b = 1", 10),
                Arguments.of("user. = 1", 6),
                Arguments.of("a = 2 OR (b = 1", 15),
                Arguments.of("a = .5", 4),
                Arguments.of("a = 1;", 5),
                Arguments.of("SET a = 1", 0),
                Arguments.of("a = OR", 4),
                Arguments.of("a = 1 AND NOT", 13),
                Arguments.of("a = 1.2.3", 7),
                Arguments.of("(".repeat(65) + "a = 1" + ")".repeat(65), 64),
                Arguments.of("a = " + "p(".repeat(65) + "'a'" + ")".repeat(65), 132),
                Arguments.of("- -9223372036854775808 = 1", 3));
    }

    @Test
    @DisplayName("RUL-2 an expression longer than 1024 characters is rejected; 1024 is accepted")
    void lengthLimit() {
        String ok = "a = '" + "x".repeat(1024 - 6) + "'";
        assertEquals(1024, ok.length());
        SqlFilter.parse(ok);
        String tooLong = "a = '" + "x".repeat(1024 - 5) + "'";
        FilterSyntaxException e = assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse(tooLong));
        assertEquals(1024, e.position());
    }

    @Test
    @DisplayName("RUL-2 the message names the position, the offending token and what was expected")
    void message() {
        FilterSyntaxException e =
                assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse("a = 1 AND AND b = 1"));
        assertEquals("Syntax error at position 10 near 'AND': expected an expression", e.getMessage());
        assertEquals("AND", e.token());
        assertEquals("expected an expression", e.reason());
        FilterSyntaxException end = assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse("a = 1 AND"));
        assertEquals("", end.token());
        assertTrue(end.getMessage().contains("at the end of the text"), end.getMessage());
        FilterSyntaxException sys = assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse("sys.Foo = 1"));
        assertTrue(sys.getMessage().contains("unknown system property 'sys.Foo'"), sys.getMessage());
        FilterSyntaxException reserved =
                assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse("Between = 1"));
        assertTrue(reserved.getMessage().contains("[Between]"), reserved.getMessage());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(
            strings = {
                "BETWEEN",
                "COALESCE",
                "CONVERT",
                "IF",
                "ELSE",
                "BEGIN",
                "END",
                "WHILE",
                "DECLARE",
                "NULLIF",
                "CASE",
                "WHEN",
                "THEN",
                "CAST"
            })
    @DisplayName("RUL-6 T-SQL reserved words are no bare property names, in any case; [word] is")
    void reservedWords(String word) {
        assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse(word + " = 1"));
        assertThrows(FilterSyntaxException.class, () -> SqlFilter.parse(word.toLowerCase() + " = 1"));
        SqlFilter.parse("[" + word + "] = 1");
        SqlFilter.parse("\"" + word.toLowerCase() + "\" = 1");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(
            strings = {
                "MessageId",
                "CorrelationId",
                "To",
                "ReplyTo",
                "Label",
                "SessionId",
                "ReplyToSessionId",
                "ContentType",
                "DeliveryCount",
                "SequenceNumber",
                "EnqueuedTimeUtc",
                "ScheduledEnqueueTimeUtc",
                "ExpiresAtUtc",
                "TimeToLive",
                "Size",
                "EnqueuedSequenceNumber",
                "LockToken",
                "LockedUntilUtc",
                "DeadLetterSource",
                "PartitionKey",
                "State"
            })
    @DisplayName("RUL-2 every system property is addressable as sys.<Name>, ignoring case")
    void systemProperties(String name) {
        SqlFilter.parse("sys." + name + " IS NULL");
        SqlFilter.parse("SYS." + name.toUpperCase() + " IS NULL");
        SqlFilter.parse("sys.[" + name.toLowerCase() + "] IS NULL");
        assertEquals(
                name,
                SystemProperty.byFilterName(name.toLowerCase()).orElseThrow().filterName());
    }

    @Test
    @DisplayName("RUL-2 parsed filters keep their text and compare by it")
    void keepsText() {
        SqlFilter filter = SqlFilter.parse("sys.Label = 'x'");
        assertEquals("sys.Label = 'x'", filter.expression());
        assertEquals(filter, SqlFilter.parse("sys.Label = 'x'"));
        assertEquals(filter.hashCode(), SqlFilter.parse("sys.Label = 'x'").hashCode());
    }
}
