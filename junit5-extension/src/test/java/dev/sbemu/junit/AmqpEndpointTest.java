package dev.sbemu.junit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.junit.fixtures.AmqpFixtures;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

class AmqpEndpointTest {

    private static Set<String> endpointThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("sbemu-amqp-"))
                .collect(Collectors.toSet());
    }

    /** The run's endpoints have stopped listening and their threads have ended. */
    private static void assertEndpointsClosed(Set<String> threadsBefore, List<String> ports) {
        for (String port : Set.copyOf(ports)) {
            assertThrows(
                    ConnectException.class,
                    () -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(port)), 5_000);
                        }
                    },
                    "port " + port + " still listens");
        }
        await("the endpoints' threads to end")
                .pollInSameThread()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> {
                    Set<String> now = endpointThreads();
                    now.removeAll(threadsBefore);
                    assertEquals(Set.of(), now);
                });
    }

    @Test
    @DisplayName(
            "PER_METHOD: a test that asks for the connection string gets its namespace's endpoint, closed with it; "
                    + "a test that does not ask starts none")
    void perMethod() throws IOException {
        Set<String> before = endpointThreads();

        EngineExecutionResults results = Kit.run(AmqpFixtures.PerMethod.class);

        results.testEvents().assertStatistics(s -> s.started(3).succeeded(3));
        List<String> ports = Kit.reported(results, "port");
        assertEquals(2, Set.copyOf(ports).size(), "an endpoint per test method: " + ports);
        assertEquals(List.of("1", "1"), Kit.reported(results, "orders"), "each message reached its own namespace");
        assertEquals(
                List.of(String.valueOf(before.size())),
                Kit.reported(results, "endpointThreads"),
                "no endpoint for a test that did not ask");
        assertEndpointsClosed(before, ports);
    }

    @Test
    @DisplayName(
            "PER_CLASS: one endpoint for the class (static field and parameters alike); a @Nested class has its own")
    void perClass() {
        Set<String> before = endpointThreads();

        EngineExecutionResults results = Kit.run(AmqpFixtures.PerClass.class);

        results.testEvents().assertStatistics(s -> s.started(3).succeeded(3));
        List<String> ports = Kit.reported(results, "port");
        assertEquals(ports.get(0), ports.get(1), "the class's tests share its endpoint");
        assertNotEquals(ports.get(0), ports.get(2), "the nested class has its own namespace and endpoint");
        assertEquals(List.of("1", "2", "1"), Kit.reported(results, "orders"));
        assertEndpointsClosed(before, ports);
    }

    @Test
    @DisplayName("parallel classes each get their own endpoints, and no endpoint thread or port outlives the run")
    void parallel() {
        Set<String> before = endpointThreads();

        EngineExecutionResults results = Kit.runInParallel(
                AmqpFixtures.ParallelA.class, AmqpFixtures.ParallelB.class, AmqpFixtures.PerMethod.class);

        results.testEvents().assertStatistics(s -> s.started(7).succeeded(7));
        List<String> ports = Kit.reported(results, "port");
        assertEquals(6, ports.size());
        assertEquals(5, Set.copyOf(ports).size(), "ParallelB (per class) shares one endpoint: " + ports);
        assertEndpointsClosed(before, ports);
    }

    @Test
    @DisplayName("sbemu.clients=amqp: injected clients and processors are the SDK's own, built from the endpoint's "
            + "connection string, and closed before it")
    void clientsOverAmqp() {
        Set<String> before = endpointThreads();

        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("sbemu.clients", "amqp")
                .selectors(DiscoverySelectors.selectClass(AmqpFixtures.ClientsOverAmqp.class))
                .execute();

        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        assertEquals(List.of("true", "true"), Kit.reported(results, "sdkBuilt"), "the SDK's own, not in-process");
        assertEquals(List.of("one"), Kit.reported(results, "handled"));
        assertTrue(Integer.parseInt(Kit.reported(results, "connections").get(0)) >= 1);
        assertEndpointsClosed(before, List.of());
    }

    @Test
    @DisplayName("an unknown sbemu.clients value fails with the values allowed")
    void unknownClientMode() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("sbemu.clients", "carrier-pigeon")
                .selectors(DiscoverySelectors.selectClass(AmqpFixtures.ClientsOverAmqp.class))
                .execute();

        assertEquals(
                "Unknown value 'carrier-pigeon' of the JUnit configuration parameter sbemu.clients: use one "
                        + "of in-process, amqp",
                Kit.failure(results).getMessage());
    }

    @Test
    @DisplayName("@ConnectionString on another type than String says what to do")
    void wrongType() {
        EngineExecutionResults results = Kit.run(AmqpFixtures.WrongType.class);

        assertEquals(
                "Cannot inject parameter [StringBuilder connectionString] of WrongType.test(...): "
                        + "@ConnectionString marks a String; inject the ServiceBusEmulatorServer (no annotation) for more "
                        + "than its connection string",
                Kit.failure(results).getMessage());
    }
}
