package dev.sbemu.core.filter;

import java.util.List;

/**
 * A SQL rule action: {@code SET property = expression} and {@code REMOVE property} statements,
 * separated by {@code ;} or {@code ,}, applied in order to the subscription's copy of a message that
 * the rule's filter matched (SPEC RUL-4, RUL-7). At most 1,024 characters and 32 statements.
 *
 * <p>{@code SET} through a name that differs only in case updates the existing application property
 * under its existing spelling, converting the value to the existing property's type. {@code SET} and
 * {@code REMOVE} may target the settable system properties (see {@link SystemProperty#settable()}),
 * through {@link FilterMessage#setSystemProperty(SystemProperty, Object)}. Immutable and thread-safe.
 */
public final class SqlRuleAction {

    private final String expression;
    private final List<Statement> statements;

    private SqlRuleAction(String expression, List<Statement> statements) {
        this.expression = expression;
        this.statements = List.copyOf(statements);
    }

    /**
     * Parses and validates an action.
     *
     * @param actionText the action, e.g. {@code "SET quantity = quantity / 2; REMOVE secret"}
     * @return the action
     * @throws FilterSyntaxException when the text is empty, too long, has too many statements, is
     *         malformed, or targets a system property that cannot be changed
     */
    public static SqlRuleAction parse(String actionText) throws FilterSyntaxException {
        return new SqlRuleAction(actionText, Parser.parseAction(actionText));
    }

    /**
     * Returns the action as written.
     *
     * @return the SQL text
     */
    public String expression() {
        return expression;
    }

    /**
     * Applies the statements, in order, to a message copy. An expression that cannot be evaluated
     * (missing property, type mismatch) sets the property to null.
     *
     * @param copy the subscription's copy of the message
     * @throws UnsupportedOperationException when the action sets a system property and {@code copy}
     *         does not implement {@link FilterMessage#setSystemProperty(SystemProperty, Object)}
     */
    public void applyTo(FilterMessage copy) {
        for (Statement statement : statements) {
            statement.applyTo(copy);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SqlRuleAction && ((SqlRuleAction) other).expression.equals(expression);
    }

    @Override
    public int hashCode() {
        return expression.hashCode();
    }

    @Override
    public String toString() {
        return "SqlRuleAction[" + expression + "]";
    }
}
