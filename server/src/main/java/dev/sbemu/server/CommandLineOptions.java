package dev.sbemu.server;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Tier;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The server's options, from the command line ({@code --amqp-port 5672} or {@code --amqp-port=5672}) and the
 * environment ({@code SBEMU_AMQP_PORT=5672}); a command-line option wins over its variable. The defaults are those of
 * Microsoft's Service Bus emulator, so its compose files and connection strings work unchanged. Immutable.
 */
public final class CommandLineOptions {
    /** Where Microsoft's emulator image reads its topology from; used when present and no {@code --config} is given. */
    public static final Path DEFAULT_CONFIG = Path.of("/ServiceBus_Emulator/ConfigFiles/Config.json");
    /** Microsoft's emulator's AMQP port. */
    public static final int DEFAULT_AMQP_PORT = 5672;
    /** Microsoft's emulator's HTTP port (management, health), which it lets {@code EMULATOR_HTTP_PORT} change. */
    public static final int DEFAULT_HTTP_PORT = 5300;

    /** Variables of Microsoft's emulator image (and its SQL Server container) that are accepted and ignored. */
    static final List<String> IGNORED_VARIABLES =
            List.of("ACCEPT_EULA", "SQL_SERVER", "MSSQL_SA_PASSWORD", "SQL_WAIT_INTERVAL");

    private enum Option {
        AMQP_PORT("amqp-port", "PORT", "the AMQP port, 0 for an ephemeral one (default " + DEFAULT_AMQP_PORT + ")"),
        HTTP_PORT(
                "http-port",
                "PORT",
                "the HTTP port: management REST, /health, /__admin/; 0 for an ephemeral one " + "(default "
                        + DEFAULT_HTTP_PORT + ", or EMULATOR_HTTP_PORT). The AMQP port speaks HTTP too"),
        AMQPS_PORT(
                "amqps-port",
                "PORT",
                "also listen for AMQP over TLS (amqps://) there, with a self-signed "
                        + "certificate made at start; 0 for an ephemeral one, 5671 for JMS clients (default: no TLS port)"),
        BIND_ADDRESS(
                "bind-address",
                "ADDRESS",
                "the address to listen on (default 127.0.0.1; 0.0.0.0 in a "
                        + "container, which makes the server reachable from the network)"),
        CONFIG(
                "config",
                "PATH",
                "a Config.json in Microsoft's emulator's format (default " + DEFAULT_CONFIG
                        + " when present; else the namespace starts empty)"),
        KEY("key", "KEY", "the only shared access key accepted (default: any key, as Microsoft's emulator)"),
        CLOCK(
                "clock",
                "running|frozen",
                "running (default): the clock follows the wall clock; frozen: it moves "
                        + "only through POST /__admin/clock/advance"),
        START_AT("start-at", "INSTANT", "the clock's start, ISO-8601 such as 2030-01-01T00:00:00Z (default: now)"),
        TIER("tier", "basic|standard|premium", "the namespace's tier: message size and TTL limits (default standard)"),
        JOURNAL_CAPACITY("journal-capacity", "N", "the most events GET /__admin/journal keeps (default 10000)");

        final String flag;
        final String valueName;
        final String description;

        Option(String flag, String valueName, String description) {
            this.flag = flag;
            this.valueName = valueName;
            this.description = description;
        }

        String variable() {
            return "SBEMU_" + name();
        }

        static Optional<Option> byFlag(String flag) {
            for (Option option : values()) {
                if (option.flag.equals(flag)) {
                    return Optional.of(option);
                }
            }
            return Optional.empty();
        }
    }

    private final int amqpPort;
    private final int httpPort;
    /** The TLS port, or -1 for none. */
    private final int amqpsPort;

    private final InetAddress bindAddress;
    private final Path config;
    private final boolean configGiven;
    private final String key;
    private final ClockMode clockMode;
    private final Instant startAt;
    private final Tier tier;
    private final Integer journalCapacity;
    private final boolean help;
    private final boolean version;
    private final List<String> ignoredVariables;

    private CommandLineOptions(
            Map<Option, String> values,
            boolean help,
            boolean version,
            Path defaultConfig,
            List<String> ignoredVariables) {
        this.help = help;
        this.version = version;
        this.ignoredVariables = List.copyOf(ignoredVariables);
        this.amqpPort = port(values, Option.AMQP_PORT, DEFAULT_AMQP_PORT);
        this.httpPort = port(values, Option.HTTP_PORT, DEFAULT_HTTP_PORT);
        this.amqpsPort = port(values, Option.AMQPS_PORT, -1);
        this.bindAddress = address(values.get(Option.BIND_ADDRESS));
        String config = values.get(Option.CONFIG);
        if (config != null) {
            if (config.isBlank()) {
                throw new UsageException("--config: empty path");
            }
            Path path = Path.of(config);
            if (!Files.isRegularFile(path)) {
                throw new UsageException("--config: no such file: " + path.toAbsolutePath());
            }
            this.config = path;
            this.configGiven = true;
        } else {
            this.config = defaultConfig != null && Files.isRegularFile(defaultConfig) ? defaultConfig : null;
            this.configGiven = false;
        }
        String key = values.get(Option.KEY);
        if (key != null && (key.isBlank() || key.contains(";"))) {
            throw new UsageException("--key: must be a non-blank key without ';'");
        }
        this.key = key;
        this.clockMode = choice(values, Option.CLOCK, ClockMode.class, ClockMode.RUNNING);
        this.startAt = instant(values.get(Option.START_AT));
        this.tier = choice(values, Option.TIER, Tier.class, Tier.STANDARD);
        String capacity = values.get(Option.JOURNAL_CAPACITY);
        this.journalCapacity = capacity == null ? null : integer(Option.JOURNAL_CAPACITY, capacity, 1, 100_000_000);
    }

    /**
     * Reads {@code args} and {@code environment}, with {@link #DEFAULT_CONFIG} as the default topology file.
     *
     * @throws UsageException naming the first bad option or variable
     */
    public static CommandLineOptions parse(List<String> args, Map<String, String> environment) {
        return parse(args, environment, DEFAULT_CONFIG);
    }

    /** As {@link #parse(List, Map)}, with {@code defaultConfig} (may be null) in place of {@link #DEFAULT_CONFIG}. */
    static CommandLineOptions parse(List<String> args, Map<String, String> environment, Path defaultConfig) {
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(environment, "environment");
        Map<Option, String> values = new LinkedHashMap<>();
        String legacyHttpPort = environment.get("EMULATOR_HTTP_PORT");
        if (legacyHttpPort != null && !legacyHttpPort.isBlank()) {
            values.put(Option.HTTP_PORT, legacyHttpPort.trim());
        }
        for (Option option : Option.values()) {
            String value = environment.get(option.variable());
            if (value != null && !value.isBlank()) {
                values.put(option, value.trim());
            }
        }
        boolean help = false;
        boolean version = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--help") || arg.equals("-h")) {
                help = true;
                continue;
            }
            if (arg.equals("--version")) {
                version = true;
                continue;
            }
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "' (options start with --; see --help)");
            }
            int eq = arg.indexOf('=');
            String flag = arg.substring(2, eq < 0 ? arg.length() : eq);
            Option option = Option.byFlag(flag)
                    .orElseThrow(() -> new UsageException("unknown option --" + flag + " (see --help)"));
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new UsageException("--" + flag + ": missing value " + option.valueName);
            }
            values.put(option, value.trim());
        }
        List<String> ignored = new ArrayList<>();
        for (String name : IGNORED_VARIABLES) {
            if (environment.containsKey(name)) {
                ignored.add(name);
            }
        }
        if (help || version) {
            return new CommandLineOptions(Map.of(), help, version, null, ignored);
        }
        return new CommandLineOptions(values, false, false, defaultConfig, ignored);
    }

    /** The text {@code --help} prints. */
    public static String usage() {
        StringBuilder text = new StringBuilder()
                .append("Usage: java -jar sbemu-server.jar [options]\n")
                .append("An in-memory Azure Service Bus with Microsoft's emulator's defaults: AMQP on 5672, HTTP on ")
                .append("5300.\n\nOptions (each also an environment variable):\n");
        for (Option option : Option.values()) {
            text.append(String.format(
                    Locale.ROOT,
                    "  --%-30s %s%n      %s%n",
                    option.flag + " " + option.valueName,
                    option.variable(),
                    option.description));
        }
        text.append(String.format(Locale.ROOT, "  --%-30s print this text%n", "help"))
                .append(String.format(Locale.ROOT, "  --%-30s print the version%n", "version"))
                .append("\n")
                .append(String.join(", ", IGNORED_VARIABLES))
                .append(
                        " (Microsoft's emulator's and SQL Server's) are accepted and ignored: no SQL Server is needed.\n")
                .append(
                        "Exit codes: 0 after SIGTERM or SIGINT, 2 for a bad option or Config.json, 1 when a port cannot ")
                .append("be bound.\n");
        return text.toString();
    }

    private static int port(Map<Option, String> values, Option option, int defaultPort) {
        String value = values.get(option);
        return value == null ? defaultPort : integer(option, value, 0, 65_535);
    }

    private static int integer(Option option, String value, int min, int max) {
        int number;
        try {
            number = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UsageException(
                    "--" + option.flag + ": '" + value + "' is not a number (" + option.variable() + " likewise)");
        }
        if (number < min || number > max) {
            throw new UsageException("--" + option.flag + ": " + number + " is out of range " + min + ".." + max);
        }
        return number;
    }

    private static InetAddress address(String value) {
        if (value == null) {
            return InetAddress.getLoopbackAddress();
        }
        if (value.isBlank()) {
            throw new UsageException("--bind-address: empty address");
        }
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException | SecurityException e) {
            throw new UsageException("--bind-address: '" + value + "' is not an address of this machine");
        }
    }

    private static <E extends Enum<E>> E choice(Map<Option, String> values, Option option, Class<E> type, E fallback) {
        String value = values.get(option);
        if (value == null) {
            return fallback;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        List<String> allowed = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            allowed.add(constant.name().toLowerCase(Locale.ROOT));
        }
        throw new UsageException("--" + option.flag + ": '" + value + "' is not one of " + String.join(", ", allowed));
    }

    private static Instant instant(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeException e) {
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeException again) {
                throw new UsageException(
                        "--start-at: '" + value + "' is not an ISO-8601 instant such as " + "2030-01-01T00:00:00Z");
            }
        }
    }

    /** The AMQP port, 0 for an ephemeral one. */
    public int amqpPort() {
        return amqpPort;
    }

    /** The HTTP port, 0 for an ephemeral one. */
    /** The AMQP-over-TLS port ({@code --amqps-port}, {@code SBEMU_AMQPS_PORT}), or -1 for none (the default). */
    public int amqpsPort() {
        return amqpsPort;
    }

    public int httpPort() {
        return httpPort;
    }

    /** The address both ports listen on. */
    public InetAddress bindAddress() {
        return bindAddress;
    }

    /** The Config.json to load: the one given, else the default one when it exists, else empty. */
    public Optional<Path> config() {
        return Optional.ofNullable(config);
    }

    /** Whether the Config.json was given ({@code --config}, {@code SBEMU_CONFIG}) rather than found. */
    public boolean configGiven() {
        return configGiven;
    }

    /** The only key accepted, or empty when any key is. */
    public Optional<String> key() {
        return Optional.ofNullable(key);
    }

    /** Whether the clock runs or stands still. */
    public ClockMode clockMode() {
        return clockMode;
    }

    /** The clock's start, or empty for now. */
    public Optional<Instant> startAt() {
        return Optional.ofNullable(startAt);
    }

    /** The namespace's tier. */
    public Tier tier() {
        return tier;
    }

    /** The journal's capacity, or empty for the namespace's default. */
    public Optional<Integer> journalCapacity() {
        return Optional.ofNullable(journalCapacity);
    }

    /** Whether {@code --help} was given. */
    public boolean help() {
        return help;
    }

    /** Whether {@code --version} was given. */
    public boolean version() {
        return version;
    }

    /** The variables of Microsoft's emulator that were set and are ignored. */
    public List<String> ignoredVariables() {
        return ignoredVariables;
    }
}
