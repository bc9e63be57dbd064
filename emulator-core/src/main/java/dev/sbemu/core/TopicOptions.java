package dev.sbemu.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A topic's properties, as the service has them.
 * Start from {@link #builder()} (the service's defaults), or change an existing one with {@link #toBuilder()}.
 *
 * @param defaultMessageTimeToLive default and cap of message TTLs (TTL-6, TTL-7: default never)
 * @param autoDeleteOnIdle idle time after which the entity is deleted (ADI-2: at least 5 min, default never)
 * @param requiresDuplicateDetection whether duplicate detection is on (DUP-1)
 * @param duplicateDetectionHistoryTimeWindow the duplicate detection window (20 s to 7 days, default 60 s)
 * @param maxSizeInMegabytes the entity's capacity (default 1024)
 * @param status the status
 * @param enablePartitioning whether the entity is partitioned (SEQ-2)
 * @param enableBatchedOperations stored only
 * @param supportOrdering stored only
 * @param maxMessageSizeInKilobytes the largest message on a Premium namespace, or null for the tier default (LIM-1)
 * @param userMetadata free text, stored only
 * @param authorizationRules the entity's shared access rules, stored only (LIM-4); at most 12, names unique
 */
public record TopicOptions(
        Duration defaultMessageTimeToLive,
        Duration autoDeleteOnIdle,
        boolean requiresDuplicateDetection,
        Duration duplicateDetectionHistoryTimeWindow,
        long maxSizeInMegabytes,
        EntityStatus status,
        boolean enablePartitioning,
        boolean enableBatchedOperations,
        boolean supportOrdering,
        Long maxMessageSizeInKilobytes,
        String userMetadata,
        List<AuthorizationRule> authorizationRules) {

    public TopicOptions {
        authorizationRules = authorizationRules == null ? List.of() : List.copyOf(authorizationRules);
        Objects.requireNonNull(defaultMessageTimeToLive, "defaultMessageTimeToLive");
        Objects.requireNonNull(autoDeleteOnIdle, "autoDeleteOnIdle");
        Objects.requireNonNull(duplicateDetectionHistoryTimeWindow, "duplicateDetectionHistoryTimeWindow");
        Objects.requireNonNull(status, "status");
    }

    /** The service's defaults. */
    public static TopicOptions defaults() {
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

    /** Builds a {@link TopicOptions}; unset values keep the service's defaults. */
    public static final class Builder {
        private Duration defaultMessageTimeToLive = Durations.MAX;
        private Duration autoDeleteOnIdle = Durations.MAX;
        private boolean requiresDuplicateDetection = false;
        private Duration duplicateDetectionHistoryTimeWindow = Duration.ofSeconds(60);
        private long maxSizeInMegabytes = 1024;
        private EntityStatus status = EntityStatus.ACTIVE;
        private boolean enablePartitioning = false;
        private boolean enableBatchedOperations = true;
        private boolean supportOrdering = false;
        private Long maxMessageSizeInKilobytes = null;
        private String userMetadata = null;
        private List<AuthorizationRule> authorizationRules = List.of();

        private Builder() {}

        private Builder(TopicOptions o) {
            defaultMessageTimeToLive = o.defaultMessageTimeToLive;
            autoDeleteOnIdle = o.autoDeleteOnIdle;
            requiresDuplicateDetection = o.requiresDuplicateDetection;
            duplicateDetectionHistoryTimeWindow = o.duplicateDetectionHistoryTimeWindow;
            maxSizeInMegabytes = o.maxSizeInMegabytes;
            status = o.status;
            enablePartitioning = o.enablePartitioning;
            enableBatchedOperations = o.enableBatchedOperations;
            supportOrdering = o.supportOrdering;
            maxMessageSizeInKilobytes = o.maxMessageSizeInKilobytes;
            userMetadata = o.userMetadata;
            authorizationRules = o.authorizationRules;
        }

        public Builder defaultMessageTimeToLive(Duration defaultMessageTimeToLive) {
            this.defaultMessageTimeToLive = defaultMessageTimeToLive;
            return this;
        }

        public Builder autoDeleteOnIdle(Duration autoDeleteOnIdle) {
            this.autoDeleteOnIdle = autoDeleteOnIdle;
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

        public Builder supportOrdering(boolean supportOrdering) {
            this.supportOrdering = supportOrdering;
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

        public TopicOptions build() {
            return new TopicOptions(
                    defaultMessageTimeToLive,
                    autoDeleteOnIdle,
                    requiresDuplicateDetection,
                    duplicateDetectionHistoryTimeWindow,
                    maxSizeInMegabytes,
                    status,
                    enablePartitioning,
                    enableBatchedOperations,
                    supportOrdering,
                    maxMessageSizeInKilobytes,
                    userMetadata,
                    authorizationRules);
        }
    }
}
