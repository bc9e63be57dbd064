package dev.sbemu.amqp.internal.http;

import dev.sbemu.amqp.internal.transport.Traffic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /__admin/connections}: the namespace's open AMQP connections and their links as the network loop sees
 * them now (spec CON-10): who is connected, what each link is attached to, its receive mode, credit and unsettled
 * deliveries; for "why does my receiver get nothing".
 */
final class ConnectionsResource implements AdminResource {
    private final Supplier<Traffic> traffic;

    ConnectionsResource(Supplier<Traffic> traffic) {
        this.traffic = traffic;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        if (!request.rest().isEmpty()) {
            throw request.notFound();
        }
        request.require("GET");
        Traffic now;
        try {
            now = traffic.get();
        } catch (IllegalStateException e) {
            throw new AdminRoutes.Refusal(503, "Unavailable", e.getMessage());
        }
        List<Object> connections = new ArrayList<>();
        for (Traffic.Connection c : now.connections()) {
            List<Object> links = new ArrayList<>();
            for (Traffic.Link l : c.links()) {
                Map<String, Object> link = new LinkedHashMap<>();
                link.put("name", l.name());
                link.put("role", l.role());
                link.put("address", l.address());
                link.put("receiveMode", l.receiveMode());
                link.put("sessionId", l.sessionId());
                link.put("credit", l.credit());
                link.put("unsettled", l.unsettled());
                links.add(link);
            }
            Map<String, Object> connection = new LinkedHashMap<>();
            connection.put("id", c.id());
            connection.put("client", c.client());
            connection.put("containerId", c.containerId());
            connection.put("hostname", c.hostname());
            connection.put("authorized", c.authorized());
            connection.put("tls", c.tls());
            connection.put("openedAt", c.openedAt());
            connection.put("links", links);
            connections.add(connection);
        }
        return AdminRoutes.Answer.ok(AdminRequest.obj("connections", connections, "truncated", now.truncated()));
    }
}
