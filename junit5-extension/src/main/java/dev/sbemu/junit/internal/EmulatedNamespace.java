package dev.sbemu.junit.internal;

import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.EmulatorClients;
import java.util.ArrayList;
import java.util.List;

/**
 * A namespace started for a test (or test class) and the clients made for it, kept in the test's
 * {@code ExtensionContext.Store} so that JUnit closes both when the test ends: clients (and their processors and
 * threads) first, then the namespace. Closing twice is harmless. It is an {@link AutoCloseable}, which JUnit 5.13+
 * and 6 close (the deprecated {@code Store.CloseableResource} is not implemented).
 */
public final class EmulatedNamespace implements AutoCloseable {
    private final Namespace namespace;
    private final EmulatorClients clients;
    private final boolean ownsNamespace;
    private final List<AutoCloseable> extras = new ArrayList<>();
    private boolean closed;

    private EmulatedNamespace(Namespace namespace, boolean ownsNamespace) {
        this.namespace = namespace;
        this.clients = EmulatorClients.of(namespace);
        this.ownsNamespace = ownsNamespace;
    }

    /** Owns {@code namespace}: closing closes it. */
    public static EmulatedNamespace owning(Namespace namespace) {
        return new EmulatedNamespace(namespace, true);
    }

    /** Clients of a namespace that another scope owns (a test method of a per-class namespace). */
    public static EmulatedNamespace borrowing(Namespace namespace) {
        return new EmulatedNamespace(namespace, false);
    }

    public Namespace namespace() {
        return namespace;
    }

    public EmulatorClients clients() {
        return clients;
    }

    /** Closes {@code resource} when the test ends, before the clients; returns it. */
    public synchronized <T extends AutoCloseable> T closeAfterTest(T resource) {
        extras.add(resource);
        return resource;
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = List.copyOf(extras);
        }
        try {
            for (int i = toClose.size() - 1; i >= 0; i--) {
                closeQuietly(toClose.get(i));
            }
            clients.close();
        } finally {
            if (ownsNamespace) {
                namespace.close();
            }
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            System.getLogger(EmulatedNamespace.class.getName()).log(System.Logger.Level.WARNING,
                    "closing " + resource + " after the test failed", e);
        }
    }
}
