package dev.sbemu.core.internal.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;

/** ISO-8601 durations as annotations and Config.json write them. */
final class IsoDurations {
    static final String EXAMPLES = "an ISO-8601 duration such as \"PT30S\", \"PT10M\", \"PT1H\" or \"P1D\"";

    private IsoDurations() {}

    /** The duration, or null when {@code text} is not ISO-8601. */
    static Duration parseOrNull(String text) {
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
