package dev.sbemu.junit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sbemu.junit.fixtures.ParallelFixtures;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

class ParallelExecutionTest {

    static Set<String> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .collect(Collectors.toSet());
    }

    @Test
    @DisplayName("eight classes run at once, each test with its own namespace and clock, and no thread outlives them")
    void eightClassesAtOnce() {
        Set<String> before = liveThreads();
        ParallelFixtures.allClassesRunning = new CountDownLatch(8);

        EngineExecutionResults results = Kit.runInParallel(ParallelFixtures.ALL);

        results.testEvents().assertStatistics(s -> s.started(24).succeeded(24).failed(0));
        List<String> namespaces = Kit.reported(results, "namespace");
        assertEquals(24, Set.copyOf(namespaces).size(), "one namespace per test: " + namespaces);
        await("threads started by the run to end")
                .pollInSameThread()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertEquals(Set.of(), newThreads(before)));
    }

    static Set<String> newThreads(Set<String> before) {
        Set<String> now = liveThreads();
        now.removeAll(before);
        return now;
    }
}
