package dev.sbemu.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Arrays;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** Runs fixture classes through the JUnit Platform test kit and reads what they recorded. */
final class Kit {
    private Kit() {}

    static EngineExecutionResults run(Class<?>... fixtures) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(Arrays.stream(fixtures).map(c -> selectClass(c)).toArray(DiscoverySelector[]::new))
                .execute();
    }

    static EngineExecutionResults runInParallel(Class<?>... fixtures) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                // more workers than the tests that block at once: ForkJoinPool work stealing can leave a worker
                // waiting in a join for a test another worker took (junit-framework#3108), so with exactly as many
                // workers as ParallelFixtures' eight blocking tests, whether all eight ever ran at once depended on
                // how the threads were scheduled; eight blocked tests, eight class tasks and the root waiting in
                // joins still leave workers free
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "24")
                .selectors(Arrays.stream(fixtures).map(c -> selectClass(c)).toArray(DiscoverySelector[]::new))
                .execute();
    }

    /** The values the fixtures published under {@code key} with {@code TestReporter}, in order. */
    static List<String> reported(EngineExecutionResults results, String key) {
        return results.allEvents().reportingEntryPublished().stream()
                .map(e -> e.getPayload(ReportEntry.class)
                        .orElseThrow()
                        .getKeyValuePairs()
                        .get(key))
                .filter(v -> v != null)
                .toList();
    }

    /** The exception of the only failed test (or container). */
    static Throwable failure(EngineExecutionResults results) {
        List<Event> failed = results.allEvents().failed().stream().toList();
        if (failed.size() != 1) {
            throw new AssertionError("expected one failure, got " + failed.size() + ": " + failed);
        }
        return failed.get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
    }
}
