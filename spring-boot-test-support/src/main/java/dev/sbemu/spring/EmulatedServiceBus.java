package dev.sbemu.spring;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.Journal;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;

/**
 * The emulated Service Bus of a Spring test's application context (a bean there): the namespace serving the
 * test that runs now, and the endpoint the application is connected to. Every getter answers for the current
 * namespace, which {@link SpringServiceBusEmulator} renews between tests, so holding this object is safe
 * where holding a {@link Namespace} is not.
 */
public interface EmulatedServiceBus {

    /** The namespace serving the current test. */
    Namespace namespace();

    /** The current namespace's virtual clock. */
    default VirtualClock clock() {
        return namespace().clock();
    }

    /** The current namespace's journal. */
    default Journal journal() {
        return namespace().journal();
    }

    /** An administration client of the current namespace (the SDK's own, over an in-process transport). */
    ServiceBusAdministrationClient administrationClient();

    /**
     * The connection string the application was given ({@code Endpoint=sb://127.0.0.1:PORT;...;UseDevelopmentEmulator=true;});
     * it stays the same for the context's life.
     */
    String connectionString();
}
