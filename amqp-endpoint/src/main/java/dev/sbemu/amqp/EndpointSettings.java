package dev.sbemu.amqp;

import java.net.InetAddress;
import java.util.Objects;

/**
 * Everything a {@link ServiceBusEmulatorServer} is started with, apart from the namespace it serves: where it listens,
 * which keys it accepts, and its {@link EndpointLimits limits}. One value filled by every way to start an endpoint:
 * {@link ServiceBusEmulatorServer.Builder} (each of its setters sets one component), the standalone server's command
 * line and {@code SBEMU_*} variables, and the JUnit and Spring annotations; {@link ServiceBusEmulatorServer#start(
 * dev.sbemu.core.Namespace, EndpointSettings)} starts from it and {@link ServiceBusEmulatorServer#settings()} gives it
 * back. Immutable; {@link #defaults()} and the {@code with...} copies are the way to make one:
 *
 * <pre>{@code
 * EndpointSettings settings = EndpointSettings.defaults()
 *         .withPort(5672)
 *         .withLimits(EndpointLimits.defaults().withMaxConnections(100));
 * }</pre>
 *
 * @param bindAddress the address to listen on (default: the loopback address); anything else exposes the endpoint to
 *     the network
 * @param port the AMQP port, 0 (the default) for an ephemeral one
 * @param httpPort a second port that speaks HTTP and AMQP like {@code port} (0 for an ephemeral one), or -1 (the
 *     default) for none: HTTP is served on {@code port} either way
 * @param tlsPort the port for AMQP over TLS (0 for an ephemeral one), or -1 (the default) for none
 * @param keyName the shared access key name the connection string carries (default {@link
 *     ServiceBusEmulatorServer#KEY_NAME})
 * @param sharedAccessKey the key tokens must be signed with, or null (the default) for a random one per server
 * @param acceptAnyKey whether a token signed with any key under any key name is accepted, as by Microsoft's emulator
 *     (default false); {@code sharedAccessKey} is then only the key the connection string reports
 * @param limits the endpoint's limits
 */
public record EndpointSettings(
        InetAddress bindAddress,
        int port,
        int httpPort,
        int tlsPort,
        String keyName,
        String sharedAccessKey,
        boolean acceptAnyKey,
        EndpointLimits limits) {

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     * @throws NullPointerException for a null bind address, key name or limits
     */
    public EndpointSettings {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(keyName, "keyName");
        Objects.requireNonNull(limits, "limits");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
        }
        if (httpPort < -1 || httpPort > 65_535) {
            throw new IllegalArgumentException(
                    "httpPort must be between 0 and 65535 (or -1 for none), was " + httpPort);
        }
        if (tlsPort < -1 || tlsPort > 65_535) {
            throw new IllegalArgumentException("tlsPort must be between 0 and 65535 (or -1 for none), was " + tlsPort);
        }
        if (keyName.isBlank() || keyName.contains(";")) {
            throw new IllegalArgumentException("keyName must be a non-blank string without ';', was '" + keyName + "'");
        }
        if (sharedAccessKey != null && (sharedAccessKey.isBlank() || sharedAccessKey.contains(";"))) {
            throw new IllegalArgumentException(
                    "sharedAccessKey must be a non-blank string without ';', was '" + sharedAccessKey + "'");
        }
    }

    /**
     * The defaults: the loopback address, an ephemeral AMQP port, no HTTP or TLS port, key name {@link
     * ServiceBusEmulatorServer#KEY_NAME} with a random key per server, and {@link EndpointLimits#defaults()}.
     */
    public static EndpointSettings defaults() {
        return new EndpointSettings(
                InetAddress.getLoopbackAddress(),
                0,
                -1,
                -1,
                ServiceBusEmulatorServer.KEY_NAME,
                null,
                false,
                EndpointLimits.defaults());
    }

    /** A copy with bindAddress set to {@code value}. */
    public EndpointSettings withBindAddress(InetAddress value) {
        return new EndpointSettings(value, port, httpPort, tlsPort, keyName, sharedAccessKey, acceptAnyKey, limits);
    }

    /** A copy with port set to {@code value}. */
    public EndpointSettings withPort(int value) {
        return new EndpointSettings(
                bindAddress, value, httpPort, tlsPort, keyName, sharedAccessKey, acceptAnyKey, limits);
    }

    /** A copy with httpPort set to {@code value}. */
    public EndpointSettings withHttpPort(int value) {
        return new EndpointSettings(bindAddress, port, value, tlsPort, keyName, sharedAccessKey, acceptAnyKey, limits);
    }

    /** A copy with tlsPort set to {@code value}. */
    public EndpointSettings withTlsPort(int value) {
        return new EndpointSettings(bindAddress, port, httpPort, value, keyName, sharedAccessKey, acceptAnyKey, limits);
    }

    /** A copy with keyName set to {@code value}. */
    public EndpointSettings withKeyName(String value) {
        return new EndpointSettings(bindAddress, port, httpPort, tlsPort, value, sharedAccessKey, acceptAnyKey, limits);
    }

    /** A copy with sharedAccessKey set to {@code value}. */
    public EndpointSettings withSharedAccessKey(String value) {
        return new EndpointSettings(bindAddress, port, httpPort, tlsPort, keyName, value, acceptAnyKey, limits);
    }

    /** A copy with acceptAnyKey set to {@code value}. */
    public EndpointSettings withAcceptAnyKey(boolean value) {
        return new EndpointSettings(bindAddress, port, httpPort, tlsPort, keyName, sharedAccessKey, value, limits);
    }

    /** A copy with limits set to {@code value}. */
    public EndpointSettings withLimits(EndpointLimits value) {
        return new EndpointSettings(
                bindAddress, port, httpPort, tlsPort, keyName, sharedAccessKey, acceptAnyKey, value);
    }
}
