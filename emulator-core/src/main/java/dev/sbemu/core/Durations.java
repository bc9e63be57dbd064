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

    /**
     * {@code at + d}, or null ("never") when {@code d} is unlimited or the sum falls after
     * {@link VirtualClock#LATEST}: the service saturates such an expiry at the end of its time range,
     * which no clock reaches (CLK-4).
     */
    public static Instant plusOrNever(Instant at, Duration d) {
        if (isUnlimited(d) || at.isAfter(VirtualClock.LATEST)
                || d.compareTo(Duration.between(at, VirtualClock.LATEST)) > 0) {
            return null;
        }
        return at.plus(d);
    }
}
