package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.Namespace;
import java.util.function.Supplier;

/**
 * {@code POST /__admin/reset}: serves a fresh namespace started from the endpoint's reset settings (the topology, no messages,
 * the clock at its start) and forgets the scripted faults.
 */
final class ResetResource implements AdminResource {
    private final Supplier<Namespace> namespace;
    private final Runnable reset;

    ResetResource(Supplier<Namespace> namespace, Runnable reset) {
        this.namespace = namespace;
        this.reset = reset;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        request.require("POST");
        reset.run();
        return AdminRoutes.Answer.ok(AdminRequest.obj(
                "status", "reset", "clock", ClockResource.json(namespace.get().clock())));
    }
}
