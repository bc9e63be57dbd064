package dev.sbemu.junit.internal;

import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.EmulatorClients;
import java.util.ArrayList;
import java.util.List;

/**
 * A namespace started for a test (or test class), its AMQP endpoint when a test asks for one, and the clients
 * made for it, kept in the test's {@code ExtensionContext.Store} so that JUnit closes them when the test ends:
 * clients (and their processors and threads) first, then the endpoint, then the namespace. Closing twice is
 * harmless. It is an {@link AutoCloseable}, which JUnit 5.13+ and 6 close (the deprecated
 * {@code Store.CloseableResource} is not implemented).
 *
 * <p>The endpoint and the clients are made on first use, so only tests that ask for them pay for them; a test
 * method of a per-class namespace borrows the class's endpoint and has clients of its own.
 */
public final class EmulatedNamespace implements AutoCloseable {
    private final Namespace namespace;
    private final ClientMode mode;
    /** The settings of the namespace's endpoint. */
    private final EndpointSettings endpoint;
    /** The scope owning the namespace and its endpoint, or null when this one does. */
    private final EmulatedNamespace owner;

    private final List<AutoCloseable> extras = new ArrayList<>();
    private EmulatorClients clients;
    private ServiceBusEmulatorServer server;
    private boolean closed;

    private EmulatedNamespace(
            Namespace namespace, ClientMode mode, EndpointSettings endpoint, EmulatedNamespace owner) {
        this.namespace = namespace;
        this.mode = mode;
        this.endpoint = endpoint;
        this.owner = owner;
    }

    /** Owns {@code namespace}, with in-process clients: closing closes it (and its endpoint). */
    public static EmulatedNamespace owning(Namespace namespace) {
        return owning(namespace, ClientMode.IN_PROCESS);
    }

    /** Owns {@code namespace}, with clients made as {@code mode} says: closing closes it (and its endpoint). */
    public static EmulatedNamespace owning(Namespace namespace, ClientMode mode) {
        return owning(namespace, mode, EndpointSettings.defaults());
    }

    /**
     * Owns {@code namespace}, with clients made as {@code mode} says, its endpoint (started on first use) with {@code
     * endpoint}'s settings.
     */
    public static EmulatedNamespace owning(Namespace namespace, ClientMode mode, EndpointSettings endpoint) {
        return new EmulatedNamespace(namespace, mode, endpoint, null);
    }

    /** Clients of a namespace that {@code owner} owns (a test method of a per-class namespace). */
    public static EmulatedNamespace borrowing(EmulatedNamespace owner) {
        return new EmulatedNamespace(owner.namespace, owner.mode, owner.endpoint, owner);
    }

    public Namespace namespace() {
        return namespace;
    }

    /** The clients of this scope, made on first use: in process, or over AMQP with {@link ClientMode#AMQP}. */
    public synchronized EmulatorClients clients() {
        requireOpen();
        if (clients == null) {
            clients = mode == ClientMode.AMQP
                    ? EmulatorClients.connectingTo(namespace, server().getConnectionString())
                    : EmulatorClients.of(namespace);
        }
        return clients;
    }

    /** The namespace's AMQP endpoint if it has been started, else null. */
    public ServiceBusEmulatorServer serverIfStarted() {
        if (owner != null) {
            return owner.serverIfStarted();
        }
        synchronized (this) {
            return server;
        }
    }

    /** The namespace's AMQP endpoint, started on first use (one per namespace). */
    public ServiceBusEmulatorServer server() {
        if (owner != null) {
            return owner.server();
        }
        synchronized (this) {
            requireOpen();
            if (server == null) {
                server = ServiceBusEmulatorServer.start(namespace, endpoint);
            }
            return server;
        }
    }

    /** Closes {@code resource} when the test ends, before the clients; returns it. */
    public synchronized <T extends AutoCloseable> T closeAfterTest(T resource) {
        extras.add(resource);
        return resource;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the namespace of this test has been closed");
        }
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        EmulatorClients toCloseClients;
        ServiceBusEmulatorServer toCloseServer;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = List.copyOf(extras);
            toCloseClients = clients;
            toCloseServer = server;
        }
        try {
            for (int i = toClose.size() - 1; i >= 0; i--) {
                closeQuietly(toClose.get(i));
            }
            if (toCloseClients != null) {
                toCloseClients.close();
            }
        } finally {
            try {
                if (toCloseServer != null) {
                    toCloseServer.close();
                }
            } finally {
                if (owner == null) {
                    namespace.close();
                }
            }
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            System.getLogger(EmulatedNamespace.class.getName())
                    .log(System.Logger.Level.WARNING, "closing " + resource + " after the test failed", e);
        }
    }
}
