package dev.sbemu.core.filter;

import java.util.Locale;

/**
 * One token of a filter or action: its type, its source text, its decoded value (the number, the
 * string's content, the identifier's name) and its 0-based position.
 */
record Token(Type type, String text, Object value, int position) {

    enum Type {
        /** A regular identifier, which may also be a keyword. */
        IDENTIFIER,
        /** {@code "quoted"} identifier. */
        QUOTED_IDENTIFIER,
        /** {@code [delimited]} identifier. */
        DELIMITED_IDENTIFIER,
        STRING,
        INTEGER,
        DECIMAL,
        /** {@code @name}: a parameter of the filter or action, replaced by its value. */
        PARAMETER,
        EQ,
        NE,
        LT,
        LE,
        GT,
        GE,
        PLUS,
        MINUS,
        STAR,
        SLASH,
        PERCENT,
        LPAREN,
        RPAREN,
        COMMA,
        SEMICOLON,
        DOT,
        END
    }

    boolean is(Type t) {
        return type == t;
    }

    /** Tells whether this is the regular identifier {@code keyword}, ignoring case. */
    boolean isKeyword(String keyword) {
        return type == Type.IDENTIFIER && text.equalsIgnoreCase(keyword);
    }

    boolean isIdentifier() {
        return type == Type.IDENTIFIER || type == Type.QUOTED_IDENTIFIER || type == Type.DELIMITED_IDENTIFIER;
    }

    String upperText() {
        return text.toUpperCase(Locale.ROOT);
    }
}
