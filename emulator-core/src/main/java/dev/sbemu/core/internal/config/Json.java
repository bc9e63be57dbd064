package dev.sbemu.core.internal.config;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON reader for Config.json, with the JDK only (so that the library puts no JSON library, and no version of
 * one, on the user's test class path). It reads what Microsoft's emulator reads: a UTF-8 document with or without a
 * byte-order mark, {@code //} and {@code /* *}{@code /} comments, trailing commas in arrays and objects. Values are
 * {@code Map<String, Object>} (in document order; a repeated key keeps its last value), {@code List<Object>},
 * {@code String}, {@code BigDecimal}, {@code Boolean} and {@link #NULL}.
 */
final class Json {
    /** JSON's {@code null}. */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    // the limits of Jackson's defaults (StreamReadConstraints), so that no file exhausts the stack or the heap
    private static final int MAX_DEPTH = 1000;
    private static final int MAX_NUMBER_LENGTH = 1000;
    private static final int MAX_STRING_LENGTH = 20_000_000;

    /** A document that is not JSON, or past a limit of this reader: where, and what was expected. */
    static final class MalformedJsonException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int line;
        private final int column;
        private final String path;
        private final boolean limit;

        MalformedJsonException(String message, int line, int column, String path, boolean limit) {
            super(message);
            this.line = line;
            this.column = column;
            this.path = path;
            this.limit = limit;
        }

        /** Whether the document is past a limit (nesting depth, number or string length) rather than malformed. */
        boolean isLimit() {
            return limit;
        }

        int line() {
            return line;
        }

        int column() {
            return column;
        }

        /** Where in the document, such as {@code UserConfig.Namespaces[0].Name}; {@code ""} at the top. */
        String path() {
            return path;
        }
    }

    private final String text;
    private final Deque<String> path = new ArrayDeque<>();
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /**
     * Parses a document.
     *
     * @return the root value, or null when the document holds nothing but whitespace and comments
     * @throws MalformedJsonException when it is not JSON (or not UTF-8)
     */
    static Object parse(byte[] content) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new MalformedJsonException("the file is not UTF-8 text", 1, 1, "", false);
        }
        Json json = new Json(text.startsWith("\uFEFF") ? text.substring(1) : text);
        json.skipBlank();
        if (json.pos == json.text.length()) {
            return null;
        }
        Object root = json.value();
        json.skipBlank();
        if (json.pos < json.text.length()) {
            throw json.error("unexpected " + json.found() + " after the end of the document");
        }
        return root;
    }

    /** A value as JSON text, for error messages: {@code "1 minute"}, {@code 5}, {@code {"a":true}}. */
    static String render(Object value) {
        StringBuilder out = new StringBuilder();
        render(value, out);
        return out.toString();
    }

    private static void render(Object value, StringBuilder out) {
        if (value instanceof String s) {
            out.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
                }
            }
            out.append('"');
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(sep);
                render(e.getKey(), out);
                out.append(':');
                render(e.getValue(), out);
                sep = ",";
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            String sep = "";
            for (Object element : list) {
                out.append(sep);
                render(element, out);
                sep = ",";
            }
            out.append(']');
        } else {
            out.append(value);
        }
    }

    private Object value() {
        if (path.size() > MAX_DEPTH) {
            throw limit("nesting depth (" + path.size() + ")", MAX_DEPTH);
        }
        char c = peek();
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", NULL);
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw error("expected a value (an object, array, string, number, true, false or null) but found "
                        + found());
            }
        };
    }

    private Map<String, Object> object() {
        pos++; // {
        Map<String, Object> members = new LinkedHashMap<>();
        skipBlank();
        while (peek() != '}') {
            if (peek() != '"') {
                throw error("expected a key in double quotes or '}' but found " + found());
            }
            String key = string();
            skipBlank();
            expect(':');
            path.push("." + key);
            skipBlank();
            Object value = value();
            members.remove(key);
            members.put(key, value);
            afterItem('}');
            path.pop();
        }
        pos++; // }
        return members;
    }

    private List<Object> array() {
        pos++; // [
        List<Object> elements = new ArrayList<>();
        skipBlank();
        while (peek() != ']') {
            path.push("[" + elements.size() + "]");
            elements.add(value());
            afterItem(']');
            path.pop();
        }
        pos++; // ]
        return elements;
    }

    /** After a member or an element: a comma (a trailing one too) or the closing bracket. */
    private void afterItem(char close) {
        skipBlank();
        if (peek() == ',') {
            pos++;
            skipBlank();
        } else if (peek() != close) {
            throw error("expected ',' or '" + close + "' but found " + found());
        }
    }

    private String string() {
        int start = pos;
        pos++; // "
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                pos = start;
                throw error("a string that is never closed");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (out.length() >= MAX_STRING_LENGTH) {
                pos = start;
                throw limit("string length (more than " + MAX_STRING_LENGTH + ")", MAX_STRING_LENGTH);
            }
            if (c < 0x20) {
                pos--;
                throw error("a control character inside a string (write it as an escape such as \\n or \\t)");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = pos < text.length() ? text.charAt(pos++) : '\0';
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length() || !text.substring(pos, pos + 4).matches("[0-9a-fA-F]{4}")) {
                        pos -= 2;
                        throw error("\\u must be followed by four hexadecimal digits");
                    }
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> {
                    pos -= 2;
                    throw error("an unknown escape \\" + e + " inside a string");
                }
            }
        }
    }

    private BigDecimal number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (!digits()) {
            pos = start;
            throw error("a malformed number " + found());
        }
        if (peek() == '.') {
            pos++;
            if (!digits()) {
                throw error("expected digits after the decimal point but found " + found());
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!digits()) {
                throw error("expected the exponent's digits but found " + found());
            }
        }
        if (pos - start > MAX_NUMBER_LENGTH) {
            int length = pos - start;
            pos = start;
            throw limit("number length (" + length + ")", MAX_NUMBER_LENGTH);
        }
        return new BigDecimal(text.substring(start, pos));
    }

    private boolean digits() {
        int start = pos;
        while (peek() >= '0' && peek() <= '9') {
            pos++;
        }
        return pos > start;
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error(
                    "expected a value (an object, array, string, number, true, false or null) but found " + found());
        }
        pos += word.length();
        return value;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "' but found " + found());
        }
        pos++;
    }

    /** Skips whitespace and comments. */
    private void skipBlank() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                pos++;
            } else if (text.startsWith("//", pos)) {
                int end = text.indexOf('\n', pos);
                pos = end < 0 ? text.length() : end + 1;
            } else if (text.startsWith("/*", pos)) {
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw error("a /* comment that is never closed");
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private String found() {
        if (pos >= text.length()) {
            return "the end of the file";
        }
        int end = pos;
        while (end < text.length()
                && end < pos + 20
                && !Character.isWhitespace(text.charAt(end))
                && ",:[]{}".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        return "'" + text.substring(pos, Math.max(end, pos + 1)) + "'";
    }

    private MalformedJsonException limit(String what, int max) {
        return error(what + " exceeds the maximum allowed (" + max + ")", true);
    }

    private MalformedJsonException error(String message) {
        return error(message, false);
    }

    private MalformedJsonException error(String message, boolean limit) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < pos && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        List<String> parts = new ArrayList<>(path);
        StringBuilder where = new StringBuilder();
        for (int i = parts.size() - 1; i >= 0; i--) {
            where.append(parts.get(i));
        }
        String p = where.toString();
        return new MalformedJsonException(
                message, line, pos - lineStart + 1, p.startsWith(".") ? p.substring(1) : p, limit);
    }
}
