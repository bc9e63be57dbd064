package dev.sbemu.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.amqp.EndpointLimits;
import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Tier;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.server.CommandLineOptions.Flag;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FlagTableTest {

    private static CommandLineOptions parse(Map<String, String> env, String... args) {
        return CommandLineOptions.parse(List.of(args), env, null);
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    private static Flag flag(String name) {
        return CommandLineOptions.FLAGS.stream()
                .filter(f -> f.flag().equals(name))
                .findFirst()
                .orElse(null);
    }

    @Test
    @DisplayName("SRV-3 every endpoint limit has a --flag and an SBEMU_ variable that set exactly that limit")
    void everyLimitHasAFlag() throws Exception {
        EndpointLimits defaults = EndpointLimits.defaults();
        for (RecordComponent component : EndpointLimits.class.getRecordComponents()) {
            String name = kebab(component.getName());
            Flag flag = flag(name);
            assertNotNull(flag, "EndpointLimits." + component.getName() + " has no --" + name + " in the flag table");
            assertTrue(flag.limit(), name);
            Object before = component.getAccessor().invoke(defaults);
            Object changed;
            String text;
            if (before instanceof Integer n) {
                changed = n + 1;
                text = String.valueOf(changed);
            } else {
                changed = ((Duration) before).plusSeconds(1);
                text = changed.toString();
            }
            EndpointLimits byFlag =
                    parse(Map.of(), "--" + name, text).endpointSettings().limits();
            EndpointLimits byVariable =
                    parse(Map.of(flag.variable(), text)).endpointSettings().limits();
            assertEquals(changed, component.getAccessor().invoke(byFlag), name);
            assertEquals(byFlag, byVariable, flag.variable());
            for (RecordComponent other : EndpointLimits.class.getRecordComponents()) {
                if (!other.getName().equals(component.getName())) {
                    assertEquals(
                            other.getAccessor().invoke(defaults),
                            other.getAccessor().invoke(byFlag),
                            "--" + name + " changed " + other.getName());
                }
            }
        }
        Set<String> limits = new HashSet<>();
        for (RecordComponent component : EndpointLimits.class.getRecordComponents()) {
            limits.add(kebab(component.getName()));
        }
        assertEquals(
                limits,
                CommandLineOptions.FLAGS.stream()
                        .filter(Flag::limit)
                        .map(Flag::flag)
                        .collect(Collectors.toSet()),
                "the limit rows are the limits");
    }

    @Test
    @DisplayName("SRV-5 --help lists every row of the table with its variable and default")
    void helpComesFromTheTable() {
        String usage = CommandLineOptions.usage();
        for (Flag flag : CommandLineOptions.FLAGS) {
            assertTrue(usage.contains("--" + flag.flag() + " " + flag.valueName()), flag.flag());
            assertTrue(usage.contains(flag.variable()), flag.variable());
            assertTrue(usage.contains("(default " + flag.defaultText() + ")"), flag.flag());
        }
        assertTrue(usage.contains("SBEMU_MAX_CONNECTIONS"), usage);
        assertTrue(usage.contains("--idle-timeout DURATION"), usage);
        assertTrue(usage.contains("(default 1m)"), usage);
    }

    @Test
    @DisplayName("SRV-1 with no options the endpoint has Microsoft's emulator's ports, any key, the default limits")
    void defaults() {
        assertEquals(
                EndpointSettings.defaults()
                        .withPort(5672)
                        .withHttpPort(5300)
                        .withSharedAccessKey(StandaloneServer.EMULATOR_KEY)
                        .withAcceptAnyKey(true),
                parse(Map.of()).endpointSettings());
        EndpointSettings keyed =
                parse(Map.of(), "--key", "secret", "--amqps-port", "0").endpointSettings();
        assertEquals("secret", keyed.sharedAccessKey());
        assertEquals(false, keyed.acceptAnyKey());
        assertEquals(0, keyed.tlsPort());
    }

    @Test
    @DisplayName("SRV-3 the namespace's flags fill NamespaceSettings: running clock by default, start, tier, journal")
    void namespaceSettings() {
        assertEquals(
                NamespaceSettings.defaults().withClockMode(ClockMode.RUNNING),
                parse(Map.of()).namespaceSettings());
        assertEquals(
                NamespaceSettings.defaults()
                        .withStartAt(Instant.parse("2030-01-01T00:00:00Z"))
                        .withTier(Tier.BASIC)
                        .withJournalCapacity(5),
                parse(
                                Map.of("SBEMU_TIER", "basic"),
                                "--clock=frozen",
                                "--start-at",
                                "2030-01-01T00:00:00Z",
                                "--journal-capacity",
                                "5")
                        .namespaceSettings());
    }

    @Test
    @DisplayName("SRV-5 durations take 500ms, 30s, 5m, 1h and ISO-8601; a bad limit is one message naming the flag")
    void badLimits() {
        assertEquals(
                Duration.ofMillis(500),
                parse(Map.of(), "--idle-timeout", "500ms")
                        .endpointSettings()
                        .limits()
                        .idleTimeout());
        assertEquals(
                Duration.ofHours(1),
                parse(Map.of(), "--handshake-timeout=1h")
                        .endpointSettings()
                        .limits()
                        .handshakeTimeout());
        assertEquals(
                Duration.ofSeconds(90),
                parse(Map.of("SBEMU_MAX_OPERATION_TIMEOUT", "PT1M30S"))
                        .endpointSettings()
                        .limits()
                        .maxOperationTimeout());
        assertEquals(
                "--max-frame-size: maxFrameSize must be at least 512 (AMQP's minimum), was 100",
                assertThrows(UsageException.class, () -> parse(Map.of(), "--max-frame-size", "100"))
                        .getMessage());
        assertEquals(
                "--link-max: linkMax must be positive, was 0",
                assertThrows(UsageException.class, () -> parse(Map.of(), "--link-max", "0"))
                        .getMessage());
        assertTrue(assertThrows(UsageException.class, () -> parse(Map.of(), "--idle-timeout", "soon"))
                .getMessage()
                .startsWith("--idle-timeout: 'soon' is not a duration"));
        assertTrue(assertThrows(UsageException.class, () -> parse(Map.of("SBEMU_WORKER_THREADS", "many")))
                .getMessage()
                .contains("SBEMU_WORKER_THREADS"));
        assertNotEquals(
                EndpointLimits.defaults(),
                parse(Map.of(), "--worker-threads", "3").endpointSettings().limits());
    }
}
