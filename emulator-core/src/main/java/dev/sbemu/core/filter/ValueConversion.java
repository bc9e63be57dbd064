package dev.sbemu.core.filter;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.UUID;

/**
 * Converts the result of a {@code SET} to the type of the property it replaces, as the service does
 * (SPEC RUL-7: an int property halved stays an int). When no sensible conversion exists (a string
 * that is not a number, a value out of the target's range) the value is stored as computed.
 */
final class ValueConversion {

    private ValueConversion() {}

    /** The value for a settable system property: they are all strings. */
    static String toSystemValue(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    static Object toTypeOf(Object existing, Object value) {
        if (existing == null || value == null || existing.getClass() == value.getClass()) {
            return value;
        }
        Object converted = convert(existing, value);
        return converted == null ? value : converted;
    }

    private static Object convert(Object existing, Object value) {
        if (existing instanceof String) {
            return String.valueOf(value);
        }
        if (existing instanceof Integer) {
            Long l = toLong(value);
            return l != null && l == l.intValue() ? (Object) l.intValue() : null;
        }
        if (existing instanceof Long) {
            return toLong(value);
        }
        if (existing instanceof Short) {
            Long l = toLong(value);
            return l != null && l == l.shortValue() ? (Object) l.shortValue() : null;
        }
        if (existing instanceof Byte) {
            Long l = toLong(value);
            return l != null && l == l.byteValue() ? (Object) l.byteValue() : null;
        }
        if (existing instanceof Double) {
            return toDouble(value);
        }
        if (existing instanceof Float) {
            Double d = toDouble(value);
            return d == null ? null : (Object) d.floatValue();
        }
        if (existing instanceof BigDecimal) {
            Double d = toDouble(value);
            return d == null || d.isNaN() || d.isInfinite() ? null : BigDecimal.valueOf(d);
        }
        if (existing instanceof Boolean && value instanceof String) {
            String s = ((String) value).trim().toLowerCase(Locale.ROOT);
            return s.equals("true") ? Boolean.TRUE : s.equals("false") ? Boolean.FALSE : null;
        }
        if (existing instanceof Character && value instanceof String && ((String) value).length() == 1) {
            return ((String) value).charAt(0);
        }
        if (existing instanceof UUID && value instanceof String) {
            try {
                return UUID.fromString((String) value);
            } catch (IllegalArgumentException notAUuid) {
                return null;
            }
        }
        return null;
    }

    /** Integers as they are, doubles rounded half to even (as C#'s Convert), numeric strings parsed. */
    private static Long toLong(Object value) {
        Object v = Values.normalize(value);
        if (v instanceof Long) {
            return (Long) v;
        }
        if (v instanceof Double) {
            double d = Math.rint((Double) v);
            return Double.isFinite(d) && d >= Long.MIN_VALUE && d < 0x1p63 ? (Long) (long) d : null;
        }
        if (v instanceof String) {
            try {
                return Long.parseLong(((String) v).trim());
            } catch (NumberFormatException notANumber) {
                return null;
            }
        }
        return null;
    }

    private static Double toDouble(Object value) {
        Object v = Values.normalize(value);
        if (v instanceof Long || v instanceof Double) {
            return ((Number) v).doubleValue();
        }
        if (v instanceof String) {
            try {
                return Double.parseDouble(((String) v).trim());
            } catch (NumberFormatException notANumber) {
                return null;
            }
        }
        return null;
    }
}
