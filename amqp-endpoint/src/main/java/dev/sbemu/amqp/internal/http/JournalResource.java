package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code GET /__admin/journal?from=<index>} or {@code ?after=<index>}: the served namespace's journal from an index on
 * (or after one: the cursor a script follows, passing the answer's {@code last} each time), with the index to ask from
 * next and how many events were dropped before it; {@code entity=} keeps the events of an entity (its sub-queues
 * and a topic's subscriptions included) and {@code type=} those of the types listed, comma-separated (spec HTTP-5,
 * CON-9).
 */
final class JournalResource implements AdminResource {
    private final Supplier<Namespace> namespace;

    JournalResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        request.require("GET");
        if (request.query().containsKey("from") && request.query().containsKey("after")) {
            throw new IllegalArgumentException("Give 'from' or 'after', not both.");
        }
        long from = request.query().containsKey("after")
                ? request.longParam("after", -1) + 1
                : request.longParam("from", 0);
        if (from < 0) {
            throw new IllegalArgumentException("'from' must not be negative and 'after' not below -1.");
        }
        String entity = request.query().get("entity");
        String entityPrefix = entity == null ? null : entity.toLowerCase(Locale.ROOT) + "/";
        Set<JournalEvent.Type> types = types(request.query().get("type"));
        Namespace ns = namespace.get();
        List<JournalEvent> events;
        long total;
        int attempts = 0;
        while (true) {
            total = ns.journal().totalEvents();
            events = ns.journal().events();
            if (ns.journal().totalEvents() == total || ++attempts > 100) {
                break;
            }
        }
        long firstIndex = total - events.size();
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            long index = firstIndex + i;
            if (index < from) {
                continue;
            }
            JournalEvent e = events.get(i);
            if (entity != null
                    && !e.entity().equalsIgnoreCase(entity)
                    && !e.entity().toLowerCase(Locale.ROOT).startsWith(entityPrefix)) {
                continue;
            }
            if (types != null && !types.contains(e.type())) {
                continue;
            }
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("index", index);
            event.put("at", e.at().toString());
            event.put("type", e.type().name());
            event.put("entity", e.entity());
            if (e.sequenceNumber() >= 0) {
                event.put("sequenceNumber", e.sequenceNumber());
            }
            if (e.messageId() != null) {
                event.put("messageId", e.messageId());
            }
            if (!e.detail().isEmpty()) {
                event.put("detail", e.detail());
            }
            event.put("text", e.format());
            out.add(event);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("events", out);
        answer.put("next", total);
        answer.put("dropped", Math.max(0, firstIndex - from));
        answer.put("last", total - 1);
        return AdminRoutes.Answer.ok(answer);
    }

    /** The event types of a {@code type=} parameter (names, comma-separated, any case), or null for all. */
    private static Set<JournalEvent.Type> types(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Set<JournalEvent.Type> types = EnumSet.noneOf(JournalEvent.Type.class);
        for (String name : value.split(",")) {
            String trimmed = name.trim().toUpperCase(Locale.ROOT);
            try {
                types.add(JournalEvent.Type.valueOf(trimmed));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'type' names an unknown event type '" + name.trim() + "'; known: "
                        + Arrays.toString(JournalEvent.Type.values()) + ".");
            }
        }
        return types;
    }
}
