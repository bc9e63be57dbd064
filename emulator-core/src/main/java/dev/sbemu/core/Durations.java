package dev.sbemu.core;

import java.time.Duration;
import java.time.Instant;

/** The service's "never" duration and saturating instant arithmetic. */
public final class Durations {

    /** .NET's {@code TimeSpan.MaxValue}: what the service reports for an unset TTL or auto-delete (TTL-7). */
    public static final Duration MAX = Duration.parse("P10675199DT2H48M5.4775807S");

    private Durations() {
    }

    /** Whether {@code d} means "never" (null, or at least {@link #MAX}). */
    public static boolean isUnlimited(Duration d) {
        return d == null || d.compareTo(MAX) >= 0;
    }

    /** {@code at + d}, or null when {@code d} is unlimited. */
    public static Instant plusOrNever(Instant at, Duration d) {
        return isUnlimited(d) ? null : at.plus(d);
    }
}
