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
}
