package dev.sbemu.core.filter;

import java.util.Map;

/** One statement of a SQL rule action (SPEC RUL-4, RUL-7). */
sealed interface Statement {

    void applyTo(FilterMessage message);

    /**
     * {@code SET property = expression}. An application property whose name differs only in case is
     * updated under its existing spelling, and the value is converted to its existing type.
     */
    record Set(Expr.Property target, Expr value) implements Statement {
        @Override
        public void applyTo(FilterMessage message) {
            Object result = value.evaluate(message);
            if (target.system() != null) {
                message.setSystemProperty(target.system(), ValueConversion.toSystemValue(result));
                return;
            }
            Map<String, Object> properties = message.applicationProperties();
            String key = PropertyAccess.findKey(properties, target.name());
            if (key == null) {
                properties.put(target.name(), result);
            } else {
                properties.put(key, ValueConversion.toTypeOf(properties.get(key), result));
            }
        }
    }

    /** {@code REMOVE property}; for a settable system property, clears it. */
    record Remove(Expr.Property target) implements Statement {
        @Override
        public void applyTo(FilterMessage message) {
            if (target.system() != null) {
                message.setSystemProperty(target.system(), null);
                return;
            }
            Map<String, Object> properties = message.applicationProperties();
            String key = PropertyAccess.findKey(properties, target.name());
            if (key != null) {
                properties.remove(key);
            }
        }
    }
}
