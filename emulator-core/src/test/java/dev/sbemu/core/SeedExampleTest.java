package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SeedExampleTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    @DisplayName("CLK-2 TTL-5 SCH-4 scheduled +5 min with TTL 10 min: one advance of 20 min activates at +5:00, "
            + "dead-letters at +15:00")
    void scheduledMessageActivatesThenExpiresInOrder() {
        Namespace ns = Namespace.builder().startingAt(T0).build();
        ns.createQueue(
                "q",
                QueueOptions.builder().deadLetteringOnMessageExpiration(true).build());

        long scheduledAs = ns.schedule(
                "q",
                Message.builder()
                        .messageId("m1")
                        .body("hello")
                        .timeToLive(Duration.ofMinutes(10))
                        .build(),
                T0.plus(Duration.ofMinutes(5)));
        ns.clock().advance(Duration.ofMinutes(20));

        List<JournalEvent> events = ns.journal().events();
        JournalEvent activated = events.stream()
                .filter(e -> e.type() == JournalEvent.Type.ACTIVATED)
                .findFirst()
                .orElseThrow();
        JournalEvent deadLettered = events.stream()
                .filter(e -> e.type() == JournalEvent.Type.DEAD_LETTERED)
                .findFirst()
                .orElseThrow();
        assertEquals(T0.plus(Duration.ofMinutes(5)), activated.at());
        assertEquals(T0.plus(Duration.ofMinutes(15)), deadLettered.at());
        assertEquals("TTLExpiredException", deadLettered.detail());
        assertTrue(activated.sequenceNumber() > scheduledAs, "new sequence number on activation");

        List<BrokeredMessage> dead = ns.receive(EntityPath.queue("q").deadLetter(), ReceiveMode.RECEIVE_AND_DELETE, 10);
        assertEquals(1, dead.size());
        assertEquals("TTLExpiredException", dead.get(0).deadLetterReason());
        assertEquals("The message expired and was dead lettered.", dead.get(0).deadLetterErrorDescription());
        assertEquals(T0.plus(Duration.ofMinutes(5)), dead.get(0).enqueuedTime());
        assertEquals(T0.plus(Duration.ofMinutes(15)), dead.get(0).expiresAt());
    }
}
