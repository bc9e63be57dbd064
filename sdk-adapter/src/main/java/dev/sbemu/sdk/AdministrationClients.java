package dev.sbemu.sdk;

import com.azure.core.http.HttpClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationAsyncClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.internal.admin.LoopbackAdministration;
import dev.sbemu.wire.EndpointObserver;
import dev.sbemu.wire.InProcessAdministration;
import java.util.function.Supplier;

/**
 * The real {@link ServiceBusAdministrationClient} and {@link ServiceBusAdministrationAsyncClient},
 * built by the SDK's own {@link ServiceBusAdministrationClientBuilder}, talking to an emulated
 * {@link Namespace} through an in-process HTTP client instead of the network. The SDK's request
 * building, XML models, paging and error mapping all run unchanged: an unknown entity fails with
 * {@code ResourceNotFoundException}, an existing one with {@code ResourceExistsException}, an invalid
 * value with {@code HttpResponseException} (status 400) whose message says what was wrong (SPEC LIM-3).
 *
 * <pre>{@code
 * ServiceBusAdministrationClient admin = AdministrationClients.sync(namespace);
 * admin.createQueue("orders", new CreateQueueOptions().setLockDuration(Duration.ofSeconds(30)));
 * }</pre>
 *
 * <p>The clients address the namespace as {@value #HOST}. Retries are off: the emulator answers at once,
 * and a failure retried would only be slower. Authorization rules in entity descriptions are accepted
 * and not stored.
 */
public final class AdministrationClients {
    /** The host name the clients address the emulated namespace by. */
    public static final String HOST = InProcessAdministration.HOST;

    private AdministrationClients() {}

    /** A synchronous administration client for {@code namespace}. */
    public static ServiceBusAdministrationClient sync(Namespace namespace) {
        return builder(namespace).buildClient();
    }

    /** An asynchronous administration client for {@code namespace}. */
    public static ServiceBusAdministrationAsyncClient async(Namespace namespace) {
        return builder(namespace).buildAsyncClient();
    }

    /**
     * The in-process HTTP transport that answers the administration client's requests from {@code namespace}:
     * {@code new ServiceBusAdministrationClientBuilder().connectionString(cs).httpClient(httpClient(namespace))}.
     */
    public static HttpClient httpClient(Namespace namespace) {
        return InProcessAdministration.httpClient(namespace);
    }

    /**
     * The SDK's own administration client builder, wired to {@code namespace} through an in-process HTTP
     * transport; set another connection string or options on it before building if needed (the transport
     * answers for {@code namespace} whatever host the connection string names).
     */
    public static ServiceBusAdministrationClientBuilder builder(Namespace namespace) {
        return InProcessAdministration.builder(namespace);
    }

    /**
     * Makes administration clients that the application builds itself, with no {@code httpClient} of its own, from
     * a connection string with {@code keyName} and {@code key} ({@code new ServiceBusAdministrationClientBuilder()
     * .connectionString(cs).buildClient()}) reach the namespace {@code namespace} supplies, in process, until the
     * returned registration is closed (spec ADM-1). The SDK's administration client calls HTTPS on the connection
     * string's host and drops its port; sbemu recognises its requests by the key that signed them, so give each
     * registration its own key. Needs the test JVM's Java agent (the README's {@code argLine}): without one,
     * {@link Registration#active()} is false and a warning is logged once.
     *
     * <p>{@code ServiceBusEmulatorServer} registers itself while it runs; call this only to serve another way in.
     */
    public static Registration routeConnectionString(Supplier<Namespace> namespace, String keyName, String key) {
        LoopbackAdministration.Registration registration = LoopbackAdministration.register(
                namespace, keyName, key, EndpointObserver.Named.NONE, AdministrationClients::httpClient);
        return new Registration() {
            @Override
            public boolean active() {
                return registration.active();
            }

            @Override
            public void close() {
                registration.close();
            }
        };
    }

    /** A {@link #routeConnectionString} registration; closing it (idempotent) ends the routing. */
    public interface Registration extends AutoCloseable {
        /** Whether administration clients built from the connection string reach the namespace (false: no agent). */
        boolean active();

        @Override
        void close();
    }
}
