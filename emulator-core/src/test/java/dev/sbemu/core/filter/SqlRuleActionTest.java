package dev.sbemu.core.filter;

import static dev.sbemu.core.filter.TestMessage.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("RUL-4 RUL-7 SQL rule actions: SET and REMOVE on the subscription's copy")
class SqlRuleActionTest {

    private static TestMessage apply(String action, TestMessage message) {
        SqlRuleAction.parse(action).applyTo(message);
        return message;
    }

    @Test
    @DisplayName("RUL-4 SET adds or replaces a property; REMOVE deletes it")
    void setAndRemove() {
        TestMessage m = apply("SET color = 'blue'; SET size = 3; REMOVE secret", with("color", "red", "secret", "s"));
        assertEquals(Map.of("color", "blue", "size", 3L), m.applicationProperties());
    }

    @Test
    @DisplayName("RUL-4 statements are separated by ';' or ',' and apply in order, each seeing the previous")
    void separatorsAndOrder() {
        assertEquals(
                Map.of("a", 1L, "b", 2L, "c", 4L),
                apply("SET a = 1, SET b = a + 1; SET c = b * 2;", with()).applicationProperties());
        assertEquals(Map.of("a", 2L), apply("SET a = 1;, SET a = a + 1", with()).applicationProperties());
        assertEquals(Map.of("x", 1L), apply("set x = 1", with()).applicationProperties());
    }

    @Test
    @DisplayName("RUL-4 SET evaluates full expressions: arithmetic, strings, functions, sys properties")
    void expressions() {
        TestMessage m = with("price", 10, "name", "widget").sys(SystemProperty.LABEL, "red");
        apply(
                "SET total = price * 2 + 0.5; SET title = name + '-' + sys.Label; SET id = newid(); "
                        + "SET copy = property('price'); SET neg = -price",
                m);
        assertEquals(20.5, m.applicationProperties().get("total"));
        assertEquals("widget-red", m.applicationProperties().get("title"));
        assertInstanceOf(UUID.class, m.applicationProperties().get("id"));
        assertEquals(10, m.applicationProperties().get("copy"));
        assertEquals(-10L, m.applicationProperties().get("neg"));
    }

    @Test
    @DisplayName("RUL-6 SET from a missing property stores null (UNKNOWN)")
    void unknownValue() {
        TestMessage m = apply("SET a = missing + 1", with());
        assertTrue(m.applicationProperties().containsKey("a"));
        assertNull(m.applicationProperties().get("a"));
    }

    @Test
    @DisplayName("RUL-7 SET through a name differing in case updates the existing property, keeping spelling and type")
    void caseInsensitiveUpdate() {
        TestMessage m = apply("SET COUNT = count / 2", with("Count", 9));
        assertEquals(Map.of("Count", 4), m.applicationProperties());
        assertInstanceOf(Integer.class, m.applicationProperties().get("Count"));

        m = apply("SET [NAME] = 'new'", with("Name", "old"));
        assertEquals(Map.of("Name", "new"), m.applicationProperties());

        m = apply("SET ratio = 1", with("Ratio", 0.5));
        assertEquals(Map.of("Ratio", 1.0), m.applicationProperties());

        m = apply("SET small = 7", with("SMALL", (short) 1));
        assertEquals(Map.of("SMALL", (short) 7), m.applicationProperties());

        m = apply("SET label = 42", with("Label", "x"));
        assertEquals(Map.of("Label", "42"), m.applicationProperties());

        m = apply("SET n = 2.5", with("N", 1));
        assertEquals(Map.of("N", 2), m.applicationProperties(), "rounded half to even, as C#'s Convert");

        m = apply("SET n = 'abc'", with("N", 1));
        assertEquals(Map.of("N", "abc"), m.applicationProperties(), "no conversion: stored as computed");
    }

    @Test
    @DisplayName("RUL-7 REMOVE finds the property whatever the case of its name")
    void caseInsensitiveRemove() {
        Map<String, Object> props = apply("REMOVE SECRET, REMOVE missing", with("Secret", 1, "keep", 2))
                .applicationProperties();
        assertEquals(Map.of("keep", 2), props);
    }

    @Test
    @DisplayName("RUL-4 SET and REMOVE reach settable system properties through setSystemProperty")
    void systemProperties() {
        TestMessage m = with("p", 5).sys(SystemProperty.CORRELATION_ID, "c1");
        apply(
                "SET sys.Label = 'routed'; SET sys.To = 'queue-' + 'b'; SET sys.ReplyTo = 'r'; "
                        + "SET sys.MessageId = 'm'; SET sys.SessionId = 's'; SET sys.ReplyToSessionId = 'rs'; "
                        + "SET sys.ContentType = 'text/plain'; SET SYS.CORRELATIONID = p; REMOVE sys.SessionId",
                m);
        assertEquals("routed", m.systemProperty(SystemProperty.LABEL));
        assertEquals("queue-b", m.systemProperty(SystemProperty.TO));
        assertEquals("r", m.systemProperty(SystemProperty.REPLY_TO));
        assertEquals("m", m.systemProperty(SystemProperty.MESSAGE_ID));
        assertEquals("rs", m.systemProperty(SystemProperty.REPLY_TO_SESSION_ID));
        assertEquals("text/plain", m.systemProperty(SystemProperty.CONTENT_TYPE));
        assertEquals("5", m.systemProperty(SystemProperty.CORRELATION_ID));
        assertNull(m.systemProperty(SystemProperty.SESSION_ID));
        assertEquals(Map.of("p", 5), m.applicationProperties());
    }

    @Test
    @DisplayName("RUL-4 a message that cannot set system properties says so")
    void defaultSetSystemPropertyThrows() {
        FilterMessage readOnly = new FilterMessage() {
            @Override
            public Object systemProperty(SystemProperty property) {
                return null;
            }

            @Override
            public Map<String, Object> applicationProperties() {
                return new LinkedHashMap<>();
            }
        };
        SqlRuleAction action = SqlRuleAction.parse("SET sys.Label = 'x'");
        UnsupportedOperationException e =
                assertThrows(UnsupportedOperationException.class, () -> action.applyTo(readOnly));
        assertTrue(e.getMessage().contains("sys.Label"), e.getMessage());
    }

    @Test
    @DisplayName("RUL-7 at most 32 statements")
    void statementLimit() {
        StringJoiner ok = new StringJoiner("; ");
        for (int i = 0; i < 32; i++) {
            ok.add("SET p" + i + " = " + i);
        }
        assertEquals(32, apply(ok.toString(), with()).applicationProperties().size());
        String tooMany = ok + "; SET p32 = 32";
        FilterSyntaxException e = assertThrows(FilterSyntaxException.class, () -> SqlRuleAction.parse(tooMany));
        assertEquals(tooMany.indexOf("SET p32"), e.position());
        assertTrue(e.getMessage().contains("at most 32"), e.getMessage());
    }

    @Test
    @DisplayName("RUL-7 at most 1024 characters")
    void lengthLimit() {
        String ok = "SET a = '" + "x".repeat(1024 - 10) + "'";
        assertEquals(1024, ok.length());
        SqlRuleAction.parse(ok);
        FilterSyntaxException e = assertThrows(FilterSyntaxException.class, () -> SqlRuleAction.parse(ok + " "));
        assertEquals(1024, e.position());
    }

    @ParameterizedTest(name = "[{index}] \"{0}\" fails at {1}")
    @MethodSource("malformed")
    @DisplayName("RUL-7 empty and malformed actions are rejected with their position")
    void rejects(String action, int position) {
        FilterSyntaxException e = assertThrows(FilterSyntaxException.class, () -> SqlRuleAction.parse(action));
        assertEquals(position, e.position(), e.getMessage());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("", 0),
                Arguments.of(" \t ", 0),
                Arguments.of("SET", 3),
                Arguments.of("SET a", 5),
                Arguments.of("SET a = ", 8),
                Arguments.of("SET a = 1 b = 2", 10), // RUL-12: "SET a = 1 SET b = 2" is two statements
                Arguments.of("SET a = 1,", 10),
                Arguments.of(";", 0),
                Arguments.of("DELETE a", 0),
                Arguments.of("SET sys.SequenceNumber = 1", 8),
                Arguments.of("REMOVE sys.EnqueuedTimeUtc", 11),
                Arguments.of("SET sys.Nope = 1", 8),
                Arguments.of("SET other.x = 1", 4),
                Arguments.of("SET a = b = c", 10),
                Arguments.of("SET a = 1 AND b = 2", 10),
                Arguments.of("SET 5 = 1", 4),
                Arguments.of("SET end = 1", 4),
                Arguments.of("REMOVE", 6),
                Arguments.of("SET a = 'x", 8));
    }

    @Test
    @DisplayName("RUL-4 parsed actions keep their text")
    void keepsText() {
        SqlRuleAction action = SqlRuleAction.parse("SET a = 1");
        assertEquals("SET a = 1", action.expression());
        assertEquals(action, SqlRuleAction.parse("SET a = 1"));
        assertFalse(action.equals(SqlRuleAction.parse("SET a = 2")));
    }
}
