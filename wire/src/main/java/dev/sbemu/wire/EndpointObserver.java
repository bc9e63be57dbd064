package dev.sbemu.wire;

import dev.sbemu.core.Namespace;
import java.util.function.Supplier;

/**
 * Told when an endpoint that serves a namespace under a shared access key starts and closes in this JVM: how the
 * in-process adapter (sdk-adapter, when it is on the class path) routes an administration client that the
 * application builds from the endpoint's connection string to the endpoint's namespace (spec ADM-1), without the
 * endpoint depending on the adapter. Implementations are found with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/dev.sbemu.wire.EndpointObserver}) and told by {@link EndpointObservers#endpointStarted}; with
 * none on the class path (the standalone server), an endpoint's start and close tell nobody.
 */
public interface EndpointObserver {
    /**
     * An endpoint started: requests signed with {@code keyName} / {@code key} are meant for the namespace {@code
     * namespace} supplies at the time (an endpoint may swap namespaces) until the returned handle is closed.
     *
     * @return closed (once) when the endpoint closes
     */
    AutoCloseable started(Supplier<Namespace> namespace, String keyName, String key);
}
