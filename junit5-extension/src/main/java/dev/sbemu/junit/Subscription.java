package dev.sbemu.junit;

import dev.sbemu.core.EntityStatus;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A subscription of a {@link Topic}. Without {@link #rules()} it has the rule {@code $Default}, which takes
 * every message; with rules it has exactly those.
 *
 * <p>An attribute left out takes the real service's default, which {@link dev.sbemu.core.SubscriptionOptions}'s
 * builder holds (the annotation repeats none). Text attributes left out are {@code ""}; durations are ISO-8601
 * strings such as {@code "PT30S"}, {@code "PT10M"} or {@code "P1D"}; the other attributes that are not text are
 * arrays only so that "left out" (their default, {@code {}}) differs from every value: write one value, as in
 * {@code maxDeliveryCount = 3} or {@code requiresSession = true}. Values the real service rejects fail the test
 * with the attribute and the allowed range.
 *
 * <p>Experimental since 0.1. (Unlike the other public types it carries no {@code @API} annotation: Spring reads
 * its {@code status} attribute as a convention-based override of {@code @API.status} and warns on every test.)
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Subscription {

    /** The subscription's name. */
    String name();

    /** Its rules; none means the {@code $Default} rule. */
    Rule[] rules() default {};

    /** How long a peek-lock receive locks a message: {@code PT5S} to {@code PT5M}; default {@code PT1M}. */
    String lockDuration() default "";

    /** Deliveries before a message is dead-lettered: at least 1; default 10. */
    int[] maxDeliveryCount() default {};

    /** The default and the cap of message time-to-live (the topic's applies too); default never. */
    String defaultMessageTimeToLive() default "";

    /** Whether expired messages go to the dead-letter queue instead of being dropped. */
    boolean[] deadLetteringOnMessageExpiration() default {};

    /** Whether a message whose filter evaluation fails is dead-lettered; default true. */
    boolean[] deadLetteringOnFilterEvaluationExceptions() default {};

    /** Idle time after which the subscription is deleted: at least {@code PT5M}; default never. */
    String autoDeleteOnIdle() default "";

    /** Whether the subscription is session-enabled. */
    boolean[] requiresSession() default {};

    /** The queue or topic every message is forwarded to; {@code ""} for none. */
    String forwardTo() default "";

    /** The queue or topic dead-lettered messages are forwarded to; {@code ""} for none. */
    String forwardDeadLetteredMessagesTo() default "";

    /** The subscription's status; default active. */
    EntityStatus[] status() default {};

    /** Stored only; default true. */
    boolean[] enableBatchedOperations() default {};

    /** Free text, stored only; {@code ""} for none. */
    String userMetadata() default "";
}
