package dev.sbemu.core.filter;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits filter and action text into {@link Token}s. Identifiers start with a letter and go on with
 * letters, digits and underscores; {@code [x]]y]} and {@code "x""y"} escape their delimiter; strings
 * are single-quoted with {@code ''}; numbers are integers ({@code 42}), decimals ({@code 4.2}) or
 * scientific ({@code 4.2E-1}); {@code @name} is a parameter.
 */
final class Lexer {

    private static final int MAX_TOKEN_IN_MESSAGE = 20;

    private final String text;
    private int pos;

    private Lexer(String text) {
        this.text = text;
    }

    static List<Token> tokenize(String text) {
        return new Lexer(text).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
            if (pos >= text.length()) {
                tokens.add(new Token(Token.Type.END, "", null, text.length()));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        int start = pos;
        char c = text.charAt(pos);
        if (Character.isLetter(c)) {
            return identifier(start);
        }
        if (c >= '0' && c <= '9') {
            return number(start);
        }
        if (c == '@' && pos + 1 < text.length() && Character.isLetter(text.charAt(pos + 1))) {
            Token name = identifier(start + 1);
            return new Token(Token.Type.PARAMETER, "@" + name.text(), "@" + name.text(), start);
        }
        switch (c) {
            case '\'':
                return quoted(start, '\'', '\'', Token.Type.STRING, "unterminated string constant");
            case '"':
                return quoted(start, '"', '"', Token.Type.QUOTED_IDENTIFIER, "unterminated quoted identifier");
            case '[':
                return quoted(start, '[', ']', Token.Type.DELIMITED_IDENTIFIER, "unterminated delimited identifier");
            case '=':
                return symbol(start, 1, Token.Type.EQ);
            case '<':
                if (peekChar(1) == '>') {
                    return symbol(start, 2, Token.Type.NE);
                }
                return peekChar(1) == '=' ? symbol(start, 2, Token.Type.LE) : symbol(start, 1, Token.Type.LT);
            case '>':
                return peekChar(1) == '=' ? symbol(start, 2, Token.Type.GE) : symbol(start, 1, Token.Type.GT);
            case '!':
                if (peekChar(1) == '=') {
                    return symbol(start, 2, Token.Type.NE);
                }
                break;
            case '+':
                return symbol(start, 1, Token.Type.PLUS);
            case '-':
                return symbol(start, 1, Token.Type.MINUS);
            case '*':
                return symbol(start, 1, Token.Type.STAR);
            case '/':
                return symbol(start, 1, Token.Type.SLASH);
            case '%':
                return symbol(start, 1, Token.Type.PERCENT);
            case '(':
                return symbol(start, 1, Token.Type.LPAREN);
            case ')':
                return symbol(start, 1, Token.Type.RPAREN);
            case ',':
                return symbol(start, 1, Token.Type.COMMA);
            case ';':
                return symbol(start, 1, Token.Type.SEMICOLON);
            case '.':
                return symbol(start, 1, Token.Type.DOT);
            default:
                break;
        }
        throw new FilterSyntaxException("unexpected character", start, String.valueOf(c));
    }

    private char peekChar(int ahead) {
        int i = pos + ahead;
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private Token symbol(int start, int length, Token.Type type) {
        pos = start + length;
        return new Token(type, text.substring(start, pos), null, start);
    }

    private Token identifier(int start) {
        pos = start + 1;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (!Character.isLetterOrDigit(c) && c != '_') {
                break;
            }
            pos++;
        }
        String name = text.substring(start, pos);
        return new Token(Token.Type.IDENTIFIER, name, name, start);
    }

    /** Reads text between {@code open} and {@code close}, where a doubled {@code close} stands for itself. */
    private Token quoted(int start, char open, char close, Token.Type type, String unterminated) {
        StringBuilder content = new StringBuilder();
        pos = start + 1;
        while (true) {
            if (pos >= text.length()) {
                throw new FilterSyntaxException(unterminated, start, excerpt(start));
            }
            char c = text.charAt(pos++);
            if (c == close) {
                if (pos < text.length() && text.charAt(pos) == close) {
                    content.append(close);
                    pos++;
                } else {
                    break;
                }
            } else {
                content.append(c);
            }
        }
        if (type != Token.Type.STRING && content.length() == 0) {
            throw new FilterSyntaxException("empty identifier", start, text.substring(start, pos));
        }
        return new Token(type, text.substring(start, pos), content.toString(), start);
    }

    private Token number(int start) {
        skipDigits();
        boolean decimal = false;
        if (pos < text.length() && text.charAt(pos) == '.') {
            decimal = true;
            pos++;
            skipDigits();
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            int mark = pos;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < text.length() && isDigit(text.charAt(pos))) {
                decimal = true;
                skipDigits();
            } else {
                pos = mark;
            }
        }
        String literal = text.substring(start, pos);
        if (!decimal) {
            try {
                return new Token(Token.Type.INTEGER, literal, Long.parseLong(literal), start);
            } catch (NumberFormatException e) {
                // 9223372036854775808 is only valid after a minus sign; the parser handles that case
                return new Token(Token.Type.INTEGER, literal, null, start);
            }
        }
        double value = Double.parseDouble(literal);
        if (Double.isInfinite(value)) {
            throw new FilterSyntaxException("numeric constant out of range", start, literal);
        }
        return new Token(Token.Type.DECIMAL, literal, value, start);
    }

    private void skipDigits() {
        while (pos < text.length() && isDigit(text.charAt(pos))) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private String excerpt(int start) {
        int end = Math.min(text.length(), start + MAX_TOKEN_IN_MESSAGE);
        return text.substring(start, end) + (end < text.length() ? "..." : "");
    }
}
