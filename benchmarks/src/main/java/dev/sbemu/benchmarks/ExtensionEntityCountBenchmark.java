package dev.sbemu.benchmarks;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.benchmarks.ExtensionOverheadBenchmark.Outcomes;
import dev.sbemu.benchmarks.ExtensionOverheadBenchmark.PlainFixture;
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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link ExtensionOverheadBenchmark}'s method with 1, 5 and 20 entities: the per-test cost of
 * {@code @ServiceBusEmulator} as the topology grows, the 4 injected clients (2 senders, 2 receivers) and
 * everything else being the same.
 * <ul>
 *   <li>{@code launcher_emulatorTests} ({@code entities} = 1, 5, 20) runs a fixture class of 10 tests through
 *       the JUnit Platform launcher, scored per test; {@code launcher_plainTests} runs the same 10 empty
 *       tests without the extension (it does not depend on {@code entities}, so it runs once). The
 *       difference is the extension's cost per test.</li>
 *   <li>{@code internals_namespaceTopologyClients} starts the namespace with the topology, makes the 4
 *       clients and closes it all, as the extension does per test.</li>
 * </ul>
 * Fixtures: 1 entity = queue {@code orders} (the 4 clients all on it); 5 entities =
 * {@link ExtensionOverheadBenchmark.EmulatorFixture}; 20 entities = 10 queues, and 2 topics of 4
 * subscriptions each. Sample time (medians). Each trial's setup first runs its fixture
 * {@value ExtensionOverheadBenchmark#WARM_UP_RUNS} times.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ExtensionEntityCountBenchmark {
    static final int TESTS_PER_CLASS = ExtensionOverheadBenchmark.TESTS_PER_CLASS;
    static final int WARM_UP_RUNS = ExtensionOverheadBenchmark.WARM_UP_RUNS;

    private Launcher launcher;
    private LauncherDiscoveryRequest plainRequest;
    private final Outcomes outcomes = new Outcomes();

    @Setup(Level.Trial)
    public void setUp() {
        BenchmarkMain.requireAgent();
        launcher = LauncherFactory.create();
        plainRequest = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(PlainFixture.class))
                .build();
    }

    @TearDown(Level.Iteration)
    public void checkOutcomes() {
        outcomes.check(false);
    }

    /** The fixture with {@link #entities} entities, warmed up. */
    @State(Scope.Thread)
    public static class Topology {
        @Param({"1", "5", "20"})
        public int entities;

        private LauncherDiscoveryRequest request;
        private EmulatorDeclaration declaration;
        private Parameter[] parameters;

        @Setup(Level.Trial)
        public void setUp(ExtensionEntityCountBenchmark b) {
            Class<?> fixture = switch (entities) {
                case 1 -> OneEntityFixture.class;
                case 5 -> ExtensionOverheadBenchmark.EmulatorFixture.class;
                case 20 -> TwentyEntitiesFixture.class;
                default -> throw new IllegalArgumentException("no fixture with " + entities + " entities");
            };
            request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(fixture))
                    .build();
            declaration = EmulatorDeclaration.merge(
                    List.of(new EmulatorDeclaration.Declared(fixture.getAnnotation(ServiceBusEmulator.class), fixture)),
                    (l, c) -> {
                        throw new IllegalStateException("no config files");
                    });
            Method test = Arrays.stream(fixture.getDeclaredMethods())
                    .filter(m -> m.getName().equals("test01"))
                    .findFirst()
                    .orElseThrow();
            parameters = test.getParameters();
            try (EmulatedNamespace scope = EmulatedNamespace.owning(declaration.start())) {
                int count = scope.namespace().queueNames().size()
                        + scope.namespace().topicNames().size();
                for (String topic : scope.namespace().topicNames()) {
                    count += scope.namespace().subscriptionNames(topic).size();
                }
                if (count != entities) {
                    throw new IllegalStateException(fixture.getSimpleName() + " declares " + count + " entities");
                }
            }
            for (int i = 0; i < WARM_UP_RUNS; i++) {
                b.launcher_emulatorTests(this);
                b.internals_namespaceTopologyClients(this);
            }
            b.outcomes.check(true);
        }
    }

    @Benchmark
    @OperationsPerInvocation(TESTS_PER_CLASS)
    public void launcher_emulatorTests(Topology topology) {
        launcher.execute(topology.request, outcomes);
    }

    @Benchmark
    @OperationsPerInvocation(TESTS_PER_CLASS)
    public void launcher_plainTests(Plain plain) {
        launcher.execute(plainRequest, outcomes);
    }

    /** Warms up the plain fixture (in its own state, so that it does not run once per topology). */
    @State(Scope.Thread)
    public static class Plain {
        @Setup(Level.Trial)
        public void setUp(ExtensionEntityCountBenchmark b) {
            for (int i = 0; i < WARM_UP_RUNS; i++) {
                b.launcher_plainTests(this);
            }
            b.outcomes.check(true);
        }
    }

    @Benchmark
    public Object internals_namespaceTopologyClients(Topology topology) {
        try (EmulatedNamespace scope = EmulatedNamespace.owning(topology.declaration.start())) {
            Object last = null;
            for (Parameter p : topology.parameters) {
                last = Injection.resolve(p.getType(), p.getAnnotation(Entity.class), p.toString(), scope);
            }
            return last;
        }
    }

    private static void use(Object a, Object b, Object c, Object d) {
        Assertions.assertNotNull(a);
        Assertions.assertNotNull(b);
        Assertions.assertNotNull(c);
        Assertions.assertNotNull(d);
    }

    /** 10 tests on a namespace of 1 entity (queue {@code orders}), 4 injected clients on it. */
    @ServiceBusEmulator(queues = @Queue(name = "orders"))
    public static class OneEntityFixture {
        @Test
        void test01(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test02(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test03(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test04(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test05(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test06(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test07(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test08(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test09(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test10(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("orders") ServiceBusSenderClient c,
                @Entity("orders") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }
    }

    /** 10 tests on a namespace of 20 entities: 10 queues, 2 topics with 4 subscriptions each; 4 clients. */
    @ServiceBusEmulator(
            queues = {
                @Queue(name = "orders"),
                @Queue(name = "payments"),
                @Queue(name = "q03"),
                @Queue(name = "q04"),
                @Queue(name = "q05"),
                @Queue(name = "q06"),
                @Queue(name = "q07"),
                @Queue(name = "q08"),
                @Queue(name = "q09"),
                @Queue(name = "q10")
            },
            topics = {
                @Topic(
                        name = "events",
                        subscriptions = {
                            @Subscription(name = "audit"),
                            @Subscription(name = "billing"),
                            @Subscription(name = "s3"),
                            @Subscription(name = "s4")
                        }),
                @Topic(
                        name = "t2",
                        subscriptions = {
                            @Subscription(name = "s1"),
                            @Subscription(name = "s2"),
                            @Subscription(name = "s3"),
                            @Subscription(name = "s4")
                        })
            })
    public static class TwentyEntitiesFixture {
        @Test
        void test01(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test02(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test03(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test04(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test05(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test06(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test07(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test08(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test09(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }

        @Test
        void test10(
                @Entity("orders") ServiceBusSenderClient a,
                @Entity("orders") ServiceBusReceiverClient b,
                @Entity("events") ServiceBusSenderClient c,
                @Entity(value = "events", subscription = "audit") ServiceBusReceiverClient d) {
            use(a, b, c, d);
        }
    }
}
