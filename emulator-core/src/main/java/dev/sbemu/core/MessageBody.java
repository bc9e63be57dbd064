package dev.sbemu.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** A message body in one of the three AMQP body kinds the service carries. */
public sealed interface MessageBody {

    /** The body's approximate encoded size in bytes, for the size limits of LIM-1. */
    int sizeInBytes();

    /** One AMQP data section: opaque bytes (what {@code new ServiceBusMessage(String)} sends). */
    record Data(byte[] bytes) implements MessageBody {
        public Data {
            bytes = Objects.requireNonNull(bytes, "bytes").clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public int sizeInBytes() {
            return bytes.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Data d && Arrays.equals(bytes, d.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Data[" + bytes.length + " bytes]";
        }
    }

    /** An AMQP value section: one AMQP-typed value (string, number, list, map, ...). */
    record Value(Object value) implements MessageBody {
        @Override
        public int sizeInBytes() {
            return Sizes.of(value);
        }
    }

    /** An AMQP sequence section: a list of AMQP-typed values. */
    record Sequence(List<Object> values) implements MessageBody {
        public Sequence {
            values = List.copyOf(values);
        }

        @Override
        public int sizeInBytes() {
            return values.stream().mapToInt(Sizes::of).sum();
        }
    }
}
