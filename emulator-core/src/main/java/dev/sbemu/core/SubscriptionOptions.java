package dev.sbemu.core;

import java.time.Duration;
import java.util.Objects;

/**
 * A subscription's properties, as the service has them.
 * Start from {@link #builder()} (the service's defaults), or change an existing one with {@link #toBuilder()}.
 *
 * @param lockDuration how long a peek-lock receive locks a message (LOCK-1: 5 s to 5 min, default 60 s)
 * @param maxDeliveryCount deliveries before dead-lettering (DLQ-2: at least 1, default 10)
 * @param defaultMessageTimeToLive default and cap of message TTLs (TTL-6, TTL-7: default never)
 * @param deadLetteringOnMessageExpiration whether expired messages are dead-lettered (TTL-9)
 * @param deadLetteringOnFilterEvaluationExceptions whether a message whose filter evaluation fails is dead-lettered
 * @param autoDeleteOnIdle idle time after which the entity is deleted (ADI-2: at least 5 min, default never)
 * @param requiresSession whether the entity is session-enabled
 * @param forwardTo the queue or topic every message is forwarded to, or null (FWD-1)
 * @param forwardDeadLetteredMessagesTo the queue or topic dead-lettered messages are forwarded to, or null
 * @param status the status
 * @param enableBatchedOperations stored only
 * @param userMetadata free text, stored only
 */
public record SubscriptionOptions(
        Duration lockDuration,
        int maxDeliveryCount,
        Duration defaultMessageTimeToLive,
        boolean deadLetteringOnMessageExpiration,
        boolean deadLetteringOnFilterEvaluationExceptions,
        Duration autoDeleteOnIdle,
        boolean requiresSession,
        String forwardTo,
        String forwardDeadLetteredMessagesTo,
        EntityStatus status,
        boolean enableBatchedOperations,
        String userMetadata) {

    public SubscriptionOptions {
        Objects.requireNonNull(lockDuration, "lockDuration");
        Objects.requireNonNull(defaultMessageTimeToLive, "defaultMessageTimeToLive");
        Objects.requireNonNull(autoDeleteOnIdle, "autoDeleteOnIdle");
        Objects.requireNonNull(status, "status");
        forwardTo = blankToNull(forwardTo);
        forwardDeadLetteredMessagesTo = blankToNull(forwardDeadLetteredMessagesTo);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** The service's defaults. */
    public static SubscriptionOptions defaults() {
        return builder().build();
    }

    /** A builder holding the service's defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds a {@link SubscriptionOptions}; unset values keep the service's defaults. */
    public static final class Builder {
        private Duration lockDuration = Duration.ofSeconds(60);
        private int maxDeliveryCount = 10;
        private Duration defaultMessageTimeToLive = Durations.MAX;
        private boolean deadLetteringOnMessageExpiration = false;
        private boolean deadLetteringOnFilterEvaluationExceptions = true;
        private Duration autoDeleteOnIdle = Durations.MAX;
        private boolean requiresSession = false;
        private String forwardTo = null;
        private String forwardDeadLetteredMessagesTo = null;
        private EntityStatus status = EntityStatus.ACTIVE;
        private boolean enableBatchedOperations = true;
        private String userMetadata = null;

        private Builder() {}

        private Builder(SubscriptionOptions o) {
            lockDuration = o.lockDuration;
            maxDeliveryCount = o.maxDeliveryCount;
            defaultMessageTimeToLive = o.defaultMessageTimeToLive;
            deadLetteringOnMessageExpiration = o.deadLetteringOnMessageExpiration;
            deadLetteringOnFilterEvaluationExceptions = o.deadLetteringOnFilterEvaluationExceptions;
            autoDeleteOnIdle = o.autoDeleteOnIdle;
            requiresSession = o.requiresSession;
            forwardTo = o.forwardTo;
            forwardDeadLetteredMessagesTo = o.forwardDeadLetteredMessagesTo;
            status = o.status;
            enableBatchedOperations = o.enableBatchedOperations;
            userMetadata = o.userMetadata;
        }

        public Builder lockDuration(Duration lockDuration) {
            this.lockDuration = lockDuration;
            return this;
        }

        public Builder maxDeliveryCount(int maxDeliveryCount) {
            this.maxDeliveryCount = maxDeliveryCount;
            return this;
        }

        public Builder defaultMessageTimeToLive(Duration defaultMessageTimeToLive) {
            this.defaultMessageTimeToLive = defaultMessageTimeToLive;
            return this;
        }

        public Builder deadLetteringOnMessageExpiration(boolean deadLetteringOnMessageExpiration) {
            this.deadLetteringOnMessageExpiration = deadLetteringOnMessageExpiration;
            return this;
        }

        public Builder deadLetteringOnFilterEvaluationExceptions(boolean deadLetteringOnFilterEvaluationExceptions) {
            this.deadLetteringOnFilterEvaluationExceptions = deadLetteringOnFilterEvaluationExceptions;
            return this;
        }

        public Builder autoDeleteOnIdle(Duration autoDeleteOnIdle) {
            this.autoDeleteOnIdle = autoDeleteOnIdle;
            return this;
        }

        public Builder requiresSession(boolean requiresSession) {
            this.requiresSession = requiresSession;
            return this;
        }

        public Builder forwardTo(String forwardTo) {
            this.forwardTo = forwardTo;
            return this;
        }

        public Builder forwardDeadLetteredMessagesTo(String forwardDeadLetteredMessagesTo) {
            this.forwardDeadLetteredMessagesTo = forwardDeadLetteredMessagesTo;
            return this;
        }

        public Builder status(EntityStatus status) {
            this.status = status;
            return this;
        }

        public Builder enableBatchedOperations(boolean enableBatchedOperations) {
            this.enableBatchedOperations = enableBatchedOperations;
            return this;
        }

        public Builder userMetadata(String userMetadata) {
            this.userMetadata = userMetadata;
            return this;
        }

        public SubscriptionOptions build() {
            return new SubscriptionOptions(
                    lockDuration,
                    maxDeliveryCount,
                    defaultMessageTimeToLive,
                    deadLetteringOnMessageExpiration,
                    deadLetteringOnFilterEvaluationExceptions,
                    autoDeleteOnIdle,
                    requiresSession,
                    forwardTo,
                    forwardDeadLetteredMessagesTo,
                    status,
                    enableBatchedOperations,
                    userMetadata);
        }
    }
}
