package dev.sbemu.core;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;

/** Approximate encoded sizes of AMQP values, for the message size limits (LIM-1). */
final class Sizes {
    private Sizes() {}

    static int of(Object value) {
        if (value == null) {
            return 1;
        }
        if (value instanceof String s) {
            return 5 + s.getBytes(StandardCharsets.UTF_8).length;
        }
        if (value instanceof byte[] b) {
            return 5 + b.length;
        }
        if (value instanceof Map<?, ?> map) {
            int size = 8;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                size += of(e.getKey()) + of(e.getValue());
            }
            return size;
        }
        if (value instanceof Collection<?> list) {
            return 8 + list.stream().mapToInt(Sizes::of).sum();
        }
        return 9;
    }
}
