package dev.sbemu.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The start-up warm-up's class list still names classes that exist (a stale list would quietly warm nothing). */
class WarmUpTest {
    /** The JDK's namespaces, whose packages may be gone from a later JDK altogether. */
    private static final Pattern JDK_PREFIXES = Pattern.compile("(java|javax|jdk|sun|com\\.sun)\\.");

    @Test
    @DisplayName("every class of the warm-up list is found, and the proton-j transport factory exists")
    void everyListedClassLoads() throws IOException, ReflectiveOperationException {
        List<String> listed;
        try (InputStream in = WarmUp.class.getResourceAsStream(WarmUp.CLASS_LIST)) {
            assertNotNull(in, "the class list is packaged beside WarmUp");
            listed = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .toList();
        }
        assertTrue(listed.size() > 100, "the list has the endpoint's classes: " + listed.size());
        assertTrue(listed.contains("dev.sbemu.amqp.internal.http.HttpFront"), "the HTTP side is listed");

        // the JDK's own classes differ from one JDK to the next (the list is written on 17): only the project's and
        // its libraries' classes must all be there
        Set<String> jdkPackages = ModuleLayer.boot().modules().stream()
                .flatMap(m -> m.getPackages().stream())
                .collect(Collectors.toSet());
        ClassLoader loader = getClass().getClassLoader();
        List<String> missing =
                listed.stream().filter(name -> !loads(name, loader)).toList();
        List<String> missingOutsideTheJdk = missing.stream()
                .filter(name -> !jdkPackages.contains(name.substring(0, name.lastIndexOf('.'))))
                .filter(name -> !JDK_PREFIXES.matcher(name).lookingAt())
                .toList();
        assertEquals(List.of(), missingOutsideTheJdk, "classes not found: rerun benchmarks/server/classlist.py");

        WarmUp warmUp = WarmUp.on(loader);
        assertEquals(listed.size() - missing.size(), warmUp.loadClasses(), "the warm-up loads every class found");
        assertNotNull(Class.forName(WarmUp.PROTON_TRANSPORT_FACTORY)
                .getMethod("create")
                .invoke(null));
    }

    private static boolean loads(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
