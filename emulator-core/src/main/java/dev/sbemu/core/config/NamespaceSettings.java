package dev.sbemu.core.config;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import java.time.Instant;
import java.util.Objects;

/**
 * Everything a namespace is started with: its clock (mode and start), its tier (which sets the message size and
 * time-to-live limits), its expiry mode, its journal's capacity and its {@link Topology}. One value filled by every way
 * to start a namespace: by hand ({@link #defaults()} and the {@code with...} copies), from the standalone server's
 * Config.json and flags, and from the {@code @ServiceBusEmulator} and {@code @SpringServiceBusEmulator} annotations;
 * {@link #start()} makes a namespace from it. It is also what a reset restores: an endpoint takes {@link
 * #of(Namespace)} of the namespace it is handed, and {@code POST /__admin/reset} serves {@link #start()} of that
 * value, so a test can compare the value before and after a reset. Immutable.
 *
 * @param clockMode whether the clock runs from the start ({@link ClockMode#RUNNING}) or stands still until advanced
 *     ({@link ClockMode#FROZEN}, the default)
 * @param startAt the clock's start, or null for the wall-clock instant when the namespace is started
 * @param tier the tier (default {@link Tier#STANDARD})
 * @param expiryMode when expired messages leave (default {@link ExpiryMode#EAGER})
 * @param journalCapacity the most events the journal keeps (default {@link Namespace#DEFAULT_JOURNAL_CAPACITY})
 * @param topology the entities, with their options and rules
 * @param maxQueuesAndTopics the most queues and topics the namespace holds together (RES-6, NS-9); 0, the default,
 *     for the tier's ({@link Tier#maxQueuesAndTopics()})
 */
public record NamespaceSettings(
        ClockMode clockMode,
        Instant startAt,
        Tier tier,
        ExpiryMode expiryMode,
        int journalCapacity,
        Topology topology,
        int maxQueuesAndTopics) {

    private static final NamespaceSettings DEFAULTS = new NamespaceSettings(
            ClockMode.FROZEN,
            null,
            Tier.STANDARD,
            ExpiryMode.EAGER,
            Namespace.DEFAULT_JOURNAL_CAPACITY,
            Topology.empty(),
            0);

    /**
     * Checks the settings.
     *
     * @throws NullPointerException for a null clock mode, tier, expiry mode or topology
     * @throws IllegalArgumentException for a journal capacity below 1 or a negative {@code maxQueuesAndTopics}
     */
    public NamespaceSettings {
        Objects.requireNonNull(clockMode, "clockMode");
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(expiryMode, "expiryMode");
        Objects.requireNonNull(topology, "topology");
        if (journalCapacity < 1) {
            throw new IllegalArgumentException("journalCapacity must be at least 1, was " + journalCapacity);
        }
        if (maxQueuesAndTopics < 0) {
            throw new IllegalArgumentException(
                    "maxQueuesAndTopics must be positive (or 0 for the tier's), was " + maxQueuesAndTopics);
        }
    }

    /** Settings with the tier's most queues and topics. */
    public NamespaceSettings(
            ClockMode clockMode,
            Instant startAt,
            Tier tier,
            ExpiryMode expiryMode,
            int journalCapacity,
            Topology topology) {
        this(clockMode, startAt, tier, expiryMode, journalCapacity, topology, 0);
    }

    /** A Standard namespace, EAGER expiry, a frozen clock started at the wall-clock now, no entities. */
    public static NamespaceSettings defaults() {
        return DEFAULTS;
    }

    /**
     * What {@code namespace} is now, without its messages: its clock's mode and instant, tier, expiry mode, journal
     * capacity, most queues and topics (0 when it is the tier's), and its entities with their options and rules ({@link Topology#of(Namespace)}). {@link #start()} of
     * it is a fresh namespace like this one, with no messages.
     */
    public static NamespaceSettings of(Namespace namespace) {
        return new NamespaceSettings(
                namespace.clock().mode(),
                namespace.clock().instant(),
                namespace.tier(),
                namespace.expiryMode(),
                namespace.journal().capacity(),
                Topology.of(namespace),
                namespace.maxQueuesAndTopics() == namespace.tier().maxQueuesAndTopics()
                        ? 0
                        : namespace.maxQueuesAndTopics());
    }

    /**
     * A new namespace with these settings and entities (created in the core's one order: topics, then queues with
     * each forwarding target before its source, then subscriptions with their rules; {@link Topology#applyTo}).
     *
     * @throws InvalidTopologyException when the namespace rejects an entity or a rule (nothing is left open)
     */
    public Namespace start() {
        Namespace.Builder builder = Namespace.builder()
                .clockMode(clockMode)
                .tier(tier)
                .expiryMode(expiryMode)
                .journalCapacity(journalCapacity)
                .maxQueuesAndTopics(maxQueuesAndTopics);
        if (startAt != null) {
            builder.startingAt(startAt);
        }
        Namespace namespace = builder.build();
        try {
            topology.applyTo(namespace);
            return namespace;
        } catch (RuntimeException | Error e) {
            namespace.close();
            throw e;
        }
    }

    /** A copy with the clock's mode set to {@code value}. */
    public NamespaceSettings withClockMode(ClockMode value) {
        return new NamespaceSettings(value, startAt, tier, expiryMode, journalCapacity, topology, maxQueuesAndTopics);
    }

    /** A copy with the clock's start set to {@code value} (null: the wall-clock now at start). */
    public NamespaceSettings withStartAt(Instant value) {
        return new NamespaceSettings(clockMode, value, tier, expiryMode, journalCapacity, topology, maxQueuesAndTopics);
    }

    /** A copy with the tier set to {@code value}. */
    public NamespaceSettings withTier(Tier value) {
        return new NamespaceSettings(
                clockMode, startAt, value, expiryMode, journalCapacity, topology, maxQueuesAndTopics);
    }

    /** A copy with the expiry mode set to {@code value}. */
    public NamespaceSettings withExpiryMode(ExpiryMode value) {
        return new NamespaceSettings(clockMode, startAt, tier, value, journalCapacity, topology, maxQueuesAndTopics);
    }

    /** A copy with the journal's capacity set to {@code value}. */
    public NamespaceSettings withJournalCapacity(int value) {
        return new NamespaceSettings(clockMode, startAt, tier, expiryMode, value, topology, maxQueuesAndTopics);
    }

    /** A copy with the topology set to {@code value}. */
    public NamespaceSettings withTopology(Topology value) {
        return new NamespaceSettings(clockMode, startAt, tier, expiryMode, journalCapacity, value, maxQueuesAndTopics);
    }

    /** A copy with the most queues and topics set to {@code value} (0: the tier's). */
    public NamespaceSettings withMaxQueuesAndTopics(int value) {
        return new NamespaceSettings(clockMode, startAt, tier, expiryMode, journalCapacity, topology, value);
    }
}
