package dev.sbemu.core;

import java.time.Duration;
import java.time.Instant;

/** The service's "never" duration and saturating instant arithmetic. */
public final class Durations {

    /** .NET's {@code TimeSpan.MaxValue}: what the service reports for an unset TTL or auto-delete (TTL-7). */
    public static final Duration MAX = Duration.parse("P10675199DT2H48M5.4775807S");

    private Durations() {}

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
        if (isUnlimited(d) || at.isAfter(VirtualClock.LATEST)) {
            return null;
        }
        // Not d > Duration.between(at, LATEST): that span overflows a long of nanoseconds, and
        // Duration.between throws and catches an ArithmeticException inside to fall back to seconds,
        // a stack trace per message with a TTL (~100x slower sends). The sum stays far inside Instant's
        // range: at is at most LATEST (year 9999) and d below MAX (about 29,000 years).
        Instant end = at.plus(d);
        return end.isAfter(VirtualClock.LATEST) ? null : end;
    }
}
