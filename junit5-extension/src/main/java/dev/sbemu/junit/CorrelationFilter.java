package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * A correlation filter of a {@link Rule}: every field that is set (not {@code ""}) must equal the message's
 * value exactly, and every {@link #properties() property} the application property of that name; all
 * conditions are ANDed (SPEC RUL-3).
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@API(status = EXPERIMENTAL, since = "0.1")
public @interface CorrelationFilter {

    String correlationId() default "";

    String messageId() default "";

    String to() default "";

    String replyTo() default "";

    /** The subject ({@code sys.Label}). */
    String subject() default "";

    String sessionId() default "";

    String replyToSessionId() default "";

    String contentType() default "";

    /** Application properties to match. */
    Property[] properties() default {};
}
