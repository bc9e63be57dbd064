package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityRuntimeInfo;

/** The {@code CountDetails} block of a description, from the core's runtime counts. */
final class CountsXml {
    private static final String PREFIX = "d2p1";

    private CountsXml() {}

    static void write(XmlOut out, EntityRuntimeInfo info) {
        out.start("CountDetails").namespace(PREFIX, Xml.SB_COUNTS);
        count(out, "ActiveMessageCount", info.activeMessageCount());
        count(out, "DeadLetterMessageCount", info.deadLetterMessageCount());
        count(out, "ScheduledMessageCount", info.scheduledMessageCount());
        count(out, "TransferMessageCount", 0);
        count(out, "TransferDeadLetterMessageCount", info.transferDeadLetterMessageCount());
        out.end();
    }

    /** The service's counts are 32-bit. */
    static int int32(long count) {
        return (int) Math.min(count, Integer.MAX_VALUE);
    }

    private static void count(XmlOut out, String name, long value) {
        out.prefixed(PREFIX, Xml.SB_COUNTS, name, int32(value));
    }
}
