package dev.sbemu.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A message body in one of the three AMQP body kinds the service carries: data (one section, or several kept
 * apart, {@link DataSections}), a value, or a sequence (one section, or several kept apart, {@link Sequences}); or no
 * body section at all ({@link Absent}).
 */
public sealed interface MessageBody {
    /** The body of a message sent without a body section (MSG-4). */
    Absent ABSENT = new Absent();

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

    /**
     * Two or more AMQP data sections, kept apart as sent (MSG-1: the service keeps them; the .NET SDK sends and
     * reads them, the Java SDK sends one and reads only the first).
     */
    record DataSections(List<byte[]> sections) implements MessageBody {
        public DataSections {
            if (sections.size() < 2) {
                throw new IllegalArgumentException("DataSections holds two or more sections; use Data for one");
            }
            sections = sections.stream()
                    .map(b -> Objects.requireNonNull(b, "section").clone())
                    .toList();
        }

        /** Copies of the sections, in order. */
        @Override
        public List<byte[]> sections() {
            return sections.stream().map(byte[]::clone).toList();
        }

        /** The sections' bytes one after the other. */
        public byte[] bytes() {
            byte[] all = new byte[sizeInBytes()];
            int at = 0;
            for (byte[] section : sections) {
                System.arraycopy(section, 0, all, at, section.length);
                at += section.length;
            }
            return all;
        }

        @Override
        public int sizeInBytes() {
            return sections.stream().mapToInt(b -> b.length).sum();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof DataSections d) || d.sections.size() != sections.size()) {
                return false;
            }
            for (int i = 0; i < sections.size(); i++) {
                if (!Arrays.equals(sections.get(i), d.sections.get(i))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            return sections.stream().mapToInt(Arrays::hashCode).reduce(1, (a, b) -> 31 * a + b);
        }

        @Override
        public String toString() {
            return "DataSections"
                    + sections.stream().map(b -> b.length + " bytes").toList();
        }
    }

    /** An AMQP value section: one AMQP-typed value (string, number, list, map, ...). */
    record Value(Object value) implements MessageBody {
        @Override
        public int sizeInBytes() {
            return Sizes.of(value);
        }
    }

    /**
     * Two or more AMQP sequence sections, kept apart as sent (MSG-1: the service keeps them, as the Go SDK's
     * {@code AMQPAnnotatedMessageBody.Sequence} sends and reads them).
     */
    record Sequences(List<List<Object>> sections) implements MessageBody {
        public Sequences {
            if (sections.size() < 2) {
                throw new IllegalArgumentException("Sequences holds two or more sections; use Sequence for one");
            }
            sections = sections.stream().map(List::copyOf).toList();
        }

        @Override
        public int sizeInBytes() {
            return sections.stream()
                    .mapToInt(section -> section.stream().mapToInt(Sizes::of).sum())
                    .sum();
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

    /**
     * No body section: a message sent without one (as the Go SDK sends a nil {@code Body}) is delivered without one,
     * as the service does (MSG-4), not with an empty data section. The Java SDK reads it as an empty body.
     */
    record Absent() implements MessageBody {
        @Override
        public int sizeInBytes() {
            return 0;
        }
    }
}
