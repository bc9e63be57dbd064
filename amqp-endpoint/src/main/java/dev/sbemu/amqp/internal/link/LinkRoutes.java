package dev.sbemu.amqp.internal.link;

import java.util.List;

/**
 * What one namespace's attaches are routed with: its link kinds and its routing table (the nodes' rows, then the JMS
 * dialect's). A connection is routed with those of the namespace its credentials chose (NS-2).
 *
 * @param links the link kinds, built on the namespace's own owners
 * @param policies the routing table, in the order its rows are tried
 */
public record LinkRoutes(LinkFactory links, List<AttachPolicy> policies) {
    public LinkRoutes {
        policies = List.copyOf(policies);
    }
}
