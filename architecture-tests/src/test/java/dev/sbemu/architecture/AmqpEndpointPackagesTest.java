package dev.sbemu.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The packages inside {@code amqp-endpoint} (docs/architecture.md, "amqp-endpoint"), checked on its compiled classes:
 * {@code transport} at the bottom, {@code link} beneath the nodes, the JMS dialect and HTTP, no cycle between the
 * internal packages, and the assembly ({@code dev.sbemu.amqp.internal.Endpoint} and its options) on top of them all.
 */
class AmqpEndpointPackagesTest {
    private static final String INTERNAL = "dev.sbemu.amqp.internal";

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        Path root =
                Path.of(System.getProperty("sbemu.root", "..")).toAbsolutePath().normalize();
        Path location = root.resolve("amqp-endpoint/target/classes");
        assertTrue(Files.isDirectory(location), () -> location + " is missing: build the whole reactor");
        classes = new ClassFileImporter().importPath(location);
    }

    @Test
    @DisplayName("transport depends on none of security, link, node, jms, http, nor on the assembly")
    void transportIsAtTheBottom() {
        noClasses()
                .that()
                .resideInAPackage(INTERNAL + ".transport..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        INTERNAL,
                        INTERNAL + ".security..",
                        INTERNAL + ".link..",
                        INTERNAL + ".node..",
                        INTERNAL + ".jms..",
                        INTERNAL + ".http..")
                .because("the network loop and connections only pump bytes and dispatch events; SASL, routing and the "
                        + "HTTP hand-over plug in through transport's interfaces")
                .check(classes);
    }

    @Test
    @DisplayName("link depends on none of jms, node, http, nor on the assembly")
    void linkKnowsNoNodeJmsOrHttp() {
        noClasses()
                .that()
                .resideInAPackage(INTERNAL + ".link..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(INTERNAL, INTERNAL + ".jms..", INTERNAL + ".node..", INTERNAL + ".http..")
                .because("the nodes and the JMS dialect register their attach policies into the link routing's table; "
                        + "the wiring is in Endpoint")
                .check(classes);
    }

    @Test
    @DisplayName("no package below the assembly depends on it")
    void assemblyIsOnTop() {
        noClasses()
                .that()
                .resideInAPackage(INTERNAL + ".*..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(INTERNAL)
                .because("Endpoint builds every owner and hands each to the classes that use it")
                .check(classes);
    }

    @Test
    @DisplayName("the internal packages are free of cycles")
    void noCycles() {
        slices().matching(INTERNAL + ".(*)..").should().beFreeOfCycles().check(classes);
    }
}
