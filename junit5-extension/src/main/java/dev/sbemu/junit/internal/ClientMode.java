package dev.sbemu.junit.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the extension makes the SDK clients it injects, chosen by the JUnit configuration parameter
 * {@value #PARAMETER} (e.g. in {@code junit-platform.properties} or surefire's {@code configurationParameters}).
 */
public enum ClientMode {
    /** The adapter's in-process clients (the default). */
    IN_PROCESS("in-process"),
    /**
     * Clients built with the SDK's {@code ServiceBusClientBuilder} from the connection string of the namespace's
     * AMQP endpoint, and the SDK's own processors.
     */
    AMQP("amqp");

    /** The configuration parameter's name. */
    public static final String PARAMETER = "sbemu.clients";

    private final String value;

    ClientMode(String value) {
        this.value = value;
    }

    /** The mode a configuration parameter value names; absent means {@link #IN_PROCESS}. */
    public static ClientMode parse(String value) {
        if (value == null || value.isBlank()) {
            return IN_PROCESS;
        }
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(m -> m.value.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new InjectionException("Unknown value '" + value + "' of the JUnit configuration "
                        + "parameter " + PARAMETER + ": use one of "
                        + Arrays.stream(values()).map(m -> m.value).collect(Collectors.joining(", "))));
    }
}
