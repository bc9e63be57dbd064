package dev.sbemu.amqp.internal.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The session accept's rules, without a connection. */
class SessionAcceptTest {
    @Test
    @DisplayName(
            "AMQP-6 AMQP-19 a client's com.microsoft:timeout, of any numeric AMQP type, is capped at the endpoint's"
                    + " maximum; none or a negative one waits 65 s, as the service")
    void timeoutCapped() {
        Duration max = Duration.ofMinutes(2);
        assertEquals(Duration.ofMinutes(2), SessionAccept.acceptWait(Long.MAX_VALUE, max));
        assertEquals(Duration.ofSeconds(5), SessionAccept.acceptWait(5_000, max));
        assertEquals(Duration.ofSeconds(65), SessionAccept.acceptWait(null, max));
        assertEquals(Duration.ofSeconds(65), SessionAccept.acceptWait(-1, max));
        assertEquals(Duration.ofSeconds(65), SessionAccept.acceptWait("90000", max));
        // the Java and Python SDKs send a uint, the Go SDK an int64, rhea a JavaScript number (int or double)
        assertEquals(Duration.ofSeconds(90), SessionAccept.acceptWait(UnsignedInteger.valueOf(90_000), max));
        assertEquals(Duration.ofSeconds(90), SessionAccept.acceptWait(90_000L, max));
        assertEquals(Duration.ofMillis(89_930), SessionAccept.acceptWait(89_930.0, max));
    }
}
