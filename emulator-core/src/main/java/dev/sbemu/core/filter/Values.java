package dev.sbemu.core.filter;

import dev.sbemu.core.AmqpDecimal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.Date;
import java.util.UUID;

/**
 * The value semantics of the filter language (SPEC RUL-6). Null stands for UNKNOWN (a missing
 * property or a null value). Integer-like values are 64-bit integers, Float, Double, BigDecimal and AMQP's
 * decimals are doubles, and the two mix by promoting to double as C# does. Strings compare ordinally and are
 * never converted to numbers. An operation on mismatched types yields UNKNOWN; nothing here throws.
 */
final class Values {

    enum Comparison {
        EQ,
        NE,
        LT,
        LE,
        GT,
        GE
    }

    enum Arithmetic {
        ADD,
        SUBTRACT,
        MULTIPLY,
        DIVIDE,
        MODULO
    }

    private Values() {}

    /** Maps a property value onto the language's types: Long, Double, String, Boolean, Instant, ... */
    static Object normalize(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Double
                || value instanceof Float
                || value instanceof BigDecimal
                || value instanceof AmqpDecimal) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof BigInteger) {
            BigInteger big = (BigInteger) value;
            return big.bitLength() < Long.SIZE ? (Object) big.longValue() : (Object) big.doubleValue();
        }
        if (value instanceof Number other) {
            // Other numbers are integral ones of other libraries: AMQP's unsigned integers (proton-j's
            // UnsignedInteger, ...) come from clients that send a positive integer as uint (rhea, the
            // JavaScript SDK's AMQP library). The service compares them as numbers.
            try {
                return normalize(new BigInteger(other.toString()));
            } catch (NumberFormatException notIntegral) {
                return other.doubleValue();
            }
        }
        if (value instanceof Character) {
            return value.toString();
        }
        if (value instanceof OffsetDateTime) {
            return ((OffsetDateTime) value).toInstant();
        }
        if (value instanceof ZonedDateTime) {
            return ((ZonedDateTime) value).toInstant();
        }
        if (value instanceof Date date) {
            return date.toInstant(); // an AMQP timestamp
        }
        return value;
    }

    /** Reads a value as a truth value: TRUE, FALSE, or null for UNKNOWN (anything not boolean). */
    static Boolean truth(Object value) {
        return value instanceof Boolean ? (Boolean) value : null;
    }

    static Boolean compare(Comparison op, Object leftValue, Object rightValue) {
        Object left = normalize(leftValue);
        Object right = normalize(rightValue);
        if (left == null || right == null) {
            return null;
        }
        if (left instanceof Long && right instanceof Long) {
            return ordered(op, Long.compare((Long) left, (Long) right));
        }
        if (isNumber(left) && isNumber(right)) {
            return compareDoubles(op, ((Number) left).doubleValue(), ((Number) right).doubleValue());
        }
        if (left instanceof String && right instanceof String) {
            return ordered(op, ((String) left).compareTo((String) right));
        }
        if (left instanceof Instant && right instanceof Instant) {
            return ordered(op, ((Instant) left).compareTo((Instant) right));
        }
        if (left instanceof Duration && right instanceof Duration) {
            return ordered(op, ((Duration) left).compareTo((Duration) right));
        }
        if (left instanceof byte[] && right instanceof byte[]) {
            return equality(op, Arrays.equals((byte[]) left, (byte[]) right));
        }
        if ((left instanceof Boolean || left instanceof UUID) && left.getClass() == right.getClass()) {
            return equality(op, left.equals(right));
        }
        return null;
    }

    private static boolean isNumber(Object value) {
        return value instanceof Long || value instanceof Double;
    }

    private static Boolean ordered(Comparison op, int cmp) {
        switch (op) {
            case EQ:
                return cmp == 0;
            case NE:
                return cmp != 0;
            case LT:
                return cmp < 0;
            case LE:
                return cmp <= 0;
            case GT:
                return cmp > 0;
            default:
                return cmp >= 0;
        }
    }

    private static Boolean compareDoubles(Comparison op, double a, double b) {
        switch (op) {
            case EQ:
                return a == b;
            case NE:
                return a != b;
            case LT:
                return a < b;
            case LE:
                return a <= b;
            case GT:
                return a > b;
            default:
                return a >= b;
        }
    }

    /** Only {@code =} and {@code <>} are defined on types without an order. */
    private static Boolean equality(Comparison op, boolean equal) {
        if (op == Comparison.EQ) {
            return equal;
        }
        return op == Comparison.NE ? !equal : null;
    }

    static Object arithmetic(Arithmetic op, Object leftValue, Object rightValue) {
        Object left = normalize(leftValue);
        Object right = normalize(rightValue);
        if (left == null || right == null) {
            return null;
        }
        if (left instanceof Long && right instanceof Long) {
            return longArithmetic(op, (Long) left, (Long) right);
        }
        if (isNumber(left) && isNumber(right)) {
            return doubleArithmetic(op, ((Number) left).doubleValue(), ((Number) right).doubleValue());
        }
        if (op == Arithmetic.ADD && left instanceof String && right instanceof String) {
            return (String) left + right;
        }
        return timeArithmetic(op, left, right);
    }

    /**
     * 64-bit integer arithmetic, wrapping on overflow like unchecked C#; a division or remainder by zero
     * fails as C#'s does (RUL-8), {@code Long.MIN_VALUE / -1} is UNKNOWN.
     */
    private static Object longArithmetic(Arithmetic op, long a, long b) {
        if ((op == Arithmetic.DIVIDE || op == Arithmetic.MODULO) && b == 0) {
            throw FilterEvaluationException.divideByZero();
        }
        switch (op) {
            case ADD:
                return a + b;
            case SUBTRACT:
                return a - b;
            case MULTIPLY:
                return a * b;
            case DIVIDE:
                return a == Long.MIN_VALUE && b == -1 ? null : (Object) (a / b);
            default:
                return a == Long.MIN_VALUE && b == -1 ? null : (Object) (a % b);
        }
    }

    private static Object doubleArithmetic(Arithmetic op, double a, double b) {
        switch (op) {
            case ADD:
                return a + b;
            case SUBTRACT:
                return a - b;
            case MULTIPLY:
                return a * b;
            case DIVIDE:
                return a / b;
            default:
                return a % b;
        }
    }

    /** Instant ± Duration, Instant - Instant and Duration ± Duration, as DateTime and TimeSpan in C#. */
    private static Object timeArithmetic(Arithmetic op, Object left, Object right) {
        try {
            if (left instanceof Instant && right instanceof Duration) {
                Instant instant = (Instant) left;
                Duration duration = (Duration) right;
                return op == Arithmetic.ADD
                        ? instant.plus(duration)
                        : op == Arithmetic.SUBTRACT ? instant.minus(duration) : null;
            }
            if (left instanceof Duration && right instanceof Instant && op == Arithmetic.ADD) {
                return ((Instant) right).plus((Duration) left);
            }
            if (left instanceof Instant && right instanceof Instant && op == Arithmetic.SUBTRACT) {
                return Duration.between((Instant) right, (Instant) left);
            }
            if (left instanceof Duration && right instanceof Duration) {
                Duration a = (Duration) left;
                Duration b = (Duration) right;
                return op == Arithmetic.ADD ? a.plus(b) : op == Arithmetic.SUBTRACT ? a.minus(b) : null;
            }
        } catch (ArithmeticException | DateTimeException outOfRange) {
            return null;
        }
        return null;
    }

    static Object negate(Object value) {
        Object v = normalize(value);
        if (v instanceof Long) {
            return -(Long) v;
        }
        if (v instanceof Double) {
            return -(Double) v;
        }
        if (v instanceof Duration) {
            try {
                return ((Duration) v).negated();
            } catch (ArithmeticException outOfRange) {
                return null;
            }
        }
        return null;
    }

    static Object plus(Object value) {
        Object v = normalize(value);
        return isNumber(v) || v instanceof Duration ? v : null;
    }
}
