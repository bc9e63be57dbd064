package dev.sbemu.junit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link DeclaredNamespace}: declarations merged outside JUnit's extension model, as the Spring support uses it. */
class DeclaredNamespaceTest {
    @ServiceBusEmulator(queues = @Queue(name = "outer"), startAt = "2030-01-01T00:00:00Z")
    static class Outer {
        @ServiceBusEmulator(queues = @Queue(name = "inner"))
        static class Inner {}
    }

    @ServiceBusEmulator(startAt = "yesterday")
    static class BadStart {}

    @ServiceBusEmulator(startAt = "2030-01-01T00:00:00Z", clock = ClockMode.RUNNING)
    static class Running {
        @ServiceBusEmulator(queues = @Queue(name = "inner"))
        static class Inner {}
    }

    private static ServiceBusEmulator on(Class<?> c) {
        return c.getAnnotation(ServiceBusEmulator.class);
    }

    @Test
    @DisplayName("inner declarations add entities to the outer ones; each start() is a fresh namespace")
    void mergesOutermostFirst() {
        DeclaredNamespace declared = DeclaredNamespace.merge(
                List.of(on(Outer.class), on(Outer.Inner.class)), List.of(Outer.class, Outer.Inner.class), "@Twin");
        try (Namespace first = declared.start();
                Namespace second = declared.start()) {
            assertEquals(Instant.parse("2030-01-01T00:00:00Z"), first.clock().instant());
            assertTrue(first.queueExists("outer") && first.queueExists("inner"));
            first.send("inner", Message.ofText("only in the first"));
            assertEquals(List.of(), second.peek(EntityPath.queue("inner"), 0, 10));
        }
    }

    @Test
    @DisplayName("CLK-6 the clock is frozen unless clock = RUNNING, which an inner declaration keeps")
    void clockMode() {
        try (Namespace frozen = DeclaredNamespace.merge(List.of(on(Outer.class)), List.of(Outer.class), "@Twin")
                        .start();
                Namespace running = DeclaredNamespace.merge(
                                List.of(on(Running.class), on(Running.Inner.class)),
                                List.of(Running.class, Running.Inner.class),
                                "@Twin")
                        .start()) {
            assertEquals(ClockMode.FROZEN, frozen.clock().mode());
            assertEquals(ClockMode.RUNNING, running.clock().mode());
            assertTrue(running.queueExists("inner"));
            Instant start = Instant.parse("2030-01-01T00:00:00Z");
            assertTrue(!running.clock().instant().isBefore(start), "it runs from startAt");
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> running.clock().instant().isAfter(start));
        }
    }

    @Test
    @DisplayName("a malformed attribute fails with the attribute, the value and the annotation's own name")
    void malformedAttribute() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> DeclaredNamespace.merge(List.of(on(BadStart.class)), List.of(BadStart.class), "@Twin"));
        assertTrue(e.getMessage().contains("startAt = \"yesterday\" in @Twin on "), e.getMessage());
    }

    @Test
    @DisplayName("each declaration needs the class it sits on")
    void classesMatchDeclarations() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> DeclaredNamespace.merge(List.of(on(Outer.class)), List.of(), "@Twin"));
        assertEquals("1 declarations but 0 declaring classes: give the class each declaration sits on", e.getMessage());
    }
}
