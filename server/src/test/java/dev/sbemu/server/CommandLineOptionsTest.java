package dev.sbemu.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Tier;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommandLineOptionsTest {
    @TempDir
    Path dir;

    private CommandLineOptions parse(Map<String, String> env, String... args) {
        return CommandLineOptions.parse(List.of(args), env, dir.resolve("absent/Config.json"));
    }

    @Test
    @DisplayName(
            "SRV-1 the defaults are Microsoft's emulator's: AMQP 5672, HTTP 5300, loopback, any key, running clock")
    void defaults() {
        CommandLineOptions options = parse(Map.of());
        assertEquals(5672, options.amqpPort());
        assertEquals(5300, options.httpPort());
        assertEquals(InetAddress.getLoopbackAddress(), options.bindAddress());
        assertEquals(Optional.empty(), options.config());
        assertEquals(Optional.empty(), options.key());
        assertEquals(ClockMode.RUNNING, options.clockMode());
        assertEquals(Tier.STANDARD, options.tier());
        assertEquals(Optional.empty(), options.startAt());
        assertEquals(Optional.empty(), options.journalCapacity());
        assertFalse(options.help());
        assertFalse(options.version());
    }

    @Test
    @DisplayName("SRV-2 the default Config.json is used when it exists, --config wins over it")
    void defaultConfig() throws IOException {
        Path found = Files.writeString(dir.resolve("Config.json"), "{}");
        Path given = Files.writeString(dir.resolve("Other.json"), "{}");
        CommandLineOptions options = CommandLineOptions.parse(List.of(), Map.of(), found);
        assertEquals(Optional.of(found), options.config());
        assertFalse(options.configGiven());
        options = CommandLineOptions.parse(List.of("--config", given.toString()), Map.of(), found);
        assertEquals(Optional.of(given), options.config());
        assertTrue(options.configGiven());
    }

    @Test
    @DisplayName("SRV-3 every option as --flag value, --flag=value and SBEMU_* variable; the flag wins")
    void flagsAndVariables() throws IOException {
        Path config = Files.writeString(dir.resolve("Config.json"), "{}");
        CommandLineOptions options = parse(
                Map.of(),
                "--amqp-port",
                "0",
                "--http-port=0",
                "--bind-address",
                "0.0.0.0",
                "--config",
                config.toString(),
                "--key",
                "secret",
                "--clock",
                "FROZEN",
                "--start-at",
                "2030-01-01T00:00:00Z",
                "--tier",
                "premium",
                "--journal-capacity",
                "50");
        assertEquals(0, options.amqpPort());
        assertEquals(0, options.httpPort());
        assertTrue(options.bindAddress().isAnyLocalAddress());
        assertEquals(Optional.of(config), options.config());
        assertEquals(Optional.of("secret"), options.key());
        assertEquals(ClockMode.FROZEN, options.clockMode());
        assertEquals(Optional.of(Instant.parse("2030-01-01T00:00:00Z")), options.startAt());
        assertEquals(Tier.PREMIUM, options.tier());
        assertEquals(Optional.of(50), options.journalCapacity());

        Map<String, String> env = Map.of(
                "SBEMU_AMQP_PORT",
                "6000",
                "SBEMU_HTTP_PORT",
                "6001",
                "SBEMU_BIND_ADDRESS",
                "127.0.0.1",
                "SBEMU_CONFIG",
                config.toString(),
                "SBEMU_KEY",
                "k",
                "SBEMU_CLOCK",
                "frozen",
                "SBEMU_START_AT",
                "2031-02-03T04:05:06+01:00",
                "SBEMU_TIER",
                "basic",
                "SBEMU_JOURNAL_CAPACITY",
                "7");
        options = parse(env);
        assertEquals(6000, options.amqpPort());
        assertEquals(6001, options.httpPort());
        assertEquals(Optional.of(config), options.config());
        assertEquals(Optional.of("k"), options.key());
        assertEquals(ClockMode.FROZEN, options.clockMode());
        assertEquals(Optional.of(Instant.parse("2031-02-03T03:05:06Z")), options.startAt());
        assertEquals(Tier.BASIC, options.tier());
        assertEquals(Optional.of(7), options.journalCapacity());

        assertEquals(7000, parse(env, "--amqp-port", "7000").amqpPort());
    }

    @Test
    @DisplayName(
            "SRV-1 EMULATOR_HTTP_PORT sets the HTTP port as for Microsoft's emulator; SBEMU_HTTP_PORT and the flag win")
    void emulatorHttpPort() {
        assertEquals(5400, parse(Map.of("EMULATOR_HTTP_PORT", "5400")).httpPort());
        assertEquals(
                5500,
                parse(Map.of("EMULATOR_HTTP_PORT", "5400", "SBEMU_HTTP_PORT", "5500"))
                        .httpPort());
        assertEquals(
                5600,
                parse(Map.of("EMULATOR_HTTP_PORT", "5400"), "--http-port", "5600")
                        .httpPort());
    }

    @Test
    @DisplayName("SRV-4 Microsoft's emulator's and SQL Server's variables are accepted and ignored")
    void ignoredVariables() {
        CommandLineOptions options = parse(Map.of(
                "ACCEPT_EULA", "Y", "SQL_SERVER", "sqledge", "MSSQL_SA_PASSWORD", "x", "SQL_WAIT_INTERVAL", "15"));
        assertEquals(
                List.of("ACCEPT_EULA", "SQL_SERVER", "MSSQL_SA_PASSWORD", "SQL_WAIT_INTERVAL"),
                options.ignoredVariables());
        assertEquals(5672, options.amqpPort());
    }

    @Test
    @DisplayName("SRV-5 --help and --version are recognised whatever else is given")
    void helpAndVersion() {
        assertTrue(parse(Map.of(), "--help").help());
        assertTrue(parse(Map.of(), "--amqp-port", "x", "-h").help());
        assertTrue(parse(Map.of(), "--version").version());
        String usage = CommandLineOptions.usage();
        for (String flag : List.of(
                "--amqp-port",
                "--http-port",
                "--bind-address",
                "--config",
                "--key",
                "--clock",
                "--start-at",
                "--tier",
                "--journal-capacity",
                "--help",
                "--version",
                "SBEMU_AMQP_PORT",
                "ACCEPT_EULA")) {
            assertTrue(usage.contains(flag), flag);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @DisplayName("SRV-5 a bad option is one message naming it")
    @CsvSource(
            delimiter = '|',
            value = {
                "--amqp-port|x|--amqp-port: 'x' is not a number",
                "--amqp-port|70000|--amqp-port: 70000 is out of range 0..65535",
                "--http-port|-1|--http-port: -1 is out of range 0..65535",
                "--clock|sometimes|--clock: 'sometimes' is not one of frozen, running",
                "--tier|gold|--tier: 'gold' is not one of basic, standard, premium",
                "--start-at|yesterday|--start-at: 'yesterday' is not an ISO-8601 instant",
                "--journal-capacity|0|--journal-capacity: 0 is out of range",
                "--config|/no/such/Config.json|--config: no such file: /no/such/Config.json",
                "--bind-address|no-such-host.invalid|--bind-address: 'no-such-host.invalid' is not an address",
                "--key|a;b|--key: must be a non-blank key without ';'",
            })
    void badOption(String flag, String value, String message) {
        UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), flag, value));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    @DisplayName("SRV-5 an unknown option, a stray argument, a missing value and a bad variable are named")
    void badShapes() {
        assertEquals(
                "unknown option --amqp-prot (see --help)",
                assertThrows(UsageException.class, () -> parse(Map.of(), "--amqp-prot", "1"))
                        .getMessage());
        assertTrue(assertThrows(UsageException.class, () -> parse(Map.of(), "5672"))
                .getMessage()
                .startsWith("unexpected argument '5672'"));
        assertEquals(
                "--amqp-port: missing value PORT",
                assertThrows(UsageException.class, () -> parse(Map.of(), "--amqp-port"))
                        .getMessage());
        assertEquals(
                "--clock: missing value running|frozen",
                assertThrows(UsageException.class, () -> parse(Map.of(), "--clock", "--tier", "basic"))
                        .getMessage());
        assertTrue(assertThrows(UsageException.class, () -> parse(Map.of("SBEMU_AMQP_PORT", "five")))
                .getMessage()
                .contains("SBEMU_AMQP_PORT"));
    }
}
