package dev.sbemu.amqp.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TrafficTest {
    @Test
    @DisplayName("CON-10 a text a client chose (a link's name, an address) is kept up to 256 characters, then cut")
    void clipsClientTexts() {
        String exactly = "a".repeat(Traffic.MAX_TEXT);

        assertEquals(exactly, Traffic.clip(exactly));
        assertEquals(exactly + "\u2026", Traffic.clip(exactly + "bcd"));
        assertEquals("orders", Traffic.clip("orders"));
        assertNull(Traffic.clip(null));
    }
}
