package dev.sbemu.core.filter;

import static dev.sbemu.core.filter.TestMessage.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ParameterTest {

    @Test
    @DisplayName("RUL-9 @name in a filter stands for the parameter's value; numbers widen to long and double")
    void filterParameters() {
        SqlFilter filter = SqlFilter.parse(
                "color = @color AND size > @min AND ratio < @ratio",
                Map.of("@color", "red", "@min", 3, "@ratio", 0.5f));

        assertTrue(filter.matches(with("color", "red", "size", 4L, "ratio", 0.25)));
        assertFalse(filter.matches(with("color", "blue", "size", 4L, "ratio", 0.25)));
        assertEquals(Map.of("@color", "red", "@min", 3, "@ratio", 0.5f), filter.parameters(), "RUL-13: as given");
        assertNotEquals(
                SqlFilter.parse("color = @color", Map.of("@color", "red")),
                SqlFilter.parse("color = @color", Map.of("@color", "blue")));
        assertEquals(Map.of(), SqlFilter.parse("1=1").parameters());
    }

    @Test
    @DisplayName("RUL-9 @name in an action stands for the parameter's value")
    void actionParameters() {
        TestMessage m = with("color", "red");
        SqlRuleAction.parse("SET tier = @tier", Map.of("@tier", "gold")).applyTo(m);
        assertEquals("gold", m.applicationProperties().get("tier"));
    }

    @Test
    @DisplayName("RUL-9 a parameter without a value, a name without @ and a value of another type are refused")
    void badParameters() {
        FilterSyntaxException missing = assertThrows(
                FilterSyntaxException.class, () -> SqlFilter.parse("color = @colour", Map.of("@color", "red")));
        assertTrue(missing.getMessage().contains("@colour"), missing.getMessage());
        assertThrows(FilterSyntaxException.class, () -> SqlRuleAction.parse("SET a = @a"));
        assertEquals(
                "A parameter's name starts with '@', was 'color'.",
                assertThrows(IllegalArgumentException.class, () -> SqlFilter.parse("1=1", Map.of("color", "red")))
                        .getMessage());
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> SqlFilter.parse("1=1", Map.of("@list", new ArrayList<>())))
                .getMessage()
                .contains("java.util.ArrayList"));
    }

    @Test
    @DisplayName("RUL-10 a date-time parameter (OffsetDateTime, Instant, Date) is taken and compares with date-times")
    void dateTimeParameters() {
        OffsetDateTime cutoff = OffsetDateTime.parse("2030-01-01T00:00:00Z");
        SqlFilter filter = SqlFilter.parse("sent > @cutoff", Map.of("@cutoff", cutoff.toInstant()));
        assertEquals(cutoff, filter.parameters().get("@cutoff"));
        assertEquals(
                cutoff,
                SqlFilter.parse("1=1", Map.of("@d", Date.from(cutoff.toInstant())))
                        .parameters()
                        .get("@d"));
        assertTrue(filter.matches(TestMessage.with("sent", cutoff.plusSeconds(1))));
        assertTrue(filter.matches(
                TestMessage.with("sent", Date.from(cutoff.plusSeconds(1).toInstant()))));
        assertFalse(filter.matches(TestMessage.with("sent", cutoff)));
    }
}
