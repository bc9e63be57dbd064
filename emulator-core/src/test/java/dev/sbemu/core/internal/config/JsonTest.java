package dev.sbemu.core.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The JDK-only JSON reader behind Config.json: what it accepts, and where it says a document breaks. */
class JsonTest {
    private static Object parse(String json) {
        return Json.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String error(String json) {
        Json.MalformedJsonException e = assertThrows(Json.MalformedJsonException.class, () -> parse(json));
        return e.line() + ":" + e.column() + " [" + e.path() + "] " + e.getMessage();
    }

    @Test
    @DisplayName("CFG-2 objects, arrays, strings with escapes, numbers, true, false and null")
    void values() {
        Object root =
                parse("{\"a\": [1, -2.5, 3e2, true, false, null], \"s\": \"q\\\"\\\\\\/\\n\\t\\u00e9\", \"o\": {}}");
        Map<?, ?> map = (Map<?, ?>) root;
        assertEquals(
                List.of(new BigDecimal("1"), new BigDecimal("-2.5"), new BigDecimal("3e2"), true, false, Json.NULL),
                map.get("a"));
        assertEquals("q\"\\/\n\té", map.get("s"));
        assertEquals(Map.of(), map.get("o"));
        assertEquals("{\"a\":[1,-2.5,3E+2,true,false,null],\"s\":\"q\\\"\\\\/\\n\\té\",\"o\":{}}", Json.render(root));
    }

    @Test
    @DisplayName("CFG-2 comments, trailing commas, a byte-order mark, CRLF and tabs are accepted")
    void lenient() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] body = "// a comment\r\n{\t\"a\": [1, 2,], /* block\r\n comment */ \"b\": {\"c\": 1,},\r\n}\r\n// end"
                .getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[bom.length + body.length];
        System.arraycopy(bom, 0, content, 0, bom.length);
        System.arraycopy(body, 0, content, bom.length, body.length);
        assertEquals(
                Map.of("a", List.of(BigDecimal.ONE, new BigDecimal(2)), "b", Map.of("c", BigDecimal.ONE)),
                Json.parse(content));
    }

    @Test
    @DisplayName("CFG-2 keys keep document order; a repeated key keeps its last value")
    void order() {
        assertEquals("{\"b\":1,\"a\":3}", Json.render(parse("{\"b\": 1, \"a\": 2, \"a\": 3}")));
    }

    @Test
    @DisplayName("CFG-3 an empty document (only blanks and comments) is null")
    void empty() {
        assertNull(parse(" // nothing\n "));
    }

    @Test
    @DisplayName("CFG-3 malformed documents name the line, the column, the path and what was expected")
    void malformed() {
        assertEquals("2:9 [a[1]] expected ',' or ']' but found '3'", error("{\"a\":\n  [1, 2 3]}"));
        assertEquals("1:9 [a] expected ',' or '}' but found '\"b\"'", error("{\"a\": 1 \"b\": 2}"));
        assertEquals("1:2 [] expected a key in double quotes or '}' but found 'a'", error("{a: 1}"));
        assertEquals("1:7 [a] a string that is never closed", error("{\"a\": \"open}"));
        assertEquals(
                "1:7 [a] expected a value (an object, array, string, number, true, false or null) but found "
                        + "'TRUE'",
                error("{\"a\": TRUE}"));
        assertEquals("1:4 [] unexpected '{' after the end of the document", error("{} {}"));
        assertEquals("1:7 [a] a malformed number '-x'", error("{\"a\": -x}"));
        assertEquals("1:9 [a] expected digits after the decimal point but found '}'", error("{\"a\": 1.}"));
        assertEquals("1:8 [a] an unknown escape \\x inside a string", error("{\"a\": \"\\x\"}"));
        assertEquals(
                "1:8 [a] a control character inside a string (write it as an escape such as \\n or \\t)",
                error("{\"a\": \"\u0001\"}"));
        assertEquals("1:7 [a] a /* comment that is never closed", error("{\"a\": /* 1}"));
        assertEquals("1:8 [a] expected ',' or '}' but found the end of the file", error("{\"a\": 1"));
        assertEquals(
                "1:1 [] the file is not UTF-8 text",
                assertThrows(Json.MalformedJsonException.class, () -> Json.parse(new byte[] {'{', (byte) 0xC3, '}'}))
                                .line()
                        + ":1 [] the file is not UTF-8 text");
    }

    @Test
    @DisplayName("CFG-3 nesting deeper than the limit is refused, not a stack overflow")
    void deep() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        Json.MalformedJsonException e = assertThrows(Json.MalformedJsonException.class, () -> parse(deep));
        assertEquals("nesting depth (1001) exceeds the maximum allowed (1000)", e.getMessage());
        assertEquals(true, e.isLimit());
    }
}
