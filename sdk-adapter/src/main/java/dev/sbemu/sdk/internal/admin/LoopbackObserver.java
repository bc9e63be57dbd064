package dev.sbemu.sdk.internal.admin;

import dev.sbemu.core.Namespace;
import dev.sbemu.wire.EndpointObserver;
import dev.sbemu.wire.InProcessAdministration;
import java.util.function.Supplier;

/**
 * Routes administration clients built from a running endpoint's connection string to its namespace while it runs
 * (spec ADM-1): registered with {@link java.util.ServiceLoader} so that amqp-endpoint, which does not depend on
 * sdk-adapter, reaches it whenever sdk-adapter is on the class path.
 */
public final class LoopbackObserver implements EndpointObserver {
    /** For {@link java.util.ServiceLoader}. */
    public LoopbackObserver() {}

    @Override
    public AutoCloseable started(Supplier<Namespace> namespace, String keyName, String key) {
        return started(namespace, keyName, key, Named.NONE);
    }

    @Override
    public AutoCloseable started(Supplier<Namespace> namespace, String keyName, String key, Named named) {
        return LoopbackAdministration.register(namespace, keyName, key, named, InProcessAdministration::httpClient);
    }
}
