package dev.sbemu.core.filter;

/**
 * A subscription rule's filter. Implementations are immutable and thread-safe.
 */
public sealed interface RuleFilter permits SqlFilter, CorrelationFilter, TrueFilter, FalseFilter {

    /**
     * Evaluates this filter against a message. Never throws: an expression that cannot be evaluated
     * for this message (missing property, type mismatch, division by zero) does not match.
     *
     * @param message the message copy
     * @return true only when the filter evaluates to TRUE
     */
    boolean matches(FilterMessage message);

    /**
     * As {@link #matches}, except that an error of the expression itself for this message (an integer
     * division by zero) is thrown, as the service raises it, instead of not matching (RUL-8).
     *
     * @throws FilterEvaluationException when the expression fails for this message
     */
    default boolean matchesOrFails(FilterMessage message) {
        return matches(message);
    }
}
