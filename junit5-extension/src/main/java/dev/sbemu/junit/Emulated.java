package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a field that {@link ServiceBusEmulator} fills before each test with one of the types it injects
 * without {@link Entity}: {@code VirtualClock}, {@code java.time.Clock}, {@code Namespace}, {@code Journal},
 * {@code EmulatorClients}, {@code ServiceBusAdministrationClient}, {@code ServiceBusAdministrationAsyncClient},
 * {@code ServiceBusEmulatorServer} (the namespace's AMQP endpoint, started on first use).
 * Parameters need no marker.
 *
 * <pre>{@code
 * @Emulated VirtualClock clock;
 * @Entity("orders") ServiceBusSenderClient sender;
 * }</pre>
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
// registers the extension even where @ServiceBusEmulator is missing, so that it can say so
@ExtendWith(ServiceBusEmulatorExtension.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Emulated {}
