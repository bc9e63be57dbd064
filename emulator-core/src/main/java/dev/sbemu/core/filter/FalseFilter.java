package dev.sbemu.core.filter;

/**
 * The filter that matches no message, the SQL filter {@code 1=0} (SPEC RUL-3).
 */
public record FalseFilter() implements RuleFilter {

    /** The SQL text the service reports for this filter. */
    public static final String EXPRESSION = "1=0";

    @Override
    public boolean matches(FilterMessage message) {
        return false;
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
