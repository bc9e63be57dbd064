package dev.sbemu.core;

/** The sub-queues of a queue or subscription (SPEC DLQ-1). */
public enum SubQueue {
    NONE(""),
    DEAD_LETTER_QUEUE("/$deadletterqueue"),
    TRANSFER_DEAD_LETTER_QUEUE("/$Transfer/$deadletterqueue");

    private final String pathSuffix;

    SubQueue(String pathSuffix) {
        this.pathSuffix = pathSuffix;
    }

    /** The suffix the service appends to the entity path. */
    public String pathSuffix() {
        return pathSuffix;
    }
}
