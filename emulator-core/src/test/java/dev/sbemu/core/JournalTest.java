package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JournalTest {

    @Test
    @DisplayName("the journal records each transition with its virtual instant, entity, sequence number and id")
    void recordsTransitions() {
        Namespace ns = Namespace.builder().startingAt(T0).build();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(10)).build());
        ns.send("q", msg("m1"));
        BrokeredMessage m = lockOne(ns, Q);
        ns.clock().advance(Duration.ofSeconds(10));
        ns.complete(Q, lockOne(ns, Q).lockToken());

        List<JournalEvent> events = ns.journal().events();

        assertEquals(
                List.of(
                        JournalEvent.Type.ENTITY_CREATED,
                        JournalEvent.Type.SENT,
                        JournalEvent.Type.RECEIVED,
                        JournalEvent.Type.LOCK_EXPIRED,
                        JournalEvent.Type.CLOCK_ADVANCED,
                        JournalEvent.Type.RECEIVED,
                        JournalEvent.Type.COMPLETED),
                events.stream().map(JournalEvent::type).toList());
        assertEquals(
                new JournalEvent(T0.plusSeconds(10), JournalEvent.Type.LOCK_EXPIRED, "q", 1, "m1", "delivery 1"),
                events.get(3));
        assertEquals(T0.plusSeconds(10), events.get(6).at());
        assertEquals(m.sequenceNumber(), events.get(6).sequenceNumber());
        assertEquals(-1, events.get(0).sequenceNumber());
    }

    @Test
    @DisplayName("the journal is a ring: it keeps the last N events and counts the dropped ones")
    void ringCapacity() {
        Namespace ns = Namespace.builder().startingAt(T0).journalCapacity(3).build();
        ns.createQueue("q");
        for (int i = 1; i <= 5; i++) {
            ns.send("q", msg("m" + i));
        }

        List<JournalEvent> events = ns.journal().events();

        assertEquals(6, ns.journal().totalEvents());
        assertEquals(
                List.of(3L, 4L, 5L),
                events.stream().map(JournalEvent::sequenceNumber).toList());
        assertEquals(
                "(3 earlier events dropped)\n"
                        + "2026-01-01T10:00:00Z  SENT  q  #3  id=m3\n"
                        + "2026-01-01T10:00:00Z  SENT  q  #4  id=m4\n"
                        + "2026-01-01T10:00:00Z  SENT  q  #5  id=m5\n",
                ns.journal().format());
        assertThrows(IllegalArgumentException.class, () -> Namespace.builder().journalCapacity(0));
    }

    @Test
    @DisplayName("the default journal keeps 10,000 events")
    void defaultCapacity() {
        Namespace ns = Namespace.builder().startingAt(T0).build();
        ns.createQueue("q");
        for (int i = 0; i < 10_100; i++) {
            ns.send("q", msg("m" + i));
        }

        assertEquals(10_000, Namespace.DEFAULT_JOURNAL_CAPACITY);
        assertEquals(10_000, ns.journal().events().size());
        assertEquals(10_101, ns.journal().totalEvents());
        assertEquals(101, ns.journal().events().get(0).sequenceNumber(), "created and #1..#100 dropped");
    }

    @Test
    @DisplayName("format() gives one readable line per event, with reason details")
    void readableFormat() {
        Namespace ns = Namespace.builder().startingAt(T0).build();
        ns.createQueue(
                "q",
                QueueOptions.builder().deadLetteringOnMessageExpiration(true).build());
        ns.schedule("q", msg("m1", Duration.ofMinutes(10)), T0.plus(Duration.ofMinutes(5)));
        ns.clock().advance(Duration.ofMinutes(20));

        String text = ns.journal().format();

        assertEquals(
                String.join(
                        "\n",
                        "2026-01-01T10:00:00Z  ENTITY_CREATED  q  (queue)",
                        "2026-01-01T10:00:00Z  SCHEDULED  q  #1  id=m1  (for 2026-01-01T10:05:00Z, expires "
                                + "2026-01-01T10:15:00Z)",
                        "2026-01-01T10:05:00Z  ACTIVATED  q  #2  id=m1  (scheduled as #1, expires 2026-01-01T10:15:00Z)",
                        "2026-01-01T10:15:00Z  EXPIRED  q  #2  id=m1  (to the dead-letter queue)",
                        "2026-01-01T10:15:00Z  DEAD_LETTERED  q/$deadletterqueue  #2  id=m1  (TTLExpiredException)",
                        "2026-01-01T10:20:00Z  CLOCK_ADVANCED  clock  (now 2026-01-01T10:20:00Z)",
                        ""),
                text);
        assertTrue(ns.journal().toString().equals(text));
    }

    @Test
    @DisplayName("CON-7 a sent message's line says when it expires (its time to live capped by the entity's), a "
            + "scheduled one's when it activates, a peek-lock receive's when its lock ends")
    void linesSayWhenThingsHappen() {
        Namespace ns = Namespace.builder().startingAt(T0).build();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(30))
                        .defaultMessageTimeToLive(Duration.ofHours(1))
                        .build());
        ns.createTopic("t");
        ns.send("q", msg("short", Duration.ofMinutes(2)));
        ns.send("q", msg("capped", Duration.ofDays(2)));
        ns.send("t", msg("forever"));
        ns.schedule("q", msg("later"), T0.plus(Duration.ofMinutes(5)));
        lockOne(ns, Q);

        List<String> lines = ns.journal().events().stream()
                .filter(e -> e.type() != JournalEvent.Type.ENTITY_CREATED)
                .map(JournalEvent::format)
                .toList();

        assertEquals(
                List.of(
                        "2026-01-01T10:00:00Z  SENT  q  #1  id=short  (expires 2026-01-01T10:02:00Z)",
                        "2026-01-01T10:00:00Z  SENT  q  #2  id=capped  (expires 2026-01-01T11:00:00Z)",
                        "2026-01-01T10:00:00Z  SENT  t  #1  id=forever",
                        "2026-01-01T10:00:00Z  SCHEDULED  q  #3  id=later  (for 2026-01-01T10:05:00Z, expires "
                                + "2026-01-01T11:05:00Z)",
                        "2026-01-01T10:00:00Z  RECEIVED  q  #1  id=short  (peek-lock, locked until "
                                + "2026-01-01T10:00:30Z)"),
                lines);
    }
}
