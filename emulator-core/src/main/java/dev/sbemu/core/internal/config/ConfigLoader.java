package dev.sbemu.core.internal.config;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.config.EmulatorConfigException;
import dev.sbemu.core.config.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Finds and parses Config.json files: {@code classpath:} resources or file paths. */
public final class ConfigLoader {
    private static final String CLASSPATH = "classpath:";

    private ConfigLoader() {}

    /**
     * A parsed file.
     *
     * @param source where it came from, as errors show it
     * @param topology its entities
     * @param warnings one line per ignored key
     * @param namespaces each namespace's entities, by name, in the file's order
     * @param maxQueuesAndTopics each namespace's own most queues and topics, by name, where the file gives one
     */
    public record Loaded(
            String source,
            Topology topology,
            List<String> warnings,
            Map<String, Topology> namespaces,
            Map<String, Integer> maxQueuesAndTopics) {
        public Loaded {
            warnings = List.copyOf(warnings);
            namespaces = Collections.unmodifiableMap(new LinkedHashMap<>(namespaces));
            maxQueuesAndTopics = Map.copyOf(maxQueuesAndTopics);
        }
    }

    /** Loads {@code "classpath:some/Config.json"} through {@code classLoader}, or a file path. */
    public static Loaded load(String location, ClassLoader classLoader) {
        Objects.requireNonNull(location, "location");
        if (!location.startsWith(CLASSPATH)) {
            return load(Path.of(location));
        }
        String resource = location.substring(CLASSPATH.length()).replaceFirst("^/+", "");
        ClassLoader loader = classLoader != null ? classLoader : ConfigLoader.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new EmulatorConfigException(
                        location + ": not found on the class path (looked for resource '" + resource + "')");
            }
            return parse(in.readAllBytes(), location);
        } catch (IOException e) {
            throw new EmulatorConfigException(location + ": cannot be read: " + e.getMessage(), e);
        }
    }

    /** Loads a file. */
    public static Loaded load(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        try {
            return parse(Files.readAllBytes(absolute), absolute.toString());
        } catch (NoSuchFileException e) {
            throw new EmulatorConfigException(
                    absolute + ": no such file (working directory "
                            + Path.of("").toAbsolutePath() + ")",
                    e);
        } catch (IOException e) {
            throw new EmulatorConfigException(absolute + ": cannot be read: " + e.getMessage(), e);
        }
    }

    /** Parses content; warnings are logged and kept. */
    public static Loaded parse(byte[] content, String source) {
        List<String> warnings = new ArrayList<>();
        Map<String, Integer> limits = new LinkedHashMap<>();
        Map<String, Topology> namespaces = ConfigJson.readNamespaces(
                content,
                source,
                warning -> {
                    warnings.add(warning);
                    // looked up here, not in a static field: a file without warnings does not start the logging
                    // system
                    System.getLogger("dev.sbemu.core.config.EmulatorConfig").log(System.Logger.Level.WARNING, warning);
                },
                limits);
        List<Topology.QueueSpec> queues = new ArrayList<>();
        List<Topology.TopicSpec> topics = new ArrayList<>();
        List<AuthorizationRule> policies = new ArrayList<>();
        for (Topology one : namespaces.values()) {
            queues.addAll(one.queues());
            topics.addAll(one.topics());
            policies.addAll(one.authorizationRules());
        }
        return new Loaded(source, new Topology(queues, topics, policies), warnings, namespaces, limits);
    }
}
