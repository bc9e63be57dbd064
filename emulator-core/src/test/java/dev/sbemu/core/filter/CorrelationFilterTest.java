package dev.sbemu.core.filter;

import static dev.sbemu.core.filter.TestMessage.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RUL-3 correlation filters match exactly and case-sensitively, all fields ANDed; true and false filters")
class CorrelationFilterTest {

    private static CorrelationFilter properties(Map<String, Object> properties) {
        return new CorrelationFilter(null, null, null, null, null, null, null, null, properties);
    }

    private static TestMessage full() {
        return with("color", "red", "count", 5)
                .sys(SystemProperty.CORRELATION_ID, "corr")
                .sys(SystemProperty.MESSAGE_ID, "mid")
                .sys(SystemProperty.TO, "to")
                .sys(SystemProperty.REPLY_TO, "replyTo")
                .sys(SystemProperty.LABEL, "subject")
                .sys(SystemProperty.SESSION_ID, "session")
                .sys(SystemProperty.REPLY_TO_SESSION_ID, "replySession")
                .sys(SystemProperty.CONTENT_TYPE, "application/json");
    }

    @Test
    @DisplayName("RUL-3 an empty correlation filter matches everything")
    void emptyMatchesAll() {
        assertTrue(properties(null).matches(with()));
        assertTrue(properties(Map.of()).matches(full()));
    }

    @Test
    @DisplayName("RUL-3 each system field is compared exactly")
    void eachSystemField() {
        TestMessage m = full();
        assertTrue(new CorrelationFilter("corr", null, null, null, null, null, null, null, null).matches(m));
        assertTrue(new CorrelationFilter(null, "mid", null, null, null, null, null, null, null).matches(m));
        assertTrue(new CorrelationFilter(null, null, "to", null, null, null, null, null, null).matches(m));
        assertTrue(new CorrelationFilter(null, null, null, "replyTo", null, null, null, null, null).matches(m));
        assertTrue(new CorrelationFilter(null, null, null, null, "subject", null, null, null, null).matches(m));
        assertTrue(new CorrelationFilter(null, null, null, null, null, "session", null, null, null).matches(m));
        assertTrue(new CorrelationFilter(null, null, null, null, null, null, "replySession", null, null).matches(m));
        assertTrue(
                new CorrelationFilter(null, null, null, null, null, null, null, "application/json", null).matches(m));
        assertTrue(new CorrelationFilter(
                        "corr",
                        "mid",
                        "to",
                        "replyTo",
                        "subject",
                        "session",
                        "replySession",
                        "application/json",
                        Map.of("color", "red", "count", 5))
                .matches(m));
    }

    @Test
    @DisplayName("RUL-3 values compare case-sensitively and exactly, not as patterns or prefixes")
    void exact() {
        TestMessage m = full();
        assertFalse(new CorrelationFilter("CORR", null, null, null, null, null, null, null, null).matches(m));
        assertFalse(new CorrelationFilter("cor", null, null, null, null, null, null, null, null).matches(m));
        assertFalse(new CorrelationFilter("corr%", null, null, null, null, null, null, null, null).matches(m));
        assertFalse(new CorrelationFilter(null, null, null, null, "Subject", null, null, null, null).matches(m));
        assertFalse(properties(Map.of("color", "Red")).matches(m));
    }

    @Test
    @DisplayName("RUL-3 all set fields are ANDed: one mismatch or missing value fails the filter")
    void anded() {
        assertFalse(new CorrelationFilter("corr", "other", null, null, null, null, null, null, null).matches(full()));
        assertFalse(new CorrelationFilter("corr", null, null, null, null, null, null, null, null).matches(with()));
        assertFalse(new CorrelationFilter("corr", null, null, null, null, null, null, null, Map.of("color", "blue"))
                .matches(full()));
        assertFalse(properties(Map.of("missing", "x")).matches(full()));
    }

    @Test
    @DisplayName(
            "RUL-3 application property values match by value: numbers across integer types, never string vs number")
    void propertyValues() {
        assertTrue(properties(Map.of("count", 5L)).matches(with("count", 5)));
        assertTrue(properties(Map.of("count", 5)).matches(with("count", (short) 5)));
        assertFalse(properties(Map.of("count", "5")).matches(with("count", 5)));
        assertFalse(properties(Map.of("count", 5)).matches(with("count", "5")));
        assertTrue(properties(Map.of("flag", true)).matches(with("flag", true)));
        Map<String, Object> nullValue = new HashMap<>();
        nullValue.put("n", null);
        assertTrue(properties(nullValue).matches(with("n", null)));
        assertFalse(properties(nullValue).matches(with()));
        assertFalse(properties(nullValue).matches(with("n", 1)));
    }

    @Test
    @DisplayName("RUL-3 the properties map is copied defensively and unmodifiable")
    void defensiveCopy() {
        Map<String, Object> source = new HashMap<>(Map.of("color", "red"));
        CorrelationFilter filter = properties(source);
        source.put("color", "blue");
        assertEquals(Map.of("color", "red"), filter.properties());
        assertTrue(filter.matches(with("color", "red")));
        assertThrows(
                UnsupportedOperationException.class, () -> filter.properties().put("x", 1));
    }

    @Test
    @DisplayName("RUL-3 the true filter is 1=1 and the false filter is 1=0")
    void trueAndFalse() {
        assertTrue(new TrueFilter().matches(with()));
        assertFalse(new FalseFilter().matches(full()));
        assertEquals("1=1", new TrueFilter().expression());
        assertEquals("1=0", new FalseFilter().expression());
        assertTrue(SqlFilter.parse(new TrueFilter().expression()).matches(with()));
        assertFalse(SqlFilter.parse(new FalseFilter().expression()).matches(with()));
    }
}
