package dev.sbemu.spring.internal;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.DeclaredNamespace;
import dev.sbemu.spring.EmulatedServiceBus;
import org.springframework.beans.factory.DisposableBean;

/**
 * One application context's emulated Service Bus: an AMQP endpoint that lives as long as the context, and the
 * namespace it serves, which {@link #renew()} replaces by a fresh one built from the declaration.
 */
final class SpringEmulator implements EmulatedServiceBus, DisposableBean {
    /** The bean's name in the application context. */
    static final String BEAN_NAME = "sbemu.emulatedServiceBus";

    private final DeclaredNamespace declaration;
    private final ServiceBusEmulatorServer server;

    SpringEmulator(DeclaredNamespace declaration) {
        this.declaration = declaration;
        Namespace first = declaration.start();
        try {
            this.server = ServiceBusEmulatorServer.start(first);
        } catch (RuntimeException e) {
            first.close();
            throw e;
        }
    }

    /** Serves a fresh namespace (the declared entities, no messages, the clock at its start) and closes the old one. */
    synchronized void renew() {
        server.replaceNamespace(declaration.start()).close();
    }

    @Override
    public Namespace namespace() {
        return server.namespace();
    }

    @Override
    public ServiceBusAdministrationClient administrationClient() {
        return server.administrationClientBuilder().buildClient();
    }

    @Override
    public String connectionString() {
        return server.getConnectionString();
    }

    @Override
    public synchronized void destroy() {
        Namespace last = server.namespace();
        server.close();
        last.close();
    }

    @Override
    public String toString() {
        return "EmulatedServiceBus[" + connectionString().replaceAll("SharedAccessKey=[^;]*", "SharedAccessKey=***")
                + "]";
    }
}
