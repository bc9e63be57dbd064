package dev.sbemu.junit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sbemu.junit.fixtures.ClientFixtures;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** Real SDK clients injected into test methods, lifecycle methods and fields. */
class ClientInjectionTest {

    @Test
    @DisplayName("the product in one test: TTL dead-lettering through injected SDK clients and the virtual clock")
    void orderExpiry() {
        Kit.run(ClientFixtures.OrderExpiryTest.class)
                .testEvents()
                .assertStatistics(s -> s.succeeded(1).failed(0));
    }

    @Test
    @DisplayName("senders, receivers and rule managers, sync and async, in parameters, @BeforeEach and fields")
    void sendersAndReceivers() {
        EngineExecutionResults results = Kit.run(ClientFixtures.SendersAndReceivers.class);

        results.testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
        assertEquals(List.of("ok"), Kit.reported(results, "clients"));
    }

    @Test
    @DisplayName("a receiver of the next available session is accepted on its first call, not at injection (which "
            + "would wait a minute for a session the test has not sent yet)")
    void nextAvailableSession() {
        Kit.run(ClientFixtures.NextAvailableSession.class)
                .testEvents()
                .assertStatistics(s -> s.succeeded(2).failed(0));
    }

    @Test
    @DisplayName("session receivers, and receivers locked to a session")
    void sessionReceivers() {
        runOnceTheAdapterHasIt(ClientFixtures.SessionReceivers.class);
    }

    @Test
    @DisplayName("administration clients, and entities created from the test body")
    void administration() {
        runOnceTheAdapterHasIt(ClientFixtures.Administration.class);
    }

    @Test
    @DisplayName("a processor left running by a test is stopped with its threads when the test ends")
    void processorLeftRunning() {
        Set<String> before = ParallelExecutionTest.liveThreads();

        EngineExecutionResults results = Kit.run(ClientFixtures.ProcessorLeftRunning.class);

        results.testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
        assertTrue(
                Kit.reported(results, "threads").get(0).startsWith("sbemu-processor"),
                "the processor ran: " + Kit.reported(results, "threads"));
        await("the processor's threads to end")
                .pollInSameThread()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertEquals(Set.of(), ownThreads(ParallelExecutionTest.newThreads(before))));
    }

    /** Threads of our own: Reactor's process-wide schedulers (used by the SDK's async clients) are not per test. */
    private static Set<String> ownThreads(Set<String> threads) {
        return threads.stream()
                .filter(t -> !t.startsWith("boundedElastic-") && !t.startsWith("parallel-"))
                .collect(Collectors.toSet());
    }

    /** Runs the fixture; skipped (not failed) while the adapter still lacks the clients it needs. */
    private static void runOnceTheAdapterHasIt(Class<?> fixture) {
        EngineExecutionResults results = Kit.run(fixture);
        results.allEvents().failed().stream()
                .map(e -> e.getPayload(TestExecutionResult.class)
                        .orElseThrow()
                        .getThrowable()
                        .orElseThrow())
                .forEach(failure ->
                        assumeTrue(!causedByUnsupported(failure), "the adapter does not emulate this yet: " + failure));
        results.testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
    }

    private static boolean causedByUnsupported(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof UnsupportedOperationException) {
                return true;
            }
        }
        return false;
    }
}
