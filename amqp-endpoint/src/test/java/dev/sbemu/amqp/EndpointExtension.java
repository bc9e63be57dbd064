package dev.sbemu.amqp;

import dev.sbemu.core.Namespace;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The endpoint fixture as a JUnit 5 extension: before each test a namespace behind a started
 * {@link ServiceBusEmulatorServer}, closed after it. Register it on a field, configured as the test class needs:
 *
 * <pre>{@code
 * @RegisterExtension
 * final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.sharedAccessKey(KEY));
 *
 * @Test
 * void roundTrip(Namespace namespace, @EndpointExtension.ConnectionString String connectionString) { ... }
 * }</pre>
 *
 * <p>A test method may take the {@link Namespace}, the {@link ServiceBusEmulatorServer}, the {@link Instant} the
 * namespace's clock started at, and the connection string (a {@code String} marked {@link ConnectionString}); the
 * same are on the extension ({@link #namespace()}, ...) for set-up methods and fields.
 *
 * <p>Each test's namespace starts at the wall-clock now, to the second, read when the test starts: the SDK renews a
 * received message's lock on the wall clock, at once when the lock has less than 400 ms left, so a virtual clock
 * behind the wall clock makes it renew every received message back to back (a storm of renew-lock requests that
 * slows everything else). A start read once per JVM fell further behind the longer the suite ran, which is to say
 * the slower the machine.
 */
final class EndpointExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
    /** Marks a {@code String} parameter that takes the endpoint's connection string. */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @interface ConnectionString {}

    private final UnaryOperator<Namespace.Builder> namespaceOptions;
    private final UnaryOperator<ServiceBusEmulatorServer.Builder> serverOptions;
    private Instant start;
    private Namespace namespace;
    private ServiceBusEmulatorServer server;

    private EndpointExtension(
            UnaryOperator<Namespace.Builder> namespaceOptions,
            UnaryOperator<ServiceBusEmulatorServer.Builder> serverOptions) {
        this.namespaceOptions = namespaceOptions;
        this.serverOptions = serverOptions;
    }

    /** A Standard-tier namespace and an endpoint with the builder's defaults. */
    static EndpointExtension standard() {
        return new EndpointExtension(UnaryOperator.identity(), UnaryOperator.identity());
    }

    /** The same, with {@code options} applied to the namespace's builder (after {@code startingAt}). */
    EndpointExtension namespace(UnaryOperator<Namespace.Builder> options) {
        return new EndpointExtension(b -> options.apply(namespaceOptions.apply(b)), serverOptions);
    }

    /** The same, with {@code options} applied to the endpoint's builder. */
    EndpointExtension server(UnaryOperator<ServiceBusEmulatorServer.Builder> options) {
        return new EndpointExtension(namespaceOptions, b -> options.apply(serverOptions.apply(b)));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        open();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** Closes this test's endpoint and namespace and starts new ones, with the options as they read now. */
    void restart() {
        close();
        open();
    }

    private void open() {
        start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        namespace =
                namespaceOptions.apply(Namespace.builder().startingAt(start)).build();
        try {
            server = serverOptions
                    .apply(ServiceBusEmulatorServer.builder(namespace))
                    .start();
        } catch (RuntimeException | Error e) {
            namespace.close();
            throw e;
        }
    }

    private void close() {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            server = null;
            if (namespace != null) {
                namespace.close();
            }
            namespace = null;
        }
    }

    /** This test's namespace. */
    Namespace namespace() {
        return namespace;
    }

    /** This test's endpoint. */
    ServiceBusEmulatorServer server() {
        return server;
    }

    /** The instant this test's namespace started at: the wall-clock now, to the second, when the test started. */
    Instant start() {
        return start;
    }

    /** The endpoint's connection string. */
    String connectionString() {
        return server.getConnectionString();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == Namespace.class
                || type == ServiceBusEmulatorServer.class
                || type == Instant.class
                || (type == String.class && parameter.isAnnotated(ConnectionString.class));
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (server == null) {
            throw new ParameterResolutionException("no endpoint outside a test method: " + parameter.getParameter());
        }
        Class<?> type = parameter.getParameter().getType();
        if (type == Namespace.class) {
            return namespace;
        }
        if (type == ServiceBusEmulatorServer.class) {
            return server;
        }
        if (type == Instant.class) {
            return start;
        }
        return connectionString();
    }
}
