package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/** An application property that a {@link CorrelationFilter} matches: its name, its value and the value's type. */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Property {

    /** The property's name. */
    String name();

    /** The value, as text; converted to {@link #type()}. */
    String value();

    /** The value's type. */
    Type type() default Type.STRING;

    /** The types a property value can have. */
    enum Type {
        STRING,
        LONG,
        DOUBLE,
        BOOLEAN
    }
}
