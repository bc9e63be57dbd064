package dev.sbemu.amqp.internal.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The session accept's rules, without a connection. */
class SessionAcceptTest {
    @Test
    @DisplayName("AMQP-19 a client's com.microsoft:timeout is capped at the endpoint's maximum; none or a negative "
            + "one waits 1 minute")
    void timeoutCapped() {
        Duration max = Duration.ofMinutes(2);
        assertEquals(Duration.ofMinutes(2), SessionAccept.acceptWait(Long.MAX_VALUE, max));
        assertEquals(Duration.ofSeconds(5), SessionAccept.acceptWait(5_000, max));
        assertEquals(Duration.ofMinutes(1), SessionAccept.acceptWait(null, max));
        assertEquals(Duration.ofMinutes(1), SessionAccept.acceptWait(-1, max));
    }
}
