package dev.sbemu.junit;

import dev.sbemu.core.EntityStatus;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A topic of a {@link ServiceBusEmulator}, with its subscriptions. Every attribute defaults to the real
 * service's default; durations are ISO-8601 strings, {@code ""} meaning the service default.
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
    boolean requiresDuplicateDetection() default false;

    /** The duplicate detection window: {@code PT20S} to {@code P7D}; default {@code PT1M}. */
    String duplicateDetectionHistoryTimeWindow() default "";

    /** The topic's capacity in megabytes. */
    long maxSizeInMegabytes() default 1024;

    /** The topic's status. */
    EntityStatus status() default EntityStatus.ACTIVE;

    /** Whether the topic is partitioned. */
    boolean enablePartitioning() default false;

    /** Stored only. */
    boolean enableBatchedOperations() default true;

    /** Stored only. */
    boolean supportOrdering() default false;

    /** The largest message on a Premium namespace, 1024 to 102400; 0 (the default) for the tier's default. */
    long maxMessageSizeInKilobytes() default 0;

    /** Free text, stored only; {@code ""} for none. */
    String userMetadata() default "";
}
