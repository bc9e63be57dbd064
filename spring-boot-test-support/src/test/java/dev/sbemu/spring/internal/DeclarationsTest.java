package dev.sbemu.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.spring.SpringServiceBusEmulator;
import dev.sbemu.spring.SpringServiceBusEmulator.Reset;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** How test classes' declarations become namespaces and context cache keys. */
@DisplayName("SPRING-2 SPRING-4 declarations: context cache keys and errors")
class DeclarationsTest {
    @SpringServiceBusEmulator(queues = @Queue(name = "orders"), tlsPort = 0)
    static class OrdersOverTls {}

    @SpringServiceBusEmulator(queues = @Queue(name = "orders"))
    static class Orders {}

    @SpringServiceBusEmulator(queues = @Queue(name = "orders"), reset = Reset.BEFORE_EACH_CLASS)
    static class OrdersResetPerClass {}

    static class InheritsOrders extends Orders {}

    @SpringServiceBusEmulator(queues = @Queue(name = "invoices"))
    static class Invoices {}

    @SpringServiceBusEmulator(queues = @Queue(name = "orders", lockDuration = "PT10M"))
    static class BadLockDuration {}

    @SpringServiceBusEmulator(startAt = "yesterday")
    static class BadStartAt {}

    @SpringServiceBusEmulator(queues = @Queue(name = "orders"), clock = ClockMode.RUNNING)
    static class RunningOrders {}

    @Test
    void equalDeclarationsShareAContextWhateverTheirReset() {
        assertEquals(
                new EmulatorContextCustomizer(Declarations.of(Orders.class)),
                new EmulatorContextCustomizer(Declarations.of(OrdersResetPerClass.class)));
        assertEquals(
                new EmulatorContextCustomizer(Declarations.of(Orders.class)),
                new EmulatorContextCustomizer(Declarations.of(InheritsOrders.class)));
        assertNotEquals(
                new EmulatorContextCustomizer(Declarations.of(Orders.class)),
                new EmulatorContextCustomizer(Declarations.of(Invoices.class)));
        assertEquals(
                Reset.BEFORE_EACH_CLASS,
                Declarations.of(OrdersResetPerClass.class).reset());
        assertTrue(Declarations.of(DeclarationsTest.class).isEmpty());
    }

    @Test
    @DisplayName("CLK-6 clock = RUNNING is part of the context cache key, and the namespaces it starts run")
    void runningClockIsPartOfTheKey() {
        assertNotEquals(
                new EmulatorContextCustomizer(Declarations.of(Orders.class)),
                new EmulatorContextCustomizer(Declarations.of(RunningOrders.class)));
        try (Namespace running = Declarations.of(RunningOrders.class).merge().start();
                Namespace frozen = Declarations.of(Orders.class).merge().start()) {
            assertEquals(ClockMode.RUNNING, running.clock().mode());
            assertEquals(ClockMode.FROZEN, frozen.clock().mode());
        }
    }

    @Test
    @DisplayName("every attribute of @ServiceBusEmulator but lifecycle has its twin, and every attribute but reset "
            + "is in the context cache key")
    void attributesMatchTheJunitAnnotation() {
        Set<String> spring = Arrays.stream(SpringServiceBusEmulator.class.getDeclaredMethods())
                .map(Method::getName)
                .collect(Collectors.toSet());
        Set<String> junit = Arrays.stream(ServiceBusEmulator.class.getDeclaredMethods())
                .map(Method::getName)
                .collect(Collectors.toSet());
        spring.remove("reset");
        junit.remove("lifecycle");
        assertEquals(junit, spring);
        assertEquals(
                spring.size(),
                Declarations.of(Orders.class).key().get(0).size(),
                "one key element per attribute but reset");
    }

    @Test
    @DisplayName("JMS-30 tlsPort reaches the merged declaration (the endpoint's TLS port) and the context cache key")
    void tlsPort() {
        assertEquals(0, Declarations.of(OrdersOverTls.class).merge().tlsPort());
        assertEquals(-1, Declarations.of(Orders.class).merge().tlsPort());
        assertNotEquals(
                Declarations.of(Orders.class).key(),
                Declarations.of(OrdersOverTls.class).key());
    }

    @Test
    void aValueTheServiceRejectsNamesTheAnnotationTheAttributeAndTheRange() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Declarations.of(BadLockDuration.class).merge().start());
        assertTrue(
                e.getMessage()
                        .contains("lockDuration in @SpringServiceBusEmulator on "
                                + BadLockDuration.class.getCanonicalName()),
                e.getMessage());
        assertTrue(e.getMessage().contains("must be between PT5S and PT5M"), e.getMessage());
    }

    @Test
    void aMalformedStartAtSaysWhatIsExpected() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> Declarations.of(BadStartAt.class).merge());
        assertTrue(
                e.getMessage().startsWith("startAt = \"yesterday\" in @SpringServiceBusEmulator on "), e.getMessage());
    }
}
