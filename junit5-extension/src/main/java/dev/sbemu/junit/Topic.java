package dev.sbemu.junit;

import dev.sbemu.core.EntityStatus;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A topic of a {@link ServiceBusEmulator}, with its subscriptions.
 *
 * <p>An attribute left out takes the real service's default, which {@link dev.sbemu.core.TopicOptions}'s builder
 * holds (the annotation repeats none). Text attributes left out are {@code ""}; durations are ISO-8601 strings such
 * as {@code "PT30S"}, {@code "PT10M"} or {@code "P1D"}; the other attributes that are not text are arrays only so
 * that "left out" (their default, {@code {}}) differs from every value: write one value, as in {@code
 * maxDeliveryCount = 3} or {@code requiresSession = true}. Values the real service rejects fail the test with the
 * attribute and the allowed range.
 *
 * <p>Experimental since 0.1. (Unlike the other public types it carries no {@code @API} annotation: Spring reads
 * its {@code status} attribute as a convention-based override of {@code @API.status} and warns on every test.)
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Topic {

    /** The topic's name. */
    String name();

    /** Its subscriptions. */
    Subscription[] subscriptions() default {};

    /** The default and the cap of message time-to-live; default never. */
    String defaultMessageTimeToLive() default "";

    /** Idle time after which the topic is deleted: at least {@code PT5M}; default never. */
    String autoDeleteOnIdle() default "";

    /** Whether duplicate detection is on. */
    boolean[] requiresDuplicateDetection() default {};

    /** The duplicate detection window: {@code PT20S} to {@code P7D}; default {@code PT1M}. */
    String duplicateDetectionHistoryTimeWindow() default "";

    /** The topic's capacity in megabytes; default 1024. */
    long[] maxSizeInMegabytes() default {};

    /** The topic's status; default active. */
    EntityStatus[] status() default {};

    /** Whether the topic is partitioned. */
    boolean[] enablePartitioning() default {};

    /** Stored only; default true. */
    boolean[] enableBatchedOperations() default {};

    /** Stored only. */
    boolean[] supportOrdering() default {};

    /** The largest message on a Premium namespace, 1024 to 102400; default the tier's. */
    long[] maxMessageSizeInKilobytes() default {};

    /** Free text, stored only; {@code ""} for none. */
    String userMetadata() default "";
}
