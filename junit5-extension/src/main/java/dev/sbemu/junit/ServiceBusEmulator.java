package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Tier;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against an emulated Azure Service Bus namespace, in the test's own JVM,
 * with a virtual clock that only the test moves (or, with {@link #clock()} {@code = RUNNING}, one that follows the
 * wall clock).
 *
 * <p>Each test method gets a fresh namespace holding the declared {@link #queues()} and {@link #topics()}
 * (and those of {@link #config()}); {@link Lifecycle#PER_CLASS} shares one per test class instead. Test
 * methods, lifecycle methods and constructors receive real SDK clients through parameters annotated with
 * {@link Entity}, and fields annotated with {@link Entity} or {@link Emulated} are filled before each test:
 *
 * <pre>{@code
 * @ServiceBusEmulator(queues = @Queue(name = "orders",
 *         defaultMessageTimeToLive = "PT10M", deadLetteringOnMessageExpiration = true))
 * class OrderExpiryTest {
 *     @Test
 *     void unprocessedOrderIsDeadLettered(@Entity("orders") ServiceBusSenderClient sender,
 *             @Entity(value = "orders", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
 *             VirtualClock clock) {
 *         sender.sendMessage(new ServiceBusMessage("order-42"));
 *         clock.advance(Duration.ofMinutes(11));
 *         assertEquals("TTLExpiredException", deadLetters.receiveMessages(1).iterator().next().getDeadLetterReason());
 *     }
 * }
 * }</pre>
 *
 * <p>Injectable without {@link Entity}: {@code VirtualClock} (also as {@code java.time.Clock}),
 * {@code Namespace}, {@code Journal}, {@code EmulatorClients}, {@code ServiceBusAdministrationClient} and
 * {@code ServiceBusAdministrationAsyncClient}. With {@link Entity}: the sender, receiver, session receiver and
 * rule manager clients, sync and async. Every client is closed after the test, together with the processors
 * built through the injected {@code EmulatorClients}.
 *
 * <p>A {@code @Nested} class uses the enclosing class's configuration; its own {@code @ServiceBusEmulator}
 * adds entities and config files, and its other attributes, where they differ from their defaults, override
 * the enclosing ones. When a test fails, its failure carries the namespace's journal (what happened on the
 * bus, in virtual time) as a suppressed exception; passing tests print nothing.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ServiceBusEmulatorExtension.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface ServiceBusEmulator {

    /** Queues to create. */
    Queue[] queues() default {};

    /** Topics to create, with their subscriptions and rules. */
    Topic[] topics() default {};

    /**
     * Config.json files in the format of Microsoft's Service Bus emulator whose entities to create too:
     * {@code "classpath:servicebus/Config.json"} or a file path (relative to the working directory).
     */
    String[] config() default {};

    /** When namespaces are created: per test method (the default) or per test class. */
    Lifecycle lifecycle() default Lifecycle.PER_METHOD;

    /**
     * The instant the virtual clock starts at, as an ISO-8601 instant such as
     * {@code "2024-01-01T00:00:00Z"}; {@code ""} (the default) starts it at the wall-clock now, truncated to
     * milliseconds (SPEC CLK-1).
     */
    String startAt() default "";

    /**
     * Whether the virtual clock stands still until the test moves it ({@code FROZEN}, the default: for tests that
     * step time with {@code advance}) or follows the wall clock from {@link #startAt()} ({@code RUNNING}, SPEC
     * CLK-6: timers fall due as real time passes; for code that runs on the wall clock and cannot move the clock,
     * such as the SDK's lock renewal over AMQP). The test may still {@code advance}, {@code freeze()} or
     * {@code run()} it.
     */
    ClockMode clock() default ClockMode.FROZEN;

    /** How expired messages leave entities (SPEC TTL-11). */
    ExpiryMode expiryMode() default ExpiryMode.EAGER;

    /** The namespace's tier. */
    Tier tier() default Tier.STANDARD;

    /** How many journal events the namespace keeps (and prints when a test fails). */
    int journalCapacity() default 10_000;

    /**
     * A port for AMQP over TLS ({@code amqps://}) on the namespace's endpoint (the injected {@code
     * ServiceBusEmulatorServer}): {@code 0} for an ephemeral one, {@code 5671} for JMS clients that always connect
     * there ({@code ServiceBusJmsConnectionFactory}); {@code -1} (the default) for none. The certificate is made for
     * the endpoint; {@code server.jmsTlsUri()}, {@code server.tlsTrustStore()} and {@code server.tlsClientContext()}
     * trust it (docs/guide/jms.md). Needs {@code org.bouncycastle:bcpkix-jdk18on} on the test class path.
     */
    int tlsPort() default -1;

    /** How long an emulated namespace lives. */
    enum Lifecycle {
        /** A fresh namespace for each test method: tests never see each other's messages. The default. */
        PER_METHOD,
        /**
         * One namespace for all tests of a test class (each {@code @Nested} class has its own). Clients injected
         * into a test method are still closed after that test.
         */
        PER_CLASS
    }
}
