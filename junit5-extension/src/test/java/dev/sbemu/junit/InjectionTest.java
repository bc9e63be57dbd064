package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sbemu.junit.fixtures.InjectionFixtures;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

class InjectionTest {

    @Test
    @DisplayName("constructor, @BeforeEach, test method, @AfterEach and fields all get the test's namespace")
    void everyPosition() {
        EngineExecutionResults results = Kit.run(InjectionFixtures.EveryPosition.class);

        results.allEvents().failed().stream().forEach(e -> System.err.println(e));
        results.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
        assertEquals(List.of("[made-in-before-each]"), Kit.reported(results, "queues"));
    }

    @Test
    @DisplayName("with PER_CLASS, static fields and @BeforeAll parameters get the class's namespace")
    void staticFieldsPerClass() {
        EngineExecutionResults results = Kit.run(InjectionFixtures.StaticFieldsPerClass.class);

        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        assertEquals(List.of("[made-in-before-all]"), Kit.reported(results, "queues"));
    }
}
