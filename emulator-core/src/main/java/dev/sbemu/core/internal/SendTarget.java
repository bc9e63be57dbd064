package dev.sbemu.core.internal;

/** A queue or topic: what senders and forwarders hand messages to. */
interface SendTarget {
    String name();

    /** The entity's own message size limit (Premium), or null for the tier's default (LIM-1). */
    Long maxMessageSizeInKilobytes();

    /** Refuses a send the entity's status or session rules forbid; called before any message of a batch is taken. */
    void checkSendable(StoredMessage m);

    /** Takes a new message: duplicate detection, scheduling, sequence number, enqueue or fan-out. */
    void accept(StoredMessage m);

    /** Schedules a message for {@code m.scheduledEnqueueTime}; returns its (temporary) sequence number. */
    long schedule(StoredMessage m);

    /** Assigns the message its scheduled sequence number ahead of {@link #schedule} (transactions). */
    long reserveSequenceNumber(StoredMessage m);

    /** Cancels a scheduled message (SCH-2). */
    void cancelScheduled(long sequenceNumber);
}
