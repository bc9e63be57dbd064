package dev.sbemu.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.junit.Queue;
import dev.sbemu.spring.SpringServiceBusEmulator;
import dev.sbemu.spring.SpringServiceBusEmulator.Reset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** How test classes' declarations become namespaces and context cache keys. */
@DisplayName("SPRING-2 SPRING-4 declarations: context cache keys and errors")
class DeclarationsTest {
    @SpringServiceBusEmulator(queues = @Queue(name = "orders"))
    static class Orders {
    }

    @SpringServiceBusEmulator(queues = @Queue(name = "orders"), reset = Reset.BEFORE_EACH_CLASS)
    static class OrdersResetPerClass {
    }

    static class InheritsOrders extends Orders {
    }

    @SpringServiceBusEmulator(queues = @Queue(name = "invoices"))
    static class Invoices {
    }

    @SpringServiceBusEmulator(queues = @Queue(name = "orders", lockDuration = "PT10M"))
    static class BadLockDuration {
    }

    @SpringServiceBusEmulator(startAt = "yesterday")
    static class BadStartAt {
    }

    @Test
    void equalDeclarationsShareAContextWhateverTheirReset() {
        assertEquals(new EmulatorContextCustomizer(Declarations.of(Orders.class)),
                new EmulatorContextCustomizer(Declarations.of(OrdersResetPerClass.class)));
        assertEquals(new EmulatorContextCustomizer(Declarations.of(Orders.class)),
                new EmulatorContextCustomizer(Declarations.of(InheritsOrders.class)));
        assertNotEquals(new EmulatorContextCustomizer(Declarations.of(Orders.class)),
                new EmulatorContextCustomizer(Declarations.of(Invoices.class)));
        assertEquals(Reset.BEFORE_EACH_CLASS, Declarations.of(OrdersResetPerClass.class).reset());
        assertTrue(Declarations.of(DeclarationsTest.class).isEmpty());
    }

    @Test
    void aValueTheServiceRejectsNamesTheAnnotationTheAttributeAndTheRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Declarations.of(BadLockDuration.class).merge().start());
        assertTrue(e.getMessage().contains("lockDuration in @SpringServiceBusEmulator on "
                + BadLockDuration.class.getCanonicalName()), e.getMessage());
        assertTrue(e.getMessage().contains("must be between PT5S and PT5M"), e.getMessage());
    }

    @Test
    void aMalformedStartAtSaysWhatIsExpected() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Declarations.of(BadStartAt.class).merge());
        assertTrue(e.getMessage().startsWith("startAt = \"yesterday\" in @SpringServiceBusEmulator on "),
                e.getMessage());
    }
}
