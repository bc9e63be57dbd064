package dev.sbemu.core;

/**
 * The namespace's pricing tier; it sets the message size limit (LIM-1), the TTL cap (TTL-7) and the most queues and
 * topics (RES-6).
 */
public enum Tier {
    BASIC(256 * 1024, 10_000),
    STANDARD(256 * 1024, 10_000),
    /** One messaging unit: 1,000 queues and topics. */
    PREMIUM(1024 * 1024, 1_000);

    private final int defaultMaxMessageSizeBytes;
    private final int maxQueuesAndTopics;

    Tier(int defaultMaxMessageSizeBytes, int maxQueuesAndTopics) {
        this.defaultMaxMessageSizeBytes = defaultMaxMessageSizeBytes;
        this.maxQueuesAndTopics = maxQueuesAndTopics;
    }

    /**
     * The most queues and topics together in one namespace (Microsoft's "Service Bus quotas": 10,000 for Basic and
     * Standard, 1,000 per messaging unit for Premium); more are refused with {@code QUOTA_EXCEEDED} (RES-6).
     */
    public int maxQueuesAndTopics() {
        return maxQueuesAndTopics;
    }

    /** The largest message (and batch) the tier accepts by default, in bytes. */
    public int defaultMaxMessageSizeBytes() {
        return defaultMaxMessageSizeBytes;
    }
}
