package dev.sbemu.junit.internal;

import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.core.config.EmulatorConfigException;
import dev.sbemu.core.config.InvalidTopologyException;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.core.config.Topology;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.ServiceBusEmulator.Lifecycle;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The merged {@link ServiceBusEmulator} declarations of a test class and its enclosing classes: the outermost
 * first; inner ones add entities and config files, and override settings they set to non-default values. What they
 * declare is the two values every way to start sbemu fills: the namespace's {@link NamespaceSettings} and its
 * endpoint's {@link EndpointSettings}.
 *
 * @param lifecycle when namespaces are created
 * @param namespace the namespace's settings: clock, tier, expiry mode, journal capacity, and the entities from
 *     annotations and config files
 * @param endpoint the settings of the namespace's endpoint, when a test asks for one (the declared TLS port)
 */
public record EmulatorDeclaration(Lifecycle lifecycle, NamespaceSettings namespace, EndpointSettings endpoint) {

    /**
     * One {@code @ServiceBusEmulator} and the class it sits on.
     *
     * @param annotation the declaration (for a twin annotation, e.g. Spring's, a synthesized instance)
     * @param on the class it sits on
     * @param annotationName how errors name the annotation, e.g. {@code @ServiceBusEmulator}
     */
    public record Declared(ServiceBusEmulator annotation, Class<?> on, String annotationName) {
        public Declared(ServiceBusEmulator annotation, Class<?> on) {
            this(annotation, on, "@ServiceBusEmulator");
        }

        String where() {
            return annotationName + " on " + (on.getCanonicalName() != null ? on.getCanonicalName() : on.getName());
        }
    }

    /**
     * Merges declarations.
     *
     * @param declarations outermost first
     * @param configs loads a config location for the class that declares it
     * @throws InvalidTopologyException for malformed attributes (with the attribute and the value)
     * @throws EmulatorConfigException for unreadable or malformed config files
     */
    public static EmulatorDeclaration merge(
            List<Declared> declarations, BiFunction<String, Class<?>, Topology> configs) {
        Lifecycle lifecycle = Lifecycle.PER_METHOD;
        Instant startAt = null;
        ClockMode clock = ClockMode.FROZEN;
        ExpiryMode expiryMode = ExpiryMode.EAGER;
        Tier tier = Tier.STANDARD;
        int journalCapacity = Namespace.DEFAULT_JOURNAL_CAPACITY;
        Topology topology = Topology.empty();
        int tlsPort = -1;
        for (Declared d : declarations) {
            ServiceBusEmulator a = d.annotation();
            lifecycle = a.lifecycle() != Lifecycle.PER_METHOD ? a.lifecycle() : lifecycle;
            startAt = a.startAt().isEmpty() ? startAt : instant(a.startAt(), d);
            clock = a.clock() != ClockMode.FROZEN ? a.clock() : clock;
            expiryMode = a.expiryMode() != ExpiryMode.EAGER ? a.expiryMode() : expiryMode;
            tier = a.tier() != Tier.STANDARD ? a.tier() : tier;
            if (a.journalCapacity() < 1) {
                throw new InvalidTopologyException(
                        "journalCapacity = " + a.journalCapacity() + " in " + d.where() + ": must be at least 1");
            }
            journalCapacity =
                    a.journalCapacity() != Namespace.DEFAULT_JOURNAL_CAPACITY ? a.journalCapacity() : journalCapacity;
            if (a.tlsPort() < -1 || a.tlsPort() > 65_535) {
                throw new InvalidTopologyException("tlsPort = " + a.tlsPort() + " in " + d.where()
                        + ": must be -1 (none), 0 (an ephemeral port) or a port up to 65535");
            }
            tlsPort = a.tlsPort() != -1 ? a.tlsPort() : tlsPort;
            for (String location : a.config()) {
                topology = topology.plus(configs.apply(location, d.on()));
            }
            topology = topology.plus(AnnotationTopology.of(a, d.where()));
        }
        NamespaceSettings namespace =
                new NamespaceSettings(clock, startAt, tier, expiryMode, journalCapacity, topology);
        return new EmulatorDeclaration(
                lifecycle, namespace, EndpointSettings.defaults().withTlsPort(tlsPort));
    }

    private static Instant instant(String text, Declared d) {
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new InvalidTopologyException(
                    "startAt = \"" + text + "\" in " + d.where() + " is not an ISO-8601 "
                            + "instant such as \"2024-01-01T00:00:00Z\" (\"\" for the wall-clock now)",
                    e);
        }
    }

    /**
     * Starts a namespace with these settings and entities.
     *
     * @throws InvalidTopologyException when the core rejects an entity
     */
    public Namespace start() {
        return namespace.start();
    }

    /** The endpoint's TLS port (0 for an ephemeral one), or -1 for none. */
    public int tlsPort() {
        return endpoint.tlsPort();
    }
}
