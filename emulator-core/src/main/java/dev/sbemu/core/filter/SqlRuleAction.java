package dev.sbemu.core.filter;

import java.util.List;
import java.util.Map;

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
    private final Map<String, Object> parameters;
    private final List<Statement> statements;

    private SqlRuleAction(String expression, Map<String, Object> parameters, List<Statement> statements) {
        this.expression = expression;
        this.parameters = parameters;
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
        return parse(actionText, Map.of());
    }

    /**
     * Parses and validates an action with parameters (RUL-9): {@code @name} stands for the value of the
     * parameter {@code "@name"}, as in {@link SqlFilter#parse(String, Map)}.
     *
     * @param actionText the action, e.g. {@code "SET region = @region"}
     * @param parameters the values, e.g. {@code Map.of("@region", "eu")}
     * @return the action
     * @throws FilterSyntaxException as {@link #parse(String)}, and when the text uses a parameter without a value
     * @throws IllegalArgumentException for a parameter name without {@code @} or a value of another type
     */
    public static SqlRuleAction parse(String actionText, Map<String, Object> parameters) throws FilterSyntaxException {
        Map<String, Object> checked = SqlFilter.checkParameters(parameters);
        return new SqlRuleAction(
                actionText, SqlFilter.declared(parameters, checked), Parser.parseAction(actionText, checked));
    }

    /** The parameters' values, by name ({@code @region}); empty when there are none. */
    public Map<String, Object> parameters() {
        return parameters;
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
        return other instanceof SqlRuleAction that
                && that.expression.equals(expression)
                && that.parameters.equals(parameters);
    }

    @Override
    public int hashCode() {
        return expression.hashCode() * 31 + parameters.hashCode();
    }

    @Override
    public String toString() {
        return "SqlRuleAction[" + expression + (parameters.isEmpty() ? "" : ", " + parameters) + "]";
    }
}
