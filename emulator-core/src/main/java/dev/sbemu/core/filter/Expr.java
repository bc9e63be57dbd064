package dev.sbemu.core.filter;

import java.util.List;
import java.util.UUID;

/**
 * The syntax tree of a filter or action expression. Each node evaluates itself against a message:
 * values are Long, Double, String, Boolean, UUID, Instant, ... and null stands for UNKNOWN. Predicates
 * yield TRUE, FALSE or null (UNKNOWN) under SQL's three-valued logic (SPEC RUL-6). Evaluation never
 * throws.
 */
sealed interface Expr {

    Object evaluate(FilterMessage message);

    /** Tells whether this node can stand as a condition (it may yield a boolean). */
    default boolean isPredicate() {
        return true;
    }

    /** A constant: Long, Double, String, Boolean or null. */
    record Literal(Object value) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            return value;
        }

        @Override
        public boolean isPredicate() {
            return value instanceof Boolean;
        }
    }

    /** {@code sys.Name} when {@code system} is set, else the application property {@code name}. */
    record Property(SystemProperty system, String name) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            return system != null ? message.systemProperty(system) : PropertyAccess.user(message, name);
        }

        boolean exists(FilterMessage message) {
            return system != null ? message.systemProperty(system) != null : PropertyAccess.userExists(message, name);
        }
    }

    /** {@code newid()}: a new random UUID. */
    record NewId() implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            return UUID.randomUUID();
        }

        @Override
        public boolean isPredicate() {
            return false;
        }
    }

    /** {@code property(name)} or {@code p(name)}: the property named by a string expression. */
    record PropertyByName(Expr name) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            Object value = Values.normalize(name.evaluate(message));
            return value instanceof String ? PropertyAccess.byDynamicName(message, (String) value) : null;
        }
    }

    /** Unary {@code +} or {@code -}. */
    record Sign(boolean negative, Expr operand) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            Object value = operand.evaluate(message);
            return negative ? Values.negate(value) : Values.plus(value);
        }

        @Override
        public boolean isPredicate() {
            return false;
        }
    }

    /** {@code + - * / %}. */
    record Arithmetic(Values.Arithmetic op, Expr left, Expr right) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            return Values.arithmetic(op, left.evaluate(message), right.evaluate(message));
        }

        @Override
        public boolean isPredicate() {
            return false;
        }
    }

    /** {@code = <> != > >= < <=}. */
    record Comparison(Values.Comparison op, Expr left, Expr right) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            return Values.compare(op, left.evaluate(message), right.evaluate(message));
        }
    }

    record And(Expr left, Expr right) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            Boolean l = Values.truth(left.evaluate(message));
            if (Boolean.FALSE.equals(l)) {
                return false;
            }
            Boolean r = Values.truth(right.evaluate(message));
            if (Boolean.FALSE.equals(r)) {
                return false;
            }
            return l == null || r == null ? null : Boolean.TRUE;
        }
    }

    record Or(Expr left, Expr right) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            Boolean l = Values.truth(left.evaluate(message));
            if (Boolean.TRUE.equals(l)) {
                return true;
            }
            Boolean r = Values.truth(right.evaluate(message));
            if (Boolean.TRUE.equals(r)) {
                return true;
            }
            return l == null || r == null ? null : Boolean.FALSE;
        }
    }

    record Not(Expr operand) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            Boolean value = Values.truth(operand.evaluate(message));
            return value == null ? null : !value;
        }
    }

    /** {@code IS [NOT] NULL}: true for a missing property and for one present with a null value. */
    record IsNull(Expr operand, boolean negated) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            return (operand.evaluate(message) == null) != negated;
        }
    }

    /** {@code EXISTS(property)}: presence only, whatever the value. */
    record Exists(Property property) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            return property.exists(message);
        }
    }

    /** {@code [NOT] IN (...)}: UNKNOWN only when the left operand is. */
    record In(Expr operand, List<Expr> candidates, boolean negated) implements Expr {
        public In {
            candidates = List.copyOf(candidates);
        }

        @Override
        public Object evaluate(FilterMessage message) {
            Object value = operand.evaluate(message);
            if (value == null) {
                return null;
            }
            for (Expr candidate : candidates) {
                if (Boolean.TRUE.equals(Values.compare(Values.Comparison.EQ, value, candidate.evaluate(message)))) {
                    return !negated;
                }
            }
            return negated;
        }
    }

    /**
     * {@code [NOT] LIKE pattern [ESCAPE c]}: UNKNOWN when any operand is UNKNOWN or not a string.
     * {@code compiled} is the pattern compiled at parse time when pattern and escape are constants.
     */
    record Like(Expr operand, Expr pattern, Expr escape, boolean negated, LikePattern compiled) implements Expr {
        @Override
        public Object evaluate(FilterMessage message) {
            Object value = Values.normalize(operand.evaluate(message));
            if (!(value instanceof String)) {
                return null;
            }
            LikePattern like = compiled != null ? compiled : compile(message);
            return like == null ? null : (Object) (like.matches((String) value) != negated);
        }

        private LikePattern compile(FilterMessage message) {
            Object patternValue = Values.normalize(pattern.evaluate(message));
            if (!(patternValue instanceof String)) {
                return null;
            }
            Character escapeChar = null;
            if (escape != null) {
                Object escapeValue = Values.normalize(escape.evaluate(message));
                if (!(escapeValue instanceof String) || ((String) escapeValue).length() != 1) {
                    return null;
                }
                escapeChar = ((String) escapeValue).charAt(0);
            }
            return LikePattern.compile((String) patternValue, escapeChar);
        }
    }
}
