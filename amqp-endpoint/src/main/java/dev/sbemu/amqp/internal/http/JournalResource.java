package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /__admin/journal?from=<index>}: the served namespace's journal from an index on, with the index to ask
 * from next and how many events were dropped before it.
 */
final class JournalResource implements AdminResource {
    private final Supplier<Namespace> namespace;

    JournalResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        request.require("GET");
        long from = request.longParam("from", 0);
        if (from < 0) {
            throw new IllegalArgumentException("'from' must not be negative, was " + from + ".");
        }
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
        return AdminRoutes.Answer.ok(answer);
    }
}
