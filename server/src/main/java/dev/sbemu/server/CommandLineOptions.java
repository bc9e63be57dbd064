package dev.sbemu.server;

import dev.sbemu.amqp.EndpointLimits;
import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Tier;
import dev.sbemu.core.config.NamespaceSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's options, from the command line ({@code --amqp-port 5672} or {@code --amqp-port=5672}) and the
 * environment ({@code SBEMU_AMQP_PORT=5672}); a command-line option wins over its variable. The defaults are those of
 * Microsoft's Service Bus emulator, so its compose files and connection strings work unchanged. Immutable.
 *
 * <p>Every option is one row of {@link #FLAGS}: its flag, its variable (derived from the flag), its description and
 * default (the {@code --help} text is made from them) and how its value is parsed into the settings. The endpoint's
 * options fill the endpoint's {@link EndpointSettings} ({@link #endpointSettings()}): one row per {@link
 * EndpointLimits} component, with the limit's name as the flag ({@code maxConnections}: {@code --max-connections},
 * {@code SBEMU_MAX_CONNECTIONS}); the namespace's options fill its {@link NamespaceSettings} ({@link
 * #namespaceSettings()}, to which the server adds the Config.json's topology).
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

    /** The server's endpoint before any option: Microsoft's emulator's ports, the endpoint's default limits. */
    private static final EndpointSettings ENDPOINT_DEFAULTS =
            EndpointSettings.defaults().withPort(DEFAULT_AMQP_PORT).withHttpPort(DEFAULT_HTTP_PORT);

    /** What one row of the table does with its value. */
    @FunctionalInterface
    interface Setter {
        /**
         * @throws UsageException when the value is malformed or out of range
         */
        void set(Values values, String value);
    }

    /**
     * One option.
     *
     * @param flag the flag without its dashes, e.g. {@code amqp-port}
     * @param valueName how {@code --help} names its value, e.g. {@code PORT}
     * @param description what it does, for {@code --help}
     * @param defaultText its default, for {@code --help}
     * @param limit whether it sets an {@link EndpointLimits} component (then {@code flag} is the component's name in
     *     kebab case)
     * @param setter parses its value into the settings
     */
    record Flag(String flag, String valueName, String description, String defaultText, boolean limit, Setter setter) {
        /** The environment variable, e.g. {@code SBEMU_AMQP_PORT}. */
        String variable() {
            return "SBEMU_" + flag.toUpperCase(Locale.ROOT).replace('-', '_');
        }
    }

    /** The settings being filled while the options are read. */
    static final class Values {
        private EndpointSettings endpoint = ENDPOINT_DEFAULTS;
        private String config;
        private String tlsCertificate;
        private String key;
        private ClockMode clockMode = ClockMode.RUNNING;
        private Instant startAt;
        private Tier tier = Tier.STANDARD;
        private Integer journalCapacity;
        private boolean strictConfig;
    }

    /** Every option, in {@code --help}'s order. */
    static final List<Flag> FLAGS = List.of(
            new Flag(
                    "amqp-port",
                    "PORT",
                    "the AMQP port, 0 for an ephemeral one",
                    String.valueOf(DEFAULT_AMQP_PORT),
                    false,
                    (v, s) -> v.endpoint = v.endpoint.withPort(integer("amqp-port", s, 0, 65_535))),
            new Flag(
                    "http-port",
                    "PORT",
                    "the HTTP port: management REST, /health, /__admin/; 0 for an ephemeral one (or "
                            + "EMULATOR_HTTP_PORT). The AMQP port speaks HTTP too",
                    String.valueOf(DEFAULT_HTTP_PORT),
                    false,
                    (v, s) -> v.endpoint = v.endpoint.withHttpPort(integer("http-port", s, 0, 65_535))),
            new Flag(
                    "amqps-port",
                    "PORT",
                    "also listen for AMQP over TLS (amqps://) there, with a self-signed certificate made at start; 0 "
                            + "for an ephemeral one, 5671 for JMS clients",
                    "no TLS port",
                    false,
                    (v, s) -> v.endpoint = v.endpoint.withTlsPort(integer("amqps-port", s, 0, 65_535))),
            new Flag(
                    "tls-certificate",
                    "PATH",
                    "write the TLS certificate there (PEM) at start, for clients that trust a CA file: Go's "
                            + "SSL_CERT_FILE, Node's NODE_EXTRA_CA_CERTS, Python's SSL_CERT_FILE; needs --amqps-port",
                    "not written",
                    false,
                    (v, s) -> v.tlsCertificate = s),
            new Flag(
                    "bind-address",
                    "ADDRESS",
                    "the address to listen on (0.0.0.0 in a container, which makes the server reachable from the "
                            + "network)",
                    "127.0.0.1",
                    false,
                    (v, s) -> v.endpoint = v.endpoint.withBindAddress(address(s))),
            new Flag(
                    "config",
                    "PATH",
                    "a Config.json in Microsoft's emulator's format",
                    DEFAULT_CONFIG + " when present; else the namespace starts empty",
                    false,
                    (v, s) -> v.config = s),
            new Flag(
                    "key",
                    "KEY",
                    "the only shared access key accepted",
                    "any key, as Microsoft's emulator",
                    false,
                    (v, s) -> {
                        if (s.isBlank() || s.contains(";")) {
                            throw new UsageException("--key: must be a non-blank key without ';'");
                        }
                        v.key = s;
                    }),
            new Flag(
                    "clock",
                    "running|frozen",
                    "running: the clock follows the wall clock; frozen: it moves only through POST "
                            + "/__admin/clock/advance",
                    "running",
                    false,
                    (v, s) -> v.clockMode = choice("clock", s, ClockMode.class)),
            new Flag(
                    "start-at",
                    "INSTANT",
                    "the clock's start, ISO-8601 such as 2030-01-01T00:00:00Z",
                    "now",
                    false,
                    (v, s) -> v.startAt = instant(s)),
            new Flag(
                    "tier",
                    "basic|standard|premium",
                    "the namespace's tier: message size and TTL limits",
                    "standard",
                    false,
                    (v, s) -> v.tier = choice("tier", s, Tier.class)),
            new Flag(
                    "journal-capacity",
                    "N",
                    "the most events GET /__admin/journal keeps",
                    "10000",
                    false,
                    (v, s) -> v.journalCapacity = integer("journal-capacity", s, 1, 100_000_000)),
            new Flag(
                    "strict-config",
                    "",
                    "a Config.json key the format does not know (a typo such as MaxDeliveryCont) fails the start, "
                            + "naming its path and the nearest known key, instead of a warning",
                    "off: a warning",
                    false,
                    (v, s) -> v.strictConfig = bool("strict-config", s)),
            intLimit(
                    "max-connections",
                    "the most connections open at once (both ports); more are refused",
                    EndpointLimits::maxConnections,
                    EndpointLimits::withMaxConnections),
            intLimit(
                    "max-frame-size",
                    "the largest AMQP frame read and announced, in bytes (at least 512); a connection holds two "
                            + "buffers of this size",
                    EndpointLimits::maxFrameSize,
                    EndpointLimits::withMaxFrameSize),
            durationLimit(
                    "idle-timeout",
                    "a connection from which nothing arrives for this long is closed (clients send heartbeats)",
                    EndpointLimits::idleTimeout,
                    EndpointLimits::withIdleTimeout),
            intLimit(
                    "channel-max",
                    "the highest session channel a client may begin (0..65535)",
                    EndpointLimits::channelMax,
                    EndpointLimits::withChannelMax),
            intLimit(
                    "link-max",
                    "the most links attached at once on one connection; more are refused",
                    EndpointLimits::linkMax,
                    EndpointLimits::withLinkMax),
            intLimit(
                    "session-window",
                    "each session's incoming window, in frames",
                    EndpointLimits::sessionWindow,
                    EndpointLimits::withSessionWindow),
            intLimit(
                    "link-credit",
                    "the credit of each link a client sends on, topped up once half is used",
                    EndpointLimits::linkCredit,
                    EndpointLimits::withLinkCredit),
            intLimit(
                    "worker-threads",
                    "the most threads that wait in the broker for clients; work beyond them is refused",
                    EndpointLimits::workerThreads,
                    EndpointLimits::withWorkerThreads),
            durationLimit(
                    "handshake-timeout",
                    "how long a connection may take from TCP connect to an accepted token before it is closed",
                    EndpointLimits::handshakeTimeout,
                    EndpointLimits::withHandshakeTimeout),
            durationLimit(
                    "max-operation-timeout",
                    "the cap on a client's com.microsoft:timeout (how long a session accept waits)",
                    EndpointLimits::maxOperationTimeout,
                    EndpointLimits::withMaxOperationTimeout),
            intLimit(
                    "max-request-size",
                    "the largest $cbs request (a token), in bytes; larger ones are cut off",
                    EndpointLimits::maxRequestSize,
                    EndpointLimits::withMaxRequestSize),
            intLimit(
                    "unauthenticated-credit",
                    "the credit of a $cbs link before the connection has a token",
                    EndpointLimits::unauthenticatedCredit,
                    EndpointLimits::withUnauthenticatedCredit),
            intLimit(
                    "max-transactions-per-connection",
                    "the most transactions one connection holds declared and not discharged; more are refused",
                    EndpointLimits::maxTransactionsPerConnection,
                    EndpointLimits::withMaxTransactionsPerConnection),
            durationLimit(
                    "request-read-timeout",
                    "how long an HTTP request may take from its first byte until complete; slower ones get 408",
                    EndpointLimits::requestReadTimeout,
                    EndpointLimits::withRequestReadTimeout),
            intLimit(
                    "max-unauthenticated-connections",
                    "the most connections open at once without an accepted token; more are refused",
                    EndpointLimits::maxUnauthenticatedConnections,
                    EndpointLimits::withMaxUnauthenticatedConnections),
            intLimit(
                    "max-unauthenticated-bytes",
                    "the most bytes of incomplete deliveries a connection holds before a token; more close it",
                    EndpointLimits::maxUnauthenticatedBytes,
                    EndpointLimits::withMaxUnauthenticatedBytes));

    private static Flag intLimit(
            String flag,
            String description,
            Function<EndpointLimits, Integer> get,
            BiFunction<EndpointLimits, Integer, EndpointLimits> with) {
        return new Flag(
                flag,
                "N",
                description,
                String.valueOf(get.apply(EndpointLimits.defaults())),
                true,
                (v, s) -> v.endpoint = limited(
                        flag, v.endpoint, limits -> with.apply(limits, integer(flag, s, 0, Integer.MAX_VALUE))));
    }

    private static Flag durationLimit(
            String flag,
            String description,
            Function<EndpointLimits, Duration> get,
            BiFunction<EndpointLimits, Duration, EndpointLimits> with) {
        return new Flag(
                flag,
                "DURATION",
                description + "; 500ms, 30s, 5m, 1h or ISO-8601 (PT30S)",
                format(get.apply(EndpointLimits.defaults())),
                true,
                (v, s) -> v.endpoint = limited(flag, v.endpoint, limits -> with.apply(limits, duration(flag, s))));
    }

    private static EndpointSettings limited(
            String flag, EndpointSettings settings, Function<EndpointLimits, EndpointLimits> change) {
        try {
            return settings.withLimits(change.apply(settings.limits()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + flag + ": " + e.getMessage());
        }
    }

    private final EndpointSettings endpoint;
    private final Path config;
    private final Path tlsCertificate;
    private final boolean configGiven;
    private final String key;
    private final ClockMode clockMode;
    private final Instant startAt;
    private final Tier tier;
    private final Integer journalCapacity;
    private final boolean strictConfig;
    private final boolean help;
    private final boolean version;
    private final List<String> ignoredVariables;

    private CommandLineOptions(
            Map<Flag, String> given, boolean help, boolean version, Path defaultConfig, List<String> ignoredVariables) {
        this.help = help;
        this.version = version;
        this.ignoredVariables = List.copyOf(ignoredVariables);
        Values values = new Values();
        for (Flag flag : FLAGS) {
            String value = given.get(flag);
            if (value != null) {
                flag.setter().set(values, value);
            }
        }
        if (values.config != null) {
            if (values.config.isBlank()) {
                throw new UsageException("--config: empty path");
            }
            Path path = Path.of(values.config);
            if (!Files.isRegularFile(path)) {
                throw new UsageException("--config: no such file: " + path.toAbsolutePath());
            }
            this.config = path;
            this.configGiven = true;
        } else {
            this.config = defaultConfig != null && Files.isRegularFile(defaultConfig) ? defaultConfig : null;
            this.configGiven = false;
        }
        if (values.tlsCertificate != null) {
            if (values.tlsCertificate.isBlank()) {
                throw new UsageException("--tls-certificate: empty path");
            }
            if (values.endpoint.tlsPort() < 0) {
                throw new UsageException("--tls-certificate needs a TLS port (--amqps-port PORT)");
            }
            this.tlsCertificate = Path.of(values.tlsCertificate);
        } else {
            this.tlsCertificate = null;
        }
        this.key = values.key;
        // without --key any key is accepted, and the connection string carries Microsoft's emulator's (rather than
        // a random one, whose SecureRandom costs start-up time)
        this.endpoint = values.key != null
                ? values.endpoint.withSharedAccessKey(values.key).withAcceptAnyKey(false)
                : values.endpoint
                        .withSharedAccessKey(StandaloneServer.EMULATOR_KEY)
                        .withAcceptAnyKey(true);
        this.clockMode = values.clockMode;
        this.startAt = values.startAt;
        this.tier = values.tier;
        this.journalCapacity = values.journalCapacity;
        this.strictConfig = values.strictConfig;
    }

    /** Whether a Config.json key the format does not know fails the start ({@code --strict-config}, CFG-5). */
    public boolean strictConfig() {
        return strictConfig;
    }

    private static boolean bool(String flag, String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new UsageException("--" + flag + ": '" + text + "' is not true or false");
        };
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
        Map<Flag, String> values = new LinkedHashMap<>();
        String legacyHttpPort = environment.get("EMULATOR_HTTP_PORT");
        if (legacyHttpPort != null && !legacyHttpPort.isBlank()) {
            values.put(byFlag("http-port"), legacyHttpPort.trim());
        }
        for (Flag flag : FLAGS) {
            String value = environment.get(flag.variable());
            if (value != null && !value.isBlank()) {
                values.put(flag, value.trim());
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
            String name = arg.substring(2, eq < 0 ? arg.length() : eq);
            Flag flag = byFlag(name);
            if (flag == null) {
                throw new UsageException("unknown option --" + name + " (see --help)");
            }
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (flag.valueName().isEmpty()) {
                // a switch: present means on
                value = "true";
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new UsageException("--" + name + ": missing value " + flag.valueName());
            }
            values.put(flag, value.trim());
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

    private static Flag byFlag(String name) {
        for (Flag flag : FLAGS) {
            if (flag.flag().equals(name)) {
                return flag;
            }
        }
        return null;
    }

    /** The text {@code --help} prints, made from {@link #FLAGS}. */
    public static String usage() {
        StringBuilder text = new StringBuilder()
                .append("Usage: java -jar sbemu-server.jar [options]\n")
                .append("An in-memory Azure Service Bus with Microsoft's emulator's defaults: AMQP on 5672, HTTP on ")
                .append("5300.\n\nOptions (each also an environment variable):\n");
        boolean limits = false;
        for (Flag flag : FLAGS) {
            if (flag.limit() && !limits) {
                limits = true;
                text.append("\nEndpoint limits:\n");
            }
            text.append(String.format(
                    Locale.ROOT,
                    "  --%-30s %s%n      %s (default %s)%n",
                    flag.flag() + " " + flag.valueName(),
                    flag.variable(),
                    flag.description(),
                    flag.defaultText()));
        }
        text.append("\n")
                .append(String.format(Locale.ROOT, "  --%-30s print this text%n", "help"))
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

    private static int integer(String flag, String value, int min, int max) {
        int number;
        try {
            number = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + flag + ": '" + value + "' is not a number ("
                    + Objects.requireNonNull(byFlag(flag)).variable() + " likewise)");
        }
        if (number < min || number > max) {
            throw new UsageException("--" + flag + ": " + number + " is out of range " + min + ".." + max);
        }
        return number;
    }

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private static Duration duration(String flag, String value) {
        Matcher matcher = SHORT_DURATION.matcher(value.toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
        try {
            return Duration.parse(value);
        } catch (DateTimeException e) {
            throw new UsageException(
                    "--" + flag + ": '" + value + "' is not a duration such as 500ms, 30s, 5m, 1h or PT30S");
        }
    }

    /** A duration as {@code --help} shows it: {@code 30s}, {@code 5m}, {@code 500ms}. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }

    private static InetAddress address(String value) {
        if (value.isBlank()) {
            throw new UsageException("--bind-address: empty address");
        }
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException | SecurityException e) {
            throw new UsageException("--bind-address: '" + value + "' is not an address of this machine");
        }
    }

    private static <E extends Enum<E>> E choice(String flag, String value, Class<E> type) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        List<String> allowed = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            allowed.add(constant.name().toLowerCase(Locale.ROOT));
        }
        throw new UsageException("--" + flag + ": '" + value + "' is not one of " + String.join(", ", allowed));
    }

    private static Instant instant(String value) {
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

    /**
     * The endpoint's settings: ports, bind address, key policy ({@code --key}'s key only, else any key with {@link
     * StandaloneServer#EMULATOR_KEY} in the connection string) and limits.
     */
    public EndpointSettings endpointSettings() {
        return endpoint;
    }

    /**
     * The namespace's settings without its topology (the Config.json's, which {@link StandaloneServer} loads): the
     * clock's mode and start, the tier and the journal's capacity.
     */
    public NamespaceSettings namespaceSettings() {
        NamespaceSettings settings = NamespaceSettings.defaults()
                .withClockMode(clockMode)
                .withStartAt(startAt)
                .withTier(tier);
        return journalCapacity == null ? settings : settings.withJournalCapacity(journalCapacity);
    }

    /** The AMQP port, 0 for an ephemeral one. */
    public int amqpPort() {
        return endpoint.port();
    }

    /** The AMQP-over-TLS port ({@code --amqps-port}, {@code SBEMU_AMQPS_PORT}), or -1 for none (the default). */
    public int amqpsPort() {
        return endpoint.tlsPort();
    }

    /** The HTTP port, 0 for an ephemeral one. */
    public int httpPort() {
        return endpoint.httpPort();
    }

    /** The address both ports listen on. */
    public InetAddress bindAddress() {
        return endpoint.bindAddress();
    }

    /** The Config.json to load: the one given, else the default one when it exists, else empty. */
    public Optional<Path> config() {
        return Optional.ofNullable(config);
    }

    /** Where to write the TLS certificate in PEM ({@code --tls-certificate}), or empty. */
    public Optional<Path> tlsCertificate() {
        return Optional.ofNullable(tlsCertificate);
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
