package dev.sbemu.core.filter;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

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
    private final Map<String, Object> parameters;
    private final Expr condition;

    private SqlFilter(String expression, Map<String, Object> parameters, Expr condition) {
        this.expression = expression;
        this.parameters = parameters;
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
        return parse(expression, Map.of());
    }

    /**
     * Parses and validates a filter expression with parameters (RUL-9): {@code @name} in the text
     * stands for the value of the parameter {@code "@name"}.
     *
     * @param expression the SQL expression, e.g. {@code "color = @color"}
     * @param parameters the values, e.g. {@code Map.of("@color", "red")}: strings, booleans, integral
     *                   numbers, decimals or date-times (as {@code OffsetDateTime}; an {@code Instant},
     *                   {@code ZonedDateTime} or {@code Date} is taken as one); the expression sees integral
     *                   numbers as {@code long} and decimals as {@code double}, {@link #parameters()} keeps their
     *                   types (RUL-13)
     * @return the filter
     * @throws FilterSyntaxException as {@link #parse(String)}, and when the text uses a parameter without a value
     * @throws IllegalArgumentException when a parameter's name does not start with {@code @} or its value
     *                                  has another type
     */
    public static SqlFilter parse(String expression, Map<String, Object> parameters) throws FilterSyntaxException {
        Map<String, Object> checked = checkParameters(parameters);
        return new SqlFilter(expression, declared(parameters, checked), Parser.parseFilter(expression, checked));
    }

    /**
     * RUL-13: the parameters as given, for {@link #parameters()} (an {@code int} stays an {@code int}, so the
     * management API writes it back with its own type); only date-times take their checked form.
     */
    static Map<String, Object> declared(Map<String, Object> parameters, Map<String, Object> checked) {
        Map<String, Object> declared = new LinkedHashMap<>();
        checked.forEach(
                (name, value) -> declared.put(name, value instanceof OffsetDateTime ? value : parameters.get(name)));
        return Collections.unmodifiableMap(declared);
    }

    /** The parameters' values as given, by name ({@code @color}); empty when there are none (RUL-13). */
    public Map<String, Object> parameters() {
        return parameters;
    }

    /** Validates parameters and widens their numbers, keeping their order. */
    static Map<String, Object> checkParameters(Map<String, Object> parameters) {
        Map<String, Object> checked = new LinkedHashMap<>();
        parameters.forEach((name, value) -> {
            if (name == null || !name.startsWith("@") || name.length() < 2) {
                throw new IllegalArgumentException("A parameter's name starts with '@', was '" + name + "'.");
            }
            Object widened = value instanceof Integer || value instanceof Short || value instanceof Byte
                    ? (Object) ((Number) value).longValue()
                    : value instanceof Float f ? (Object) f.doubleValue() : dateTime(value);
            if (!(widened instanceof String
                    || widened instanceof Boolean
                    || widened instanceof Long
                    || widened instanceof Double
                    || widened instanceof OffsetDateTime)) {
                throw new IllegalArgumentException("The parameter " + name + " has a value of type "
                        + (value == null ? "null" : value.getClass().getName())
                        + "; a parameter is a string, boolean, integral number, decimal or date-time.");
            }
            checked.put(name, widened);
        });
        return Collections.unmodifiableMap(checked);
    }

    /** RUL-10: a date-time parameter as an {@link OffsetDateTime} (an instant or date at UTC); others unchanged. */
    private static Object dateTime(Object value) {
        if (value instanceof Instant instant) {
            return instant.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof Date date) {
            return date.toInstant().atOffset(ZoneOffset.UTC);
        }
        if (value instanceof ZonedDateTime zoned) {
            return zoned.toOffsetDateTime();
        }
        return value;
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
        return other instanceof SqlFilter that
                && that.expression.equals(expression)
                && that.parameters.equals(parameters);
    }

    @Override
    public int hashCode() {
        return expression.hashCode() * 31 + parameters.hashCode();
    }

    @Override
    public String toString() {
        return "SqlFilter[" + expression + (parameters.isEmpty() ? "" : ", " + parameters) + "]";
    }
}
