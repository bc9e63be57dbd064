package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.sbemu.junit.fixtures.LifecycleFixtures;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

class LifecycleTest {

    @Test
    @DisplayName("each test method gets a fresh namespace with the declared entities")
    void perMethod() {
        EngineExecutionResults results = Kit.run(LifecycleFixtures.PerMethod.class);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
        List<String> namespaces = Kit.reported(results, "namespace");
        assertEquals(2, Set.copyOf(namespaces).size(), "two namespaces: " + namespaces);
        assertEquals(List.of("0", "0"), Kit.reported(results, "ordersBefore"));
    }

    @Test
    @DisplayName("PER_CLASS shares one namespace across a class; a @Nested class has its own")
    void perClass() {
        EngineExecutionResults results = Kit.run(LifecycleFixtures.PerClass.class);

        results.testEvents().assertStatistics(s -> s.started(3).succeeded(3));
        List<String> namespaces = Kit.reported(results, "namespace");
        List<String> before = Kit.reported(results, "ordersBefore");
        assertEquals(namespaces.get(0), namespaces.get(1));
        assertEquals(List.of("0", "1"), before.subList(0, 2), "the second test sees the first one's message");
        assertNotEquals(namespaces.get(0), namespaces.get(2), "the nested class has its own namespace");
        assertEquals("0", before.get(2));
    }

    @Test
    @DisplayName("@Nested classes inherit the enclosing configuration and their own @ServiceBusEmulator adds to it")
    void nested() {
        EngineExecutionResults results = Kit.run(LifecycleFixtures.WithNested.class);

        results.testEvents().assertStatistics(s -> s.started(4).succeeded(4));
        assertEquals(List.of("queues=[orders] topics=[]"), Kit.reported(results, "outer"));
        assertEquals(List.of("queues=[orders] topics=[] at 2024-01-01T00:00:00Z"), Kit.reported(results, "inherits"));
        assertEquals(List.of("queues=[orders] topics=[events] events=[audit]"), Kit.reported(results, "adds"));
        assertEquals(
                List.of("queues=[archive, orders] topics=[events] events=[audit] at 2030-06-01T12:00:00Z"),
                Kit.reported(results, "addsMore"));
    }
}
