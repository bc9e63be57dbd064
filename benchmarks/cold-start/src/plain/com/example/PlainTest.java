package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A JUnit test touching neither the SDK nor Mockito: the JVM's and JUnit's own cold start. */
class PlainTest {
    @Test
    void adds() {
        assertEquals(4, 2 + 2);
    }
}
