package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.Durations;
import dev.sbemu.core.EntityRuntimeInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** Text forms of values in entity descriptions, as the service writes and reads them. */
final class XmlValues {
    /** What the service writes for "never": .NET's {@code TimeSpan.MaxValue}. */
    static final String NEVER = "P10675199DT2H48M5.4775807S";
    /** Clients that carry only milliseconds send "never" truncated ({@code P10675199DT2H48M5.477S}). */
    private static final Duration NEVER_THRESHOLD = Durations.MAX.truncatedTo(ChronoUnit.MILLIS);

    private static final DateTimeFormatter INSTANT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private XmlValues() {}

    /** Parses an ISO-8601 duration; anything from {@code TimeSpan.MaxValue} truncated to millis up is "never". */
    static Duration duration(String element, String text) {
        try {
            Duration d = Duration.parse(text.trim());
            return d.compareTo(NEVER_THRESHOLD) >= 0 ? Durations.MAX : d;
        } catch (DateTimeParseException e) {
            throw ManagementException.badRequest(
                    "The value '" + text + "' of " + element + " is not an ISO-8601 duration such as PT1M or P14D.");
        }
    }

    /** Formats a duration as the service does: days, hours, minutes, seconds; "never" as {@link #NEVER}. */
    static String duration(Duration d) {
        if (Durations.isUnlimited(d)) {
            return NEVER;
        }
        if (d.isZero()) {
            return "PT0S";
        }
        StringBuilder s = new StringBuilder("P");
        if (d.toDays() > 0) {
            s.append(d.toDays()).append('D');
        }
        Duration rest = d.minusDays(d.toDays());
        if (!rest.isZero()) {
            s.append('T');
            if (rest.toHoursPart() > 0) {
                s.append(rest.toHoursPart()).append('H');
            }
            if (rest.toMinutesPart() > 0) {
                s.append(rest.toMinutesPart()).append('M');
            }
            if (rest.toSecondsPart() > 0 || rest.toNanosPart() > 0) {
                s.append(rest.toSecondsPart());
                if (rest.toNanosPart() > 0) {
                    s.append('.')
                            .append(String.format("%09d", rest.toNanosPart()).replaceAll("0+$", ""));
                }
                s.append('S');
            }
        }
        return s.toString();
    }

    static boolean bool(String element, String text) {
        return switch (text.trim()) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default ->
                throw ManagementException.badRequest(
                        "The value '" + text + "' of " + element + " is not a boolean (true or false).");
        };
    }

    static long integer(String element, String text, long min, long max) {
        try {
            long value = Long.parseLong(text.trim());
            if (value < min || value > max) {
                throw ManagementException.badRequest("The value '" + text + "' of " + element
                        + " is out of range: it must be between " + min + " and " + max + ".");
            }
            return value;
        } catch (NumberFormatException e) {
            throw ManagementException.badRequest("The value '" + text + "' of " + element + " is not an integer.");
        }
    }

    /**
     * An instant as the service writes it: UTC with milliseconds; its zero time (an entity never accessed, ADI-6) as
     * {@code 0001-01-01T00:00:00}, without fraction or offset, as the service sends it (the Java SDK's
     * {@code ServiceBusManagementSerializer} adds the {@code Z} it needs to parse that).
     */
    static String instant(Instant at) {
        if (EntityRuntimeInfo.NEVER_ACCESSED.equals(at)) {
            return "0001-01-01T00:00:00";
        }
        return INSTANT.format(at);
    }
}
