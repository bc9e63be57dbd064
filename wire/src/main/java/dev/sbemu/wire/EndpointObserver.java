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

    /**
     * An endpoint that serves further namespaces started (spec NS-1, NS-2): as {@link #started(Supplier, String,
     * String)}, and requests signed with the key name {@code <name>/<keyName>} and the key {@code named} gives for
     * {@code name} are meant for the namespace {@code named} serves under {@code name} at the time. By default the
     * further namespaces are not routed.
     *
     * @return closed (once) when the endpoint closes
     */
    default AutoCloseable started(Supplier<Namespace> namespace, String keyName, String key, Named named) {
        return started(namespace, keyName, key);
    }

    /** The namespaces an endpoint serves besides its default one, by name; any thread. */
    interface Named {
        /** Serves no namespace besides the default one. */
        Named NONE = new Named() {
            @Override
            public Namespace namespace(String name) {
                return null;
            }

            @Override
            public String key(String name) {
                return null;
            }
        };

        /** The namespace served under {@code name} now, or null when there is none. */
        Namespace namespace(String name);

        /** The key that signs tokens for the namespace {@code name}, or null when there is none. */
        String key(String name);
    }
}
