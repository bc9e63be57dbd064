package dev.sbemu.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A queue's properties, as the service has them.
 * Start from {@link #builder()} (the service's defaults), or change an existing one with {@link #toBuilder()}.
 *
 * @param lockDuration how long a peek-lock receive locks a message (LOCK-1: 5 s to 5 min, default 60 s)
 * @param maxDeliveryCount deliveries before dead-lettering (DLQ-2: at least 1, default 10)
 * @param defaultMessageTimeToLive default and cap of message TTLs (TTL-6, TTL-7: default never)
 * @param deadLetteringOnMessageExpiration whether expired messages are dead-lettered (TTL-9)
 * @param autoDeleteOnIdle idle time after which the entity is deleted (ADI-2: at least 5 min, default never)
 * @param requiresSession whether the entity is session-enabled
 * @param requiresDuplicateDetection whether duplicate detection is on (DUP-1)
 * @param duplicateDetectionHistoryTimeWindow the duplicate detection window (20 s to 7 days, default 60 s)
 * @param forwardTo the queue or topic every message is forwarded to, or null (FWD-1)
 * @param forwardDeadLetteredMessagesTo the queue or topic dead-lettered messages are forwarded to, or null
 * @param maxSizeInMegabytes the entity's capacity (default 1024)
 * @param status the status
 * @param enablePartitioning whether the entity is partitioned (SEQ-2)
 * @param enableBatchedOperations stored only
 * @param maxMessageSizeInKilobytes the largest message on a Premium namespace, or null for the tier default (LIM-1)
 * @param userMetadata free text, stored only
 * @param authorizationRules the entity's shared access rules, stored only (LIM-4); at most 12, names unique
 */
public record QueueOptions(
        Duration lockDuration,
        int maxDeliveryCount,
        Duration defaultMessageTimeToLive,
        boolean deadLetteringOnMessageExpiration,
        Duration autoDeleteOnIdle,
        boolean requiresSession,
        boolean requiresDuplicateDetection,
        Duration duplicateDetectionHistoryTimeWindow,
        String forwardTo,
        String forwardDeadLetteredMessagesTo,
        long maxSizeInMegabytes,
        EntityStatus status,
        boolean enablePartitioning,
        boolean enableBatchedOperations,
        Long maxMessageSizeInKilobytes,
        String userMetadata,
        List<AuthorizationRule> authorizationRules) {

    public QueueOptions {
        authorizationRules = authorizationRules == null ? List.of() : List.copyOf(authorizationRules);
        Objects.requireNonNull(lockDuration, "lockDuration");
        Objects.requireNonNull(defaultMessageTimeToLive, "defaultMessageTimeToLive");
        Objects.requireNonNull(autoDeleteOnIdle, "autoDeleteOnIdle");
        Objects.requireNonNull(duplicateDetectionHistoryTimeWindow, "duplicateDetectionHistoryTimeWindow");
        Objects.requireNonNull(status, "status");
        forwardTo = blankToNull(forwardTo);
        forwardDeadLetteredMessagesTo = blankToNull(forwardDeadLetteredMessagesTo);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** The service's defaults. */
    public static QueueOptions defaults() {
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

    /** Builds a {@link QueueOptions}; unset values keep the service's defaults. */
    public static final class Builder {
        private Duration lockDuration = Duration.ofSeconds(60);
        private int maxDeliveryCount = 10;
        private Duration defaultMessageTimeToLive = Durations.MAX;
        private boolean deadLetteringOnMessageExpiration = false;
        private Duration autoDeleteOnIdle = Durations.MAX;
        private boolean requiresSession = false;
        private boolean requiresDuplicateDetection = false;
        private Duration duplicateDetectionHistoryTimeWindow = Duration.ofSeconds(60);
        private String forwardTo = null;
        private String forwardDeadLetteredMessagesTo = null;
        private long maxSizeInMegabytes = 1024;
        private EntityStatus status = EntityStatus.ACTIVE;
        private boolean enablePartitioning = false;
        private boolean enableBatchedOperations = true;
        private Long maxMessageSizeInKilobytes = null;
        private String userMetadata = null;
        private List<AuthorizationRule> authorizationRules = List.of();

        private Builder() {}

        private Builder(QueueOptions o) {
            lockDuration = o.lockDuration;
            maxDeliveryCount = o.maxDeliveryCount;
            defaultMessageTimeToLive = o.defaultMessageTimeToLive;
            deadLetteringOnMessageExpiration = o.deadLetteringOnMessageExpiration;
            autoDeleteOnIdle = o.autoDeleteOnIdle;
            requiresSession = o.requiresSession;
            requiresDuplicateDetection = o.requiresDuplicateDetection;
            duplicateDetectionHistoryTimeWindow = o.duplicateDetectionHistoryTimeWindow;
            forwardTo = o.forwardTo;
            forwardDeadLetteredMessagesTo = o.forwardDeadLetteredMessagesTo;
            maxSizeInMegabytes = o.maxSizeInMegabytes;
            status = o.status;
            enablePartitioning = o.enablePartitioning;
            enableBatchedOperations = o.enableBatchedOperations;
            maxMessageSizeInKilobytes = o.maxMessageSizeInKilobytes;
            userMetadata = o.userMetadata;
            authorizationRules = o.authorizationRules;
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

        public Builder autoDeleteOnIdle(Duration autoDeleteOnIdle) {
            this.autoDeleteOnIdle = autoDeleteOnIdle;
            return this;
        }

        public Builder requiresSession(boolean requiresSession) {
            this.requiresSession = requiresSession;
            return this;
        }

        public Builder requiresDuplicateDetection(boolean requiresDuplicateDetection) {
            this.requiresDuplicateDetection = requiresDuplicateDetection;
            return this;
        }

        public Builder duplicateDetectionHistoryTimeWindow(Duration duplicateDetectionHistoryTimeWindow) {
            this.duplicateDetectionHistoryTimeWindow = duplicateDetectionHistoryTimeWindow;
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

        public Builder maxSizeInMegabytes(long maxSizeInMegabytes) {
            this.maxSizeInMegabytes = maxSizeInMegabytes;
            return this;
        }

        public Builder status(EntityStatus status) {
            this.status = status;
            return this;
        }

        public Builder enablePartitioning(boolean enablePartitioning) {
            this.enablePartitioning = enablePartitioning;
            return this;
        }

        public Builder enableBatchedOperations(boolean enableBatchedOperations) {
            this.enableBatchedOperations = enableBatchedOperations;
            return this;
        }

        public Builder maxMessageSizeInKilobytes(Long maxMessageSizeInKilobytes) {
            this.maxMessageSizeInKilobytes = maxMessageSizeInKilobytes;
            return this;
        }

        public Builder userMetadata(String userMetadata) {
            this.userMetadata = userMetadata;
            return this;
        }

        /** The entity's shared access authorization rules (LIM-4): stored and returned, not enforced. */
        public Builder authorizationRules(List<AuthorizationRule> authorizationRules) {
            this.authorizationRules = authorizationRules;
            return this;
        }

        public QueueOptions build() {
            return new QueueOptions(
                    lockDuration,
                    maxDeliveryCount,
                    defaultMessageTimeToLive,
                    deadLetteringOnMessageExpiration,
                    autoDeleteOnIdle,
                    requiresSession,
                    requiresDuplicateDetection,
                    duplicateDetectionHistoryTimeWindow,
                    forwardTo,
                    forwardDeadLetteredMessagesTo,
                    maxSizeInMegabytes,
                    status,
                    enablePartitioning,
                    enableBatchedOperations,
                    maxMessageSizeInKilobytes,
                    userMetadata,
                    authorizationRules);
        }
    }
}
