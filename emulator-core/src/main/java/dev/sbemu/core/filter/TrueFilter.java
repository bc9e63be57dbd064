package dev.sbemu.core.filter;

/**
 * The filter that matches every message, the SQL filter {@code 1=1} (SPEC RUL-3); the filter of the
 * {@code $Default} rule.
 */
public record TrueFilter() implements RuleFilter {

    /** The SQL text the service reports for this filter. */
    public static final String EXPRESSION = "1=1";

    @Override
    public boolean matches(FilterMessage message) {
        return true;
    }

    /**
     * Returns {@value #EXPRESSION}.
     *
     * @return the equivalent SQL expression
     */
    public String expression() {
        return EXPRESSION;
    }
}
