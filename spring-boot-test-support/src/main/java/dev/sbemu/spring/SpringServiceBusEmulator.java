package dev.sbemu.spring;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.ExpiryMode;
import dev.sbemu.core.Tier;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.Topic;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives a Spring test's application context an emulated Service Bus namespace behind an AMQP endpoint on
 * loopback, and points Spring Cloud Azure at it: the context gets {@code spring.cloud.azure.servicebus.connection-string}
 * (and, where Spring Cloud Azure has it, an {@code AzureServiceBusConnectionDetails} bean), so the
 * application's auto-configured {@code ServiceBusTemplate}, {@code @ServiceBusListener}s, sender, receiver and
 * processor clients connect to the emulator with no property in the test. With Spring Cloud Azure's JMS starter on
 * the class path, its {@code spring.jms.servicebus.*} connection properties are set too, and its connection factory
 * is pointed at the endpoint, so {@code JmsTemplate} and {@code @JmsListener}s connect as well:
 *
 * <pre>{@code
 * @SpringBootTest
 * @SpringServiceBusEmulator(queues = @Queue(name = "orders"))
 * class OrderFlowTest {
 *     @Autowired OrderService orders;           // the application's own bean
 *     @Autowired VirtualClock clock;            // the namespace's clock
 *     ...
 * }
 * }</pre>
 *
 * <p>The twin of {@code dev.sbemu.junit.ServiceBusEmulator} for Spring: the same topology attributes, but the
 * namespace belongs to the application context (which Spring caches across test classes), not to the test.
 * Test classes with equal declarations (and otherwise equal Spring configuration) share one context and one
 * endpoint; before each test method ({@link Reset#BEFORE_EACH_METHOD}, the default) or each test class
 * ({@link Reset#BEFORE_EACH_CLASS}) the endpoint is handed a fresh namespace with the declared entities and a
 * clock back at {@link #startAt}, so no test sees another's messages or clock moves; the application's
 * connections stay open. A failing test method's exception carries the namespace's journal.
 *
 * <p>Beans for the test: {@link EmulatedServiceBus}, and (resolved at each injection, so for the test method
 * that runs) {@code Namespace}, {@code VirtualClock}, {@code Journal} and {@code ServiceBusAdministrationClient}.
 * They are fallback beans: an application bean of the same type (its own {@code java.time.Clock}) wins.
 *
 * <p>It is not the JUnit annotation because it must work with the JUnit version Spring Boot manages and with
 * Spring's own test lifecycle; works with any test framework Spring's TestContext supports.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface SpringServiceBusEmulator {

    /** Queues to create. */
    Queue[] queues() default {};

    /** Topics to create, with their subscriptions and rules. */
    Topic[] topics() default {};

    /**
     * Config.json files in the format of Microsoft's Service Bus emulator whose entities to create too:
     * {@code "classpath:servicebus/Config.json"} or a file path.
     */
    String[] config() default {};

    /** When the namespace is renewed: before each test method (the default) or before each test class. */
    Reset reset() default Reset.BEFORE_EACH_METHOD;

    /**
     * The instant the virtual clock starts at (after every renewal), as an ISO-8601 instant; {@code ""} (the
     * default) starts it at the wall-clock instant of the renewal.
     */
    String startAt() default "";

    /**
     * Whether the virtual clock stands still until the test moves it ({@code FROZEN}, the default) or follows the
     * wall clock from {@link #startAt()} ({@code RUNNING}, SPEC CLK-6): timers fall due as real time passes, which is
     * what the application's SDK clients expect of the service (their lock renewal runs on the wall clock, AMQP-17)
     * and what the application's own timers need. Part of the declaration: contexts that differ in it are not shared.
     */
    ClockMode clock() default ClockMode.FROZEN;

    /** How expired messages leave entities. */
    ExpiryMode expiryMode() default ExpiryMode.EAGER;

    /** The namespace's tier. */
    Tier tier() default Tier.STANDARD;

    /** How many journal events the namespace keeps (and prints when a test fails). */
    int journalCapacity() default 10_000;

    /**
     * A port for AMQP over TLS ({@code amqps://}) on the context's endpoint: {@code 0} for an ephemeral one, {@code
     * 5671} for JMS clients that always connect there; {@code -1} (the default) for none. As
     * {@code @ServiceBusEmulator(tlsPort)}; needs {@code org.bouncycastle:bcpkix-jdk18on} on the test class path.
     */
    int tlsPort() default -1;

    /** When the context's namespace is replaced by a fresh one (entities declared, no messages, clock reset). */
    enum Reset {
        /** Before each test method: methods never see each other's messages. The default. */
        BEFORE_EACH_METHOD,
        /** Before each test class: the methods of one class share the namespace, other classes do not. */
        BEFORE_EACH_CLASS
    }
}
