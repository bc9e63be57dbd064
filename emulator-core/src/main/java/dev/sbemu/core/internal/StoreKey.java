package dev.sbemu.core.internal;

/**
 * Orders messages in a store: by sequence number, then by copy. A subscription can hold several
 * copies of one topic message (one per rule with an action, RUL-1), all with the topic's number.
 */
record StoreKey(long sequenceNumber, int copy) implements Comparable<StoreKey> {

    static StoreKey first(long sequenceNumber) {
        return new StoreKey(sequenceNumber, 0);
    }

    static StoreKey last(long sequenceNumber) {
        return new StoreKey(sequenceNumber, Integer.MAX_VALUE);
    }

    @Override
    public int compareTo(StoreKey other) {
        int bySequence = Long.compare(sequenceNumber, other.sequenceNumber);
        return bySequence != 0 ? bySequence : Integer.compare(copy, other.copy);
    }
}
