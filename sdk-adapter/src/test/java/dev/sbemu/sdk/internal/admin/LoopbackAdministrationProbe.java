package dev.sbemu.sdk.internal.admin;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpRequest;

/** Lets tests in other packages ask how {@link LoopbackAdministration} routes a request. */
public final class LoopbackAdministrationProbe {
    private LoopbackAdministrationProbe() {}

    /** Whether {@code client} is the routing wrapper around the client azure-core made. */
    public static boolean isRouting(HttpClient client) {
        return client instanceof LoopbackAdministration.RoutingHttpClient;
    }

    /** Whether the wrapper hands {@code request} to the client azure-core made, untouched. */
    public static boolean passesThrough(HttpRequest request) {
        return LoopbackAdministration.target(request) == null;
    }
}
