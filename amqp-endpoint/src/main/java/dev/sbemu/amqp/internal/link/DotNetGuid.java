package dev.sbemu.amqp.internal.link;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * Lock tokens travel as delivery tags in .NET's GUID byte order: the first three groups little-endian
 * (docs/amqp.md, "Received messages"). The SDKs convert them back; so must we, both ways.
 */
public final class DotNetGuid {
    private DotNetGuid() {}

    public static byte[] toBytes(UUID uuid) {
        byte[] bytes = ByteBuffer.allocate(16)
                .putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits())
                .array();
        swap(bytes);
        return bytes;
    }

    /** The UUID of a delivery tag, or null when the tag is not 16 bytes. */
    public static UUID fromBytes(byte[] tag) {
        if (tag == null || tag.length != 16) {
            return null;
        }
        byte[] bytes = tag.clone();
        swap(bytes);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong());
    }

    private static void swap(byte[] b) {
        reverse(b, 0, 4);
        reverse(b, 4, 2);
        reverse(b, 6, 2);
    }

    private static void reverse(byte[] b, int from, int length) {
        for (int i = 0; i < length / 2; i++) {
            byte t = b[from + i];
            b[from + i] = b[from + length - 1 - i];
            b[from + length - 1 - i] = t;
        }
    }
}
