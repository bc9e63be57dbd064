package dev.sbemu.wire;

import com.azure.core.http.HttpClient;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import dev.sbemu.core.Namespace;
import dev.sbemu.wire.internal.admin.ManagementHttpClient;
import dev.sbemu.wire.internal.admin.ManagementResponse;
import dev.sbemu.wire.internal.admin.ManagementRouter;
import java.time.Duration;
import java.util.Objects;

/**
 * The SDK's administration client answered in process: an azure-core {@link HttpClient} that hands each request to
 * the management REST API of a {@link Namespace} (the same handler as {@link ManagementHandler}) instead of the
 * network, and the SDK's own builder wired to it. What {@code AdministrationClients} (sdk-adapter) and {@code
 * ServiceBusEmulatorServer.administrationClientBuilder()} (amqp-endpoint) build on; it needs no Java agent.
 */
public final class InProcessAdministration {
    /** The host name the in-process clients address the emulated namespace by. */
    public static final String HOST = "sbemu.servicebus.windows.net";
    /** The api-version the emulator reports in self links (the SDK's own is sent and accepted). */
    private static final String API_VERSION = "2021-05";

    private static final String CONNECTION_STRING = "Endpoint=sb://" + HOST + "/;"
            + "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=c2JlbXUtZW11bGF0b3Ita2V5";

    private InProcessAdministration() {}

    /**
     * The in-process HTTP transport that answers the administration client's requests from {@code namespace}
     * (whatever host they name), on the calling thread.
     */
    public static HttpClient httpClient(Namespace namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return new ManagementHttpClient(new ManagementRouter(
                namespace, HOST, API_VERSION, namespace.clock().instant()));
    }

    /**
     * The SDK's own administration client builder, wired to {@code namespace} through {@link #httpClient}, with
     * retries off (the emulator answers at once).
     */
    public static ServiceBusAdministrationClientBuilder builder(Namespace namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return new ServiceBusAdministrationClientBuilder()
                .connectionString(CONNECTION_STRING)
                .httpClient(httpClient(namespace))
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))));
    }

    /**
     * A transport that answers every request with the service's error body for {@code status} and {@code detail}
     * ({@code <Error><Code>..</Code><Detail>..</Detail></Error>}): the SDK throws the exception it maps that status
     * to, with the detail in its message.
     */
    public static HttpClient refusing(int status, String detail) {
        return ManagementHttpClient.answering(ManagementResponse.error(status, Objects.requireNonNull(detail)));
    }
}
