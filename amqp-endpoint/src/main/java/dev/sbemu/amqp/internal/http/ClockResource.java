package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.Namespace;
import dev.sbemu.core.PendingTimer;
import dev.sbemu.core.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code /__admin/clock}: the served namespace's virtual clock: {@code GET} reads it, {@code POST advance}, {@code
 * advance-to}, {@code freeze} and {@code run} move or switch it (never backwards); {@code GET timers?max=} lists the
 * next due timers (spec CON-8), {@code POST advance-to-next} moves the clock to the first of them.
 */
final class ClockResource implements AdminResource {
    /** The most timers {@code GET timers} lists, and how many without {@code max}. */
    static final int MAX_TIMERS = 1000;

    static final int DEFAULT_TIMERS = 50;

    private final Supplier<Namespace> namespace;

    ClockResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        Namespace ns = namespace.get();
        VirtualClock clock = ns.clock();
        switch (request.rest()) {
            case "" -> request.require("GET");
            case "timers" -> {
                request.require("GET");
                long max = request.longParam("max", DEFAULT_TIMERS);
                if (max < 1 || max > MAX_TIMERS) {
                    throw new IllegalArgumentException(
                            "'max' must be between 1 and " + MAX_TIMERS + ", was " + max + ".");
                }
                Map<String, Object> out = json(clock);
                out.put("timers", timers(ns.pendingTimers((int) max)));
                return AdminRoutes.Answer.ok(out);
            }
            case "advance-to-next" -> {
                request.require("POST");
                List<PendingTimer> next = ns.pendingTimers(1);
                if (next.isEmpty()) {
                    throw new AdminRoutes.Refusal(
                            409, "NoPendingTimer", "No timer is pending: nothing expires, activates or unlocks.");
                }
                PendingTimer first = next.get(0);
                // a running clock may have passed it between the read and here; the clock never moves back
                if (first.due().isAfter(clock.instant())) {
                    clock.advanceTo(first.due());
                }
                Map<String, Object> out = json(clock);
                out.put("fired", timers(next).get(0));
                return AdminRoutes.Answer.ok(out);
            }
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

    /** Timers as JSON: due, kind, entity, and the message or detail when there is one. */
    static List<Object> timers(List<PendingTimer> timers) {
        List<Object> out = new ArrayList<>(timers.size());
        for (PendingTimer t : timers) {
            Map<String, Object> timer = new LinkedHashMap<>();
            timer.put("due", t.due().toString());
            timer.put("kind", t.kind().name());
            timer.put("entity", t.entity());
            if (t.sequenceNumber() >= 0) {
                timer.put("sequenceNumber", t.sequenceNumber());
            }
            if (t.messageId() != null) {
                timer.put("messageId", t.messageId());
            }
            if (!t.detail().isEmpty()) {
                timer.put("detail", t.detail());
            }
            out.add(timer);
        }
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
