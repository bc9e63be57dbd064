package dev.sbemu.core.internal;

/** A queue or topic: what senders and forwarders hand messages to. */
interface SendTarget {
    String name();

    /** The entity's own message size limit (Premium), or null for the tier's default (LIM-1). */
    Long maxMessageSizeInKilobytes();

    /** Refuses a send the entity's status or session rules forbid; called before any message of a batch is taken. */
    void checkSendable(StoredMessage m);

    /** The entity's capacity in bytes: its {@code maxSizeInMegabytes} (RES-5). */
    long maxSizeInBytes();

    /** What the entity holds now, in bytes, as the service counts it against {@link #maxSizeInBytes} (RES-5). */
    long heldBytes();

    /** Duplicate detection, scheduling and sequence numbers: where new messages go in. */
    Intake intake();
}
