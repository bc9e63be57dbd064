package dev.sbemu.wire;

import dev.sbemu.core.Namespace;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** An observer on the test class path (META-INF/services): records what endpoints tell it. */
public final class RecordingObserver implements EndpointObserver {
    static final List<String> EVENTS = new CopyOnWriteArrayList<>();
    /** A key name whose start fails, to see what was already started closed again. */
    static final String FAILING = "failing";

    @Override
    public AutoCloseable started(Supplier<Namespace> namespace, String keyName, String key) {
        if (keyName.equals(FAILING)) {
            throw new IllegalStateException("refused " + keyName);
        }
        EVENTS.add("started " + keyName + " " + key + " " + (namespace.get() != null));
        return () -> EVENTS.add("closed " + keyName);
    }

    /** A second observer, so that a failure of the first one has something to undo. */
    public static final class Second implements EndpointObserver {
        @Override
        public AutoCloseable started(Supplier<Namespace> namespace, String keyName, String key) {
            EVENTS.add("second started " + keyName);
            return () -> EVENTS.add("second closed " + keyName);
        }
    }
}
