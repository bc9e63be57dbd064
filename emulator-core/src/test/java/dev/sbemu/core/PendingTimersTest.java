package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.PendingTimer.Kind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PendingTimersTest {

    @Test
    @DisplayName("CON-8 pendingTimers lists what expires, activates, gets unlocked or auto-deleted, earliest first, "
            + "and advancing to the first one's due instant makes it happen")
    void listsTheNextTransitions() {
        Namespace ns = Namespace.builder().startingAt(T0).build();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(30))
                        .autoDeleteOnIdle(Duration.ofHours(2))
                        .build());
        ns.send("q", msg("m1", Duration.ofMinutes(10)));
        ns.schedule("q", msg("m2"), T0.plus(Duration.ofMinutes(5)));
        lockOne(ns, Q);

        List<PendingTimer> timers = ns.pendingTimers(10);

        assertEquals(
                List.of(
                        new PendingTimer(T0.plusSeconds(30), Kind.LOCK_EXPIRY, "q", 1, "m1", ""),
                        new PendingTimer(T0.plus(Duration.ofMinutes(5)), Kind.SCHEDULED_ACTIVATION, "q", 2, "m2", ""),
                        new PendingTimer(T0.plus(Duration.ofMinutes(10)), Kind.MESSAGE_EXPIRY, "q", 1, "m1", ""),
                        new PendingTimer(T0.plus(Duration.ofHours(2)), Kind.AUTO_DELETE, "q", -1, null, "")),
                timers);
        assertEquals(timers.subList(0, 2), ns.pendingTimers(2));

        ns.clock().advanceTo(ns.pendingTimers(1).get(0).due());

        assertEquals(
                List.of(JournalEvent.Type.LOCK_EXPIRED, JournalEvent.Type.CLOCK_ADVANCED),
                lastTwo(ns).stream().map(JournalEvent::type).toList());
        assertEquals(Kind.SCHEDULED_ACTIVATION, ns.pendingTimers(1).get(0).kind());
    }

    @Test
    @DisplayName("CON-8 a held session's lock end is listed with its session; a namespace with no timers lists none; "
            + "max must be at least 1")
    void sessionsAndEdges() {
        Namespace ns = Namespace.builder().startingAt(T0).build();
        assertTrue(ns.pendingTimers(5).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> ns.pendingTimers(0));
        ns.createQueue(
                "s",
                QueueOptions.builder()
                        .requiresSession(true)
                        .lockDuration(Duration.ofSeconds(20))
                        .build());
        ns.send("s", Message.builder().messageId("x").sessionId("s-1").build());
        ns.acceptSession(EntityPath.queue("s"), "s-1", Duration.ZERO);

        assertEquals(
                List.of(new PendingTimer(T0.plusSeconds(20), Kind.SESSION_LOCK_EXPIRY, "s", -1, null, "session s-1")),
                ns.pendingTimers(5));
    }

    private static List<JournalEvent> lastTwo(Namespace ns) {
        List<JournalEvent> events = ns.journal().events();
        return events.subList(events.size() - 2, events.size());
    }
}
