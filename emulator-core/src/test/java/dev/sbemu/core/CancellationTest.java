package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link Cancellation}: a closed client's blocking calls end at once and take nothing. */
class CancellationTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    /** Far longer than the bound each test waits for the cancelled call to end. */
    private static final Duration LONG = Duration.ofMinutes(5);

    private static final long BOUND_SECONDS = 30;

    private final Namespace ns = Namespace.builder().startingAt(T0).build();
    private final EntityPath q = EntityPath.queue("q");
    private final EntityPath sq = EntityPath.queue("sq");

    CancellationTest() {
        ns.createQueue("q");
        ns.createQueue("sq", QueueOptions.builder().requiresSession(true).build());
    }

    @AfterEach
    void close() {
        ns.close();
    }

    @Test
    @DisplayName("CLK-5 a call made with a cancelled cancellation fails at once and takes nothing")
    void cancelledBefore() {
        ns.send("q", Message.ofText("m"));
        ns.send("sq", Message.builder().body("s").sessionId("A").build());
        Cancellation c = new Cancellation();
        c.cancel();
        assertThrows(CancellationException.class, () -> ns.receive(q, ReceiveMode.PEEK_LOCK, 1, LONG, c));
        assertThrows(CancellationException.class, () -> ns.acceptSession(sq, null, LONG, c));
        assertEquals(1, ns.receive(q, ReceiveMode.PEEK_LOCK, 1).size());
        assertEquals("A", ns.acceptSession(sq, null, Duration.ZERO).sessionId());
    }

    @Test
    @DisplayName("CLK-5 cancelling ends a waiting receive and a waiting accept at once")
    void cancelWhileWaiting() throws Exception {
        Cancellation c = new Cancellation();
        CompletableFuture<List<BrokeredMessage>> receive =
                CompletableFuture.supplyAsync(() -> ns.receive(q, ReceiveMode.PEEK_LOCK, 1, LONG, c));
        CompletableFuture<SessionLock> accept =
                CompletableFuture.supplyAsync(() -> ns.acceptSession(sq, null, LONG, c));
        c.cancel();
        for (CompletableFuture<?> call : List.of(receive, accept)) {
            ExecutionException e =
                    assertThrows(ExecutionException.class, () -> call.get(BOUND_SECONDS, TimeUnit.SECONDS));
            assertInstanceOf(CancellationException.class, e.getCause());
        }
        ns.send("q", Message.ofText("m"));
        assertEquals(
                0,
                ns.receive(q, ReceiveMode.PEEK_LOCK, 1).get(0).deliveryCount(),
                "the message was not taken for the cancelled call");
    }
}
