package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.TrueFilter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /__admin/entities}: every queue, topic and subscription of the served namespace with its message counts
 * (active, scheduled, deferred, dead-lettered, transfer dead-lettered), its properties and a subscription's rules.
 */
final class EntitiesResource implements AdminResource {
    private final Supplier<Namespace> namespace;

    EntitiesResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        if (!request.rest().isEmpty()) {
            throw request.notFound();
        }
        request.require("GET");
        Namespace ns = namespace.get();
        List<Object> queues = new ArrayList<>();
        for (String name : ns.queueNames()) {
            try {
                Map<String, Object> q = entity(name, "queue", ns.runtimeInfo(EntityPath.queue(name)));
                q.put("properties", properties(ns.getQueue(name)));
                queues.add(q);
            } catch (BrokerException.EntityNotFound deletedMeanwhile) {
                // listed, then deleted: left out
            }
        }
        List<Object> topics = new ArrayList<>();
        for (String name : ns.topicNames()) {
            try {
                Map<String, Object> t = entity(name, "topic", ns.runtimeInfo(EntityPath.queue(name)));
                t.put("properties", properties(ns.getTopic(name)));
                List<Object> subscriptions = new ArrayList<>();
                for (String sub : ns.subscriptionNames(name)) {
                    try {
                        Map<String, Object> s =
                                entity(sub, "subscription", ns.runtimeInfo(EntityPath.subscription(name, sub)));
                        s.put("topic", name);
                        s.put("properties", properties(ns.getSubscription(name, sub)));
                        List<Object> rules = new ArrayList<>();
                        for (RuleDescription rule : ns.listRules(name, sub)) {
                            rules.add(rule(rule));
                        }
                        s.put("rules", rules);
                        subscriptions.add(s);
                    } catch (BrokerException.EntityNotFound deletedMeanwhile) {
                        // left out
                    }
                }
                t.put("subscriptions", subscriptions);
                topics.add(t);
            } catch (BrokerException.EntityNotFound deletedMeanwhile) {
                // left out
            }
        }
        return AdminRoutes.Answer.ok(AdminRequest.obj(
                "now", ns.clock().instant().toString(),
                "queues", queues,
                "topics", topics));
    }

    private static Map<String, Object> entity(String name, String kind, EntityRuntimeInfo info) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("kind", kind);
        out.put(
                "counts",
                AdminRequest.obj(
                        "active", info.activeMessageCount(),
                        "scheduled", info.scheduledMessageCount(),
                        "deferred", info.deferredMessageCount(),
                        "deadLetter", info.deadLetterMessageCount(),
                        "transferDeadLetter", info.transferDeadLetterMessageCount(),
                        "total", info.totalMessageCount()));
        if (kind.equals("topic")) {
            out.put("subscriptionCount", info.subscriptionCount());
        }
        out.put("sizeInBytes", info.sizeInBytes());
        out.put("createdAt", text(info.createdAt()));
        out.put("updatedAt", text(info.updatedAt()));
        out.put("accessedAt", text(info.accessedAt()));
        return out;
    }

    /**
     * An options record's components as JSON: numbers, booleans and text as they are, the rest as their text;
     * authorization rules (keys) left out.
     */
    static Map<String, Object> properties(Record options) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : options.getClass().getRecordComponents()) {
            if (c.getName().equals("authorizationRules")) {
                continue;
            }
            Object value;
            try {
                value = c.getAccessor().invoke(options);
            } catch (ReflectiveOperationException e) {
                continue;
            }
            out.put(
                    c.getName(),
                    value == null || value instanceof Number || value instanceof Boolean ? value : value.toString());
        }
        return out;
    }

    private static Map<String, Object> rule(RuleDescription rule) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", rule.name());
        Object filter = rule.filter();
        if (filter instanceof SqlFilter sql) {
            out.put("filterType", "sql");
            out.put("filter", sql.expression());
        } else if (filter instanceof TrueFilter) {
            out.put("filterType", "true");
            out.put("filter", "1=1");
        } else if (filter instanceof FalseFilter) {
            out.put("filterType", "false");
            out.put("filter", "1=0");
        } else if (filter instanceof CorrelationFilter correlation) {
            out.put("filterType", "correlation");
            out.put("filter", correlation.toString());
        }
        out.put("action", rule.action() == null ? null : rule.action().expression());
        return out;
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }
}
