package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Marks a {@code String} parameter or field that {@link ServiceBusEmulator} fills with the connection string of
 * an AMQP endpoint serving the test's namespace, for code that builds its own clients:
 *
 * <pre>{@code
 * @Test
 * void ordersAreShipped(@ConnectionString String connectionString, VirtualClock clock) {
 *     OrderService service = new OrderService(new ServiceBusClientBuilder().connectionString(connectionString));
 *     ...
 * }
 * }</pre>
 *
 * <p>The endpoint ({@code dev.sbemu.amqp.ServiceBusEmulatorServer}, which can be injected too) starts when a
 * test first asks for it, one per namespace, and closes with the namespace.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@API(status = EXPERIMENTAL, since = "0.1")
public @interface ConnectionString {}
