package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.Tier;

/** Values the protocol reports that the core keeps implicit. */
final class Limits {
    private Limits() {}

    /** The largest message the tier takes by default, in kilobytes, as the service reports it. */
    static long defaultMaxMessageKb(Tier tier) {
        return tier.defaultMaxMessageSizeBytes() / 1024;
    }

    /** A client's {@code MaxMessageSizeInKilobytes}: the tier default means "not set" for the core. */
    static Long maxMessageKb(Long requested, Tier tier) {
        return requested == null || requested == defaultMaxMessageKb(tier) ? null : requested;
    }

    /** What the service reports for a stored value. */
    static long reportedMaxMessageKb(Long stored, Tier tier) {
        return stored == null ? defaultMaxMessageKb(tier) : stored;
    }

    /** The partitions of a partitioned entity on Basic and Standard (the service's fixed 16). */
    static final int PARTITIONS = 16;

    /**
     * What the service reports as an entity's {@code MaxSizeInMegabytes}: on Basic and Standard a partitioned
     * entity's size is that of each of its 16 partitions, reported as their total (LIM-6).
     */
    static long reportedMaxSizeMb(long stored, boolean partitioned, Tier tier) {
        return partitioned && tier != Tier.PREMIUM ? stored * PARTITIONS : stored;
    }

    /**
     * The size to store for a client's {@code MaxSizeInMegabytes} on an update (LIM-6): sending back what the
     * service reported for the partitioned entity leaves its size as it was; any other value is each partition's
     * size, as on a create.
     */
    static long updatedMaxSizeMb(long requested, long stored, boolean partitioned, Tier tier) {
        return requested == reportedMaxSizeMb(stored, partitioned, tier) ? stored : requested;
    }

    /**
     * {@code EnableExpress} (LIM-7): Basic and Standard accept it either way; the emulator keeps every message in
     * memory anyway, so it is not stored and reads back false. Premium has no express entities: true is refused.
     */
    static void express(Fields fields, Tier tier) {
        fields.bool("EnableExpress", express -> {
            if (express && tier == Tier.PREMIUM) {
                throw ManagementException.badRequest("EnableExpress=true: express entities are not supported in a"
                        + " Premium namespace (Premium messaging runs in an isolated run-time environment).");
            }
        });
    }
}
