package dev.sbemu.core.filter;

import static dev.sbemu.core.filter.TestMessage.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** RUL-12: how the statements of a SQL rule action may be separated. */
class ActionStatementsTest {

    @Test
    @DisplayName("RUL-12 statements separated by white space only apply in order, as the Go SDK's live rule test sends")
    void whiteSpaceSeparatesStatements() {
        TestMessage m = with("old", "o");
        SqlRuleAction.parse(
                        "SET MessageID=@stringVar SET a = 1 SET b = a + 1 REMOVE old SET c = @intVar",
                        Map.of("@stringVar", "hello world", "@intVar", 100L))
                .applyTo(m);
        // without "sys." a name is a user property (RUL-2's default scope)
        assertEquals(Map.of("MessageID", "hello world", "a", 1L, "b", 2L, "c", 100L), m.applicationProperties());
    }

    @Test
    @DisplayName("RUL-12 anything else after a statement still needs ',' or ';'")
    void otherTokensStillNeedASeparator() {
        assertThrows(FilterSyntaxException.class, () -> SqlRuleAction.parse("SET a = 1 b = 2"));
    }
}
