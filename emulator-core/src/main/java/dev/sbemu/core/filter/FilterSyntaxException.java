package dev.sbemu.core.filter;

/**
 * A malformed SQL filter or SQL rule action, rejected when the rule is created (SPEC RUL-2, RUL-7).
 * The message says what was wrong, where, and near which token, e.g.
 * {@code Syntax error at position 7 near 'AND': expected an expression}.
 */
public final class FilterSyntaxException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final int position;
    private final String token;
    private final String reason;

    /**
     * Creates the exception.
     *
     * @param reason what was wrong, e.g. {@code "expected an expression"}
     * @param position the 0-based character offset of the offending token in the text
     * @param token the offending token's text; empty at the end of the text
     */
    public FilterSyntaxException(String reason, int position, String token) {
        super(format(reason, position, token));
        this.reason = reason;
        this.position = position;
        this.token = token == null ? "" : token;
    }

    private static String format(String reason, int position, String token) {
        String near = token == null || token.isEmpty() ? "at the end of the text" : "near '" + token + "'";
        return "Syntax error at position " + position + " " + near + ": " + reason;
    }

    /**
     * Returns the 0-based character offset of the error in the expression.
     *
     * @return the position
     */
    public int position() {
        return position;
    }

    /**
     * Returns the offending token as written, or an empty string at the end of the text.
     *
     * @return the token
     */
    public String token() {
        return token;
    }

    /**
     * Returns what was wrong, without the position, e.g. {@code "expected an expression"}.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
