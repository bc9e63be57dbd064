package dev.sbemu.benchmarks;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import dev.sbemu.junit.internal.EmulatedNamespace;
import dev.sbemu.junit.internal.EmulatorDeclaration;
import dev.sbemu.junit.internal.Injection;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What {@code @ServiceBusEmulator} costs per test: a fresh namespace, a topology of 5 entities (2 queues,
 * a topic and 2 subscriptions) and 4 injected clients (2 senders, 2 receivers), after warm-up.
 * <ul>
 *   <li>{@code launcher_emulatorTests} runs {@link EmulatorFixture} (10 such tests) through the JUnit
 *       Platform launcher, as a build would; {@code launcher_plainTests} runs {@link PlainFixture}, the same
 *       10 empty tests without the extension. Scores are per test; the difference is what the extension
 *       adds to each test (including JUnit's parameter resolution and the per-test store).</li>
 *   <li>{@code internals_namespaceTopologyClients} calls what the extension does per test directly:
 *       start the namespace with the topology, make the 4 clients, close it all.</li>
 * </ul>
 * Mode is sample time, so the report holds the median (p0.50) as well as the mean. The trial's setup
 * first runs each fixture {@value #WARM_UP_RUNS} times, so short JMH warm-ups measure compiled code.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ExtensionOverheadBenchmark {
    static final int TESTS_PER_CLASS = 10;
    /** Launcher runs of each fixture (and calls of the internals) in the trial's setup. */
    static final int WARM_UP_RUNS = 300;

    private Launcher launcher;
    private LauncherDiscoveryRequest emulatorRequest;
    private LauncherDiscoveryRequest plainRequest;
    private final Outcomes outcomes = new Outcomes();

    private EmulatorDeclaration declaration;
    private Parameter[] parameters;

    @Setup(Level.Trial)
    public void setUp() throws NoSuchMethodException {
        BenchmarkMain.requireAgent();
        launcher = LauncherFactory.create();
        emulatorRequest = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(EmulatorFixture.class))
                .build();
        plainRequest = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(PlainFixture.class))
                .build();
        declaration = EmulatorDeclaration.merge(
                List.of(new EmulatorDeclaration.Declared(
                        EmulatorFixture.class.getAnnotation(ServiceBusEmulator.class), EmulatorFixture.class)),
                (l, c) -> {
                    throw new IllegalStateException("no config files");
                });
        Method test = EmulatorFixture.class.getDeclaredMethod(
                "test01",
                ServiceBusSenderClient.class,
                ServiceBusReceiverClient.class,
                ServiceBusSenderClient.class,
                ServiceBusReceiverClient.class);
        parameters = test.getParameters();
        // JUnit's and the extension's code paths are long; warm them up beyond the short JMH warm-up.
        for (int i = 0; i < WARM_UP_RUNS; i++) {
            launcher_emulatorTests();
            launcher_plainTests();
            internals_namespaceTopologyClients();
        }
        outcomes.check(true);
    }

    @TearDown(Level.Iteration)
    public void checkOutcomes() {
        outcomes.check(false);
    }

    @Benchmark
    @OperationsPerInvocation(TESTS_PER_CLASS)
    public void launcher_emulatorTests() {
        launcher.execute(emulatorRequest, outcomes);
    }

    @Benchmark
    @OperationsPerInvocation(TESTS_PER_CLASS)
    public void launcher_plainTests() {
        launcher.execute(plainRequest, outcomes);
    }

    @Benchmark
    public Object internals_namespaceTopologyClients() {
        try (EmulatedNamespace scope = EmulatedNamespace.owning(declaration.start())) {
            Object last = null;
            for (Parameter p : parameters) {
                last = Injection.resolve(p.getType(), p.getAnnotation(Entity.class), p.toString(), scope);
            }
            return last;
        }
    }

    /** Counts test outcomes, so an iteration whose fixture tests failed is reported, not scored. */
    static final class Outcomes implements TestExecutionListener {
        final AtomicInteger succeeded = new AtomicInteger();
        volatile TestExecutionResult failure;

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                failure = result;
            } else if (id.isTest()) {
                succeeded.incrementAndGet();
            }
        }

        void check(boolean requireTests) {
            TestExecutionResult f = failure;
            if (f != null) {
                throw new IllegalStateException(
                        "a fixture test failed", f.getThrowable().orElse(null));
            }
            if (succeeded.getAndSet(0) == 0 && requireTests) {
                throw new IllegalStateException("the launcher ran no fixture test");
            }
        }
    }

    /** 10 tests, each with its own namespace of 5 entities and 4 injected clients. */
    @ServiceBusEmulator(
            queues = {@Queue(name = "orders"), @Queue(name = "payments")},
            topics =
                    @Topic(
                            name = "events",
                            subscriptions = {@Subscription(name = "audit"), @Subscription(name = "billing")}))
    public static class EmulatorFixture {
        private static void use(Object a, Object b, Object c, Object d) {
            Assertions.assertNotNull(a);
            Assertions.assertNotNull(b);
            Assertions.assertNotNull(c);
            Assertions.assertNotNull(d);
        }

        @Test
        void test01(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test02(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test03(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test04(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test05(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test06(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test07(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test08(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test09(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }

        @Test
        void test10(
                @Entity("orders") ServiceBusSenderClient orders,
                @Entity("orders") ServiceBusReceiverClient in,
                @Entity("events") ServiceBusSenderClient events,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient audit) {
            use(orders, in, events, audit);
        }
    }

    /** The same 10 tests without the extension: what JUnit itself costs per test. */
    public static class PlainFixture {
        private static void use() {
            Assertions.assertNotNull(PlainFixture.class);
        }

        @Test
        void test01() {
            use();
        }

        @Test
        void test02() {
            use();
        }

        @Test
        void test03() {
            use();
        }

        @Test
        void test04() {
            use();
        }

        @Test
        void test05() {
            use();
        }

        @Test
        void test06() {
            use();
        }

        @Test
        void test07() {
            use();
        }

        @Test
        void test08() {
            use();
        }

        @Test
        void test09() {
            use();
        }

        @Test
        void test10() {
            use();
        }
    }
}
