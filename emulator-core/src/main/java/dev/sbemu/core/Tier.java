package dev.sbemu.core;

/** The namespace's pricing tier; it sets the message size limit (LIM-1) and the TTL cap (TTL-7). */
public enum Tier {
    BASIC(256 * 1024),
    STANDARD(256 * 1024),
    PREMIUM(1024 * 1024);

    private final int defaultMaxMessageSizeBytes;

    Tier(int defaultMaxMessageSizeBytes) {
        this.defaultMaxMessageSizeBytes = defaultMaxMessageSizeBytes;
    }

    /** The largest message (and batch) the tier accepts by default, in bytes. */
    public int defaultMaxMessageSizeBytes() {
        return defaultMaxMessageSizeBytes;
    }
}
