package dev.sbemu.core.filter;

/**
 * A SQL filter: a condition over a message's system ({@code sys.}) and application ({@code user.},
 * the default) properties, in the Service Bus subset of SQL-92 (SPEC RUL-2, RUL-6).
 *
 * <p>{@link #parse(String)} validates the text as the service does when a rule is created. A parsed
 * filter is immutable and thread-safe; {@link #matches(FilterMessage)} never throws and is true only
 * when the condition evaluates to TRUE under three-valued logic (a missing property is UNKNOWN).
 */
public final class SqlFilter implements RuleFilter {

    private final String expression;
    private final Expr condition;

    private SqlFilter(String expression, Expr condition) {
        this.expression = expression;
        this.condition = condition;
    }

    /**
     * Parses and validates a filter expression.
     *
     * @param expression the SQL expression, e.g. {@code "sys.Label = 'red' AND quantity > 10"}
     * @return the filter
     * @throws FilterSyntaxException when the text is empty, longer than 1,024 characters, malformed,
     *         names an unknown system property or scope, or uses a reserved word as a bare name
     */
    public static SqlFilter parse(String expression) throws FilterSyntaxException {
        return new SqlFilter(expression, Parser.parseFilter(expression));
    }

    /**
     * Returns the expression as written.
     *
     * @return the SQL text
     */
    public String expression() {
        return expression;
    }

    @Override
    public boolean matches(FilterMessage message) {
        try {
            return Boolean.TRUE.equals(evaluate(message));
        } catch (RuntimeException failingMessage) {
            // The evaluator itself does not throw; this guards against a FilterMessage that does.
            return false;
        }
    }

    @Override
    public boolean matchesOrFails(FilterMessage message) {
        try {
            return Boolean.TRUE.equals(evaluate(message));
        } catch (FilterEvaluationException failed) {
            throw failed;
        } catch (RuntimeException failingMessage) {
            return false;
        }
    }

    /** Evaluates the condition: TRUE, FALSE, or null for UNKNOWN. */
    Boolean evaluate(FilterMessage message) {
        return Values.truth(condition.evaluate(message));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SqlFilter && ((SqlFilter) other).expression.equals(expression);
    }

    @Override
    public int hashCode() {
        return expression.hashCode();
    }

    @Override
    public String toString() {
        return "SqlFilter[" + expression + "]";
    }
}
