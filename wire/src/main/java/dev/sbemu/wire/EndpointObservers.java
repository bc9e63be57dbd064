package dev.sbemu.wire;

import dev.sbemu.core.Namespace;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/** Tells the {@link EndpointObserver}s on the class path that an endpoint started, and later that it closed. */
public final class EndpointObservers {
    private EndpointObservers() {}

    /**
     * Tells every observer on the class path (loaded once, with {@link EndpointObserver}'s class loader) that an
     * endpoint started; closing the returned registration (idempotent, never throws) tells them it closed. An
     * observer that fails makes this call fail, after the observers already told are told the endpoint closed.
     */
    public static Registration endpointStarted(Supplier<Namespace> namespace, String keyName, String key) {
        return endpointStarted(namespace, keyName, key, EndpointObserver.Named.NONE);
    }

    /**
     * As {@link #endpointStarted(Supplier, String, String)}, for an endpoint that also serves the namespaces {@code
     * named} gives, chosen by the key name {@code <name>/<keyName>} (spec NS-2).
     */
    public static Registration endpointStarted(
            Supplier<Namespace> namespace, String keyName, String key, EndpointObserver.Named named) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(named, "named");
        Objects.requireNonNull(keyName, "keyName");
        Objects.requireNonNull(key, "key");
        List<AutoCloseable> handles = new ArrayList<>();
        try {
            for (EndpointObserver observer : Loaded.OBSERVERS) {
                handles.add(Objects.requireNonNull(
                        observer.started(namespace, keyName, key, named),
                        () -> observer.getClass().getName() + ".started returned null"));
            }
        } catch (RuntimeException | Error e) {
            new Registration(handles).close();
            throw e;
        }
        return new Registration(handles);
    }

    /** An endpoint's start as the observers were told it; closing it tells them the endpoint closed. */
    public static final class Registration implements AutoCloseable {
        private final List<AutoCloseable> handles;
        private boolean closed;

        private Registration(List<AutoCloseable> handles) {
            this.handles = handles;
        }

        @Override
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            for (AutoCloseable handle : handles) {
                try {
                    handle.close();
                } catch (Exception e) {
                    System.getLogger(EndpointObservers.class.getName())
                            .log(System.Logger.Level.WARNING, "sbemu: an endpoint observer failed to close: " + e, e);
                }
            }
        }
    }

    /** The observers on the class path, loaded when the first endpoint starts. */
    private static final class Loaded {
        static final List<EndpointObserver> OBSERVERS = load();

        private static List<EndpointObserver> load() {
            List<EndpointObserver> out = new ArrayList<>();
            ServiceLoader.load(EndpointObserver.class, EndpointObserver.class.getClassLoader())
                    .forEach(out::add);
            return List.copyOf(out);
        }
    }
}
