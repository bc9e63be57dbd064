package dev.sbemu.junit.internal;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.core.config.EmulatorConfigException;
import dev.sbemu.core.config.InvalidTopologyException;
import dev.sbemu.core.config.Topology;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.ServiceBusEmulator.Lifecycle;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The merged {@link ServiceBusEmulator} declarations of a test class and its enclosing classes: the outermost
 * first; inner ones add entities and config files, and override settings they set to non-default values.
 *
 * @param lifecycle when namespaces are created
 * @param startAt the clock's start, or null for the wall-clock now
 * @param clock whether the clock runs or stands still
 * @param expiryMode the expiry mode
 * @param tier the tier
 * @param journalCapacity journal events kept
 * @param topology the entities, from annotations and config files
 * @param tlsPort the endpoint's TLS port (0 for an ephemeral one), or -1 for none
 */
public record EmulatorDeclaration(
        Lifecycle lifecycle,
        Instant startAt,
        ClockMode clock,
        ExpiryMode expiryMode,
        Tier tier,
        int journalCapacity,
        Topology topology,
        int tlsPort) {

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
        return new EmulatorDeclaration(lifecycle, startAt, clock, expiryMode, tier, journalCapacity, topology, tlsPort);
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
        Namespace.Builder builder = Namespace.builder()
                .expiryMode(expiryMode)
                .tier(tier)
                .journalCapacity(journalCapacity)
                .clockMode(clock);
        if (startAt != null) {
            builder.startingAt(startAt);
        }
        Namespace namespace = builder.build();
        try {
            topology.applyTo(namespace);
            return namespace;
        } catch (RuntimeException e) {
            namespace.close();
            throw e;
        }
    }
}
