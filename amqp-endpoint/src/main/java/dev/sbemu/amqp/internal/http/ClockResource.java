package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code /__admin/clock}: the served namespace's virtual clock: {@code GET} reads it, {@code POST advance}, {@code
 * advance-to}, {@code freeze} and {@code run} move or switch it (never backwards).
 */
final class ClockResource implements AdminResource {
    private final Supplier<Namespace> namespace;

    ClockResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        VirtualClock clock = namespace.get().clock();
        switch (request.rest()) {
            case "" -> request.require("GET");
            case "advance" -> {
                request.require("POST");
                Duration d = AdminRequest.duration(request.json().get("duration"), "duration");
                if (d.isNegative()) {
                    throw new IllegalArgumentException(
                            "The clock cannot move backwards: duration " + d + " is negative.");
                }
                clock.advance(d);
            }
            case "advance-to" -> {
                request.require("POST");
                Instant target = instant(request.json().get("instant"));
                Instant now = clock.instant();
                if (target.isBefore(now)) {
                    throw new IllegalArgumentException("The clock cannot move backwards: " + target
                            + " is before its current instant " + now + ".");
                }
                clock.advanceTo(target);
            }
            case "freeze" -> {
                request.require("POST");
                clock.freeze();
            }
            case "run" -> {
                request.require("POST");
                clock.run();
            }
            default -> throw request.notFound();
        }
        return AdminRoutes.Answer.ok(json(clock));
    }

    /** The clock as JSON: {@code now} and {@code mode}. */
    static Map<String, Object> json(VirtualClock clock) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("now", clock.instant().toString());
        out.put("mode", clock.mode().name());
        return out;
    }

    private static Instant instant(Object value) {
        if (!(value instanceof String text)) {
            throw new IllegalArgumentException("'instant' must be an ISO-8601 instant such as "
                    + "\"2026-01-01T10:00:00Z\", was " + (value == null ? "missing" : value) + ".");
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "'instant' is not an ISO-8601 instant (such as " + "\"2026-01-01T10:00:00Z\"): '" + text + "'.");
        }
    }
}
