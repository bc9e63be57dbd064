package dev.sbemu.core.config;

import dev.sbemu.core.Namespace;
import dev.sbemu.core.internal.config.ConfigLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A topology file in the format of Microsoft's Service Bus emulator ({@code Config.json}, SPEC CFG-1..3), loaded
 * so that its queues, topics, subscriptions and rules can be created in an emulated {@link Namespace}. Needs
 * only {@code emulator-core} (no JUnit):
 *
 * <pre>{@code
 * Namespace namespace = Namespace.create();
 * EmulatorConfig.load("classpath:servicebus/Config.json").applyTo(namespace);
 * }</pre>
 *
 * <p>The file loads as Microsoft's emulator loads it: {@code //} comments, trailing commas, a byte-order mark,
 * CRLF, tabs, missing keys and empty forward targets are fine; {@code Logging} is ignored; unknown keys are
 * ignored, each named in one warning line ({@link #warnings()}, also logged at WARNING). The Docker emulator's own limits (one
 * namespace, 50 entities, TTL at most an hour, ...) are not imposed, only the real service's. Immutable and
 * thread-safe.
 */
public final class EmulatorConfig {
    private final ConfigLoader.Loaded loaded;

    private EmulatorConfig(ConfigLoader.Loaded loaded) {
        this.loaded = loaded;
    }

    /**
     * Loads {@code "classpath:some/Config.json"} through the thread's context class loader, or a file path
     * (relative to the working directory).
     *
     * @throws EmulatorConfigException when the file is missing or malformed, naming the file, JSON path, value and
     *         what is allowed
     */
    public static EmulatorConfig load(String location) {
        return load(location, Thread.currentThread().getContextClassLoader());
    }

    /** Loads {@code "classpath:some/Config.json"} through {@code classLoader}, or a file path. */
    public static EmulatorConfig load(String location, ClassLoader classLoader) {
        return new EmulatorConfig(ConfigLoader.load(location, classLoader));
    }

    /** Loads a file. */
    public static EmulatorConfig load(Path file) {
        return new EmulatorConfig(ConfigLoader.load(file));
    }

    /**
     * Parses Config.json content.
     *
     * @param content the bytes, UTF-8 with or without a byte-order mark
     * @param source the name errors and warnings show, such as the file's path
     */
    public static EmulatorConfig parse(byte[] content, String source) {
        return new EmulatorConfig(ConfigLoader.parse(content, source));
    }

    /**
     * Creates this file's entities in {@code namespace}.
     *
     * @throws EmulatorConfigException when the namespace rejects an entity or rule (a value outside the real
     *         service's limits, a name that exists already, a forward target that does not exist, a malformed SQL
     *         filter or action), naming the JSON path
     */
    public void applyTo(Namespace namespace) {
        try {
            loaded.topology().applyTo(namespace);
        } catch (InvalidTopologyException e) {
            throw new EmulatorConfigException(e.getMessage(), e.getCause());
        }
    }

    /** The file's entities, each with the JSON path it was declared at. */
    public Topology topology() {
        return loaded.topology();
    }

    /**
     * Each namespace of {@code UserConfig.Namespaces} with its entities, by its {@code Name} ({@code namespace-<index>}
     * without one), in the file's order; {@link #topology()} is all of them together. A server serves each as a
     * namespace of its own (spec NS-8).
     */
    public Map<String, Topology> namespaces() {
        return loaded.namespaces();
    }

    /**
     * The most queues and topics the file's namespace {@code name} holds together, from its {@code "Limits": {
     * "MaxQueuesAndTopics": n }} (sbemu's extension, spec NS-9), or 0 when it gives none (the tier's).
     */
    public int maxQueuesAndTopics(String name) {
        return loaded.maxQueuesAndTopics().getOrDefault(name, 0);
    }

    /** The warnings loading produced: one line per ignored key. */
    public List<String> warnings() {
        return loaded.warnings();
    }

    /** Where the file came from, as errors show it. */
    public String source() {
        return loaded.source();
    }

    @Override
    public String toString() {
        return "EmulatorConfig[" + loaded.source() + ": "
                + loaded.topology().queues().size() + " queues, "
                + loaded.topology().topics().size() + " topics]";
    }
}
