package dev.sbemu.core.internal;

import dev.sbemu.core.Message;
import java.util.Arrays;

/**
 * Sequence numbers of a queue or topic (SEQ-2): gap-free and increasing; on a partitioned entity one
 * counter per partition, with the partition id in the top 16 bits.
 */
final class Sequencer {
    static final int PARTITIONS = 16;
    private final boolean partitioned;
    private final long[] next;

    Sequencer(boolean partitioned) {
        this.partitioned = partitioned;
        this.next = new long[partitioned ? PARTITIONS : 1];
        Arrays.fill(next, 1);
    }

    long next(Message m) {
        if (!partitioned) {
            return next[0]++;
        }
        int partition = partitionFor(m);
        return ((long) partition << 48) | next[partition]++;
    }

    int partitionOf(long sequenceNumber) {
        return partitioned ? (int) (sequenceNumber >>> 48) : -1;
    }

    /** The partition is chosen from the partition key, else the session id, else the message id. */
    static int partitionFor(Message m) {
        String key =
                m.partitionKey() != null ? m.partitionKey() : m.sessionId() != null ? m.sessionId() : m.messageId();
        if (key == null) {
            return 0;
        }
        return Math.floorMod(key.hashCode(), PARTITIONS);
    }
}
