package dev.sbemu.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The start-up warm-up's class list still names classes that exist (a stale list would quietly warm nothing). */
class WarmUpTest {
    @Test
    @DisplayName("every class of the warm-up list is found, and the proton-j transport factory exists")
    void everyListedClassLoads() throws IOException, ReflectiveOperationException {
        List<String> listed;
        try (InputStream in = WarmUp.class.getResourceAsStream(WarmUp.CLASS_LIST)) {
            assertNotNull(in, "the class list is packaged beside WarmUp");
            listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
        assertTrue(listed.size() > 100, "the list has the endpoint's classes: " + listed.size());
        assertTrue(listed.contains("dev.sbemu.amqp.internal.HttpFront"), "the HTTP side is listed");

        WarmUp warmUp = WarmUp.on(getClass().getClassLoader());
        assertEquals(listed.size(), warmUp.loadClasses(), "classes not found: rerun benchmarks/server/classlist.py");
        assertNotNull(Class.forName(WarmUp.PROTON_TRANSPORT_FACTORY).getMethod("create").invoke(null));
    }
}
