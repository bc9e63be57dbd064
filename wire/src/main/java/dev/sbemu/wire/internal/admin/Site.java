package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import java.time.Instant;

/**
 * What every resource needs: the namespace, the host clients address it by and how URLs are formed.
 *
 * @param namespace the emulated namespace
 * @param host the namespace's host name ({@code sbemu.servicebus.windows.net})
 * @param apiVersion the api-version written into self links
 * @param createdAt when the endpoint was created, reported as the namespace's creation time
 * @param forwards the forwarding targets as clients spelt them
 */
record Site(Namespace namespace, String host, String apiVersion, Instant createdAt, ForwardAddresses forwards) {

    /** How the forwarding targets of entity {@code path} are written. */
    EntityRefs refs(String path) {
        return new EntityRefs(host, null, forwards, path);
    }

    /**
     * How they are read from a request that addressed the namespace as {@code requestHost} (its Host header, or
     * null).
     */
    EntityRefs refs(String path, String requestHost) {
        return new EntityRefs(host, requestHost, forwards, path);
    }

    /** The namespace's name: the first label of the host. */
    String name() {
        int dot = host.indexOf('.');
        return dot < 0 ? host : host.substring(0, dot);
    }

    /** The absolute URL of a resource path, as ids and self links carry it. */
    String url(String path) {
        return "https://" + host + "/" + path + "?api-version=" + apiVersion;
    }

    /** Counts and timestamps of a queue or topic. */
    EntityRuntimeInfo info(String queueOrTopic) {
        return namespace.runtimeInfo(EntityPath.queue(queueOrTopic));
    }

    Instant now() {
        return namespace.clock().instant();
    }
}
