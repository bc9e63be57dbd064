package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * A rule of a {@link Subscription}: a SQL filter ({@link #sql()}) or a correlation filter
 * ({@link #correlation()}), never both; with neither, a true filter. An optional SQL {@link #action()}
 * modifies the subscription's copy of each matching message.
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Rule {

    /** The rule's name. */
    String name();

    /** A SQL filter expression such as {@code "color = 'red' AND sys.Label LIKE 'order%'"}; {@code ""} for none. */
    String sql() default "";

    /** A correlation filter; the default, with no field set, means none. */
    CorrelationFilter correlation() default @CorrelationFilter;

    /** A SQL action such as {@code "SET handled = TRUE; REMOVE draft"}; {@code ""} for none. */
    String action() default "";
}
