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

    /** {@code EnableExpress} is a retired feature: false is accepted, true is refused. */
    static void express(Fields fields) {
        fields.bool("EnableExpress", express -> {
            if (express) {
                throw ManagementException.notImplemented(
                        "EnableExpress=true: express entities are retired from" + " Service Bus and not emulated.");
            }
        });
    }
}
