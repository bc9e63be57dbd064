package dev.sbemu.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The project's layering, checked on the compiled classes of every module (read from the modules' {@code target}
 * directories, which the reactor builds before this module).
 *
 * <p>Modules and their root packages, lowest first: {@code emulator-core} ({@code dev.sbemu.core}), {@code wire}
 * ({@code dev.sbemu.wire}: the AMQP codec and the management REST API), beside each other on it {@code sdk-adapter}
 * ({@code dev.sbemu.sdk}) and {@code amqp-endpoint} ({@code dev.sbemu.amqp}), then {@code junit5-extension}
 * ({@code dev.sbemu.junit}), {@code spring-boot-test-support} ({@code dev.sbemu.spring}); the examples ({@code
 * dev.sbemu.examples}, and the Spring application {@code com.example}) sit on top. The standalone server ({@code
 * server}, {@code dev.sbemu.server}) sits on the endpoint and must not carry the adapter; its rules hold, and pass
 * trivially, while that module is not there.
 * {@code benchmarks} is not checked: it is not published, and some of its benchmarks time internals on purpose.
 * {@code test-kit} (fixtures the modules' tests share, not published either) is not checked beyond this: no checked
 * class may use it.
 */
class ArchitectureTest {
    /** Root package of each published module, lowest layer first. */
    private static final List<String> MODULE_PACKAGES = List.of(
            "dev.sbemu.core",
            "dev.sbemu.wire",
            "dev.sbemu.sdk",
            "dev.sbemu.amqp",
            "dev.sbemu.junit",
            "dev.sbemu.spring",
            "dev.sbemu.server");
    /** What the in-process adapter needs and a process that faces clients of any language must not carry. */
    private static final String[] TEST_TOOLING = {
        "dev.sbemu.sdk..",
        "org.mockito..",
        "net.bytebuddy..",
        "org.objenesis..",
        "org.junit..",
        "org.opentest4j..",
        "org.awaitility.."
    };

    private static final String[] EXAMPLE_PACKAGES = {"dev.sbemu.examples..", "com.example.."};

    private static Path root;
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        root = Path.of(System.getProperty("sbemu.root", "..")).toAbsolutePath().normalize();
        List<Path> locations = new ArrayList<>();
        for (String module : List.of(
                "emulator-core",
                "wire",
                "sdk-adapter",
                "amqp-endpoint",
                "junit5-extension",
                "spring-boot-test-support",
                "examples-spring",
                "examples-spring-jms")) {
            locations.add(existing(root.resolve(module).resolve("target/classes")));
        }
        // the standalone server's module, when there is one
        Path server = root.resolve("server/target/classes");
        if (Files.isDirectory(server)) {
            locations.add(server);
        }
        locations.add(existing(root.resolve("examples/target/test-classes")));
        locations.add(existing(root.resolve("examples-spring/target/test-classes")));
        locations.add(existing(root.resolve("examples-spring-jms/target/test-classes")));
        classes = new ClassFileImporter().importPaths(locations);
    }

    private static Path existing(Path location) {
        assertTrue(Files.isDirectory(location), () -> location + " is missing: build the whole reactor");
        return location;
    }

    @Test
    @DisplayName("emulator-core depends on the JDK only")
    void coreDependsOnTheJdkOnly() {
        classes()
                .that()
                .resideInAPackage("dev.sbemu.core..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.sbemu.core..", "")
                .because("emulator-core must add nothing to a user's class path")
                .check(classes);
    }

    @Test
    @DisplayName("modules depend only on the modules below them")
    void modulesAreLayered() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("core")
                .definedBy("dev.sbemu.core..")
                .layer("wire")
                .definedBy("dev.sbemu.wire..")
                .layer("adapter")
                .definedBy("dev.sbemu.sdk..")
                .layer("endpoint")
                .definedBy("dev.sbemu.amqp..")
                .optionalLayer("server")
                .definedBy("dev.sbemu.server..")
                .layer("extension")
                .definedBy("dev.sbemu.junit..")
                .layer("spring")
                .definedBy("dev.sbemu.spring..")
                .layer("examples")
                .definedBy(EXAMPLE_PACKAGES)
                .whereLayer("examples")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("server")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("spring")
                .mayOnlyBeAccessedByLayers("examples")
                .whereLayer("extension")
                .mayOnlyBeAccessedByLayers("spring", "examples")
                .whereLayer("endpoint")
                .mayOnlyBeAccessedByLayers("server", "extension", "spring", "examples")
                .whereLayer("adapter")
                .mayOnlyBeAccessedByLayers("extension", "spring", "examples")
                .whereLayer("wire")
                .mayOnlyBeAccessedByLayers("adapter", "endpoint", "server", "extension", "spring", "examples")
                .check(classes);
    }

    @Test
    @DisplayName("the wire module, the AMQP endpoint and the server carry neither sdk-adapter nor test tooling")
    void endpointStandsWithoutTheAdapter() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.sbemu.wire..", "dev.sbemu.amqp..", "dev.sbemu.server..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(TEST_TOOLING)
                .because("the standalone server runs the endpoint without sdk-adapter (Mockito, Byte Buddy, "
                        + "Objenesis): the endpoint reaches the adapter only through dev.sbemu.wire.EndpointObserver")
                .check(classes);
    }

    @Test
    @DisplayName("the server depends on the JDK, emulator-core and amqp-endpoint's public API only")
    void serverUsesCoreAndEndpointOnly() {
        classes()
                .that()
                .resideInAPackage("dev.sbemu.server..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.sbemu.core..", "dev.sbemu.amqp", "dev.sbemu.server..", "")
                .because("the server is a thin runner over the endpoint: options, start, stop (issue 24)")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    @DisplayName("no module uses another module's internal packages")
    void internalsStayInTheirModule() {
        CompositeArchRule rule = null;
        for (String module : MODULE_PACKAGES) {
            ArchRule one = noClasses()
                    .that()
                    .resideOutsideOfPackage(module + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(module + "..internal..")
                    .because("the internal packages of a module are free to change; other modules and users go "
                            + "through its public API");
            rule = rule == null ? CompositeArchRule.of(one) : rule.and(one);
        }
        rule.as("no module uses another module's internal packages").check(classes);
    }

    @Test
    @DisplayName("test-kit is for the modules' own tests: no published class and no example uses it")
    void testKitIsForTestsOnly() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.sbemu.testkit..")
                .because("test-kit is not published: a module's tests take it in test scope, and the examples show "
                        + "only what a user has")
                .check(classes);
    }

    @Test
    @DisplayName("the examples use only the public API, and the Spring example application knows nothing of sbemu")
    void examplesUseThePublicApiOnly() {
        noClasses()
                .that()
                .resideInAnyPackage(EXAMPLE_PACKAGES)
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.sbemu..internal..")
                .because("the examples are the user guide: they show only what a user may call")
                .check(classes);
        noClasses()
                .that()
                .resideInAPackage("com.example..")
                .and()
                .haveSimpleNameNotEndingWith("Test")
                .and()
                .haveSimpleNameNotContaining("Test$")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.sbemu..")
                .because("the Spring example's application code is unmodified production code")
                .check(classes);
    }

    @Test
    @DisplayName("every internal package says in its package-info that it is internal API")
    void internalPackagesAreMarked() throws IOException {
        List<String> unmarked = new ArrayList<>();
        for (Path sources : sourceRoots()) {
            try (Stream<Path> dirs = Files.walk(sources)) {
                for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                    String pkg = sources.relativize(dir).toString().replace('/', '.');
                    if (!pkg.matches("(.*\\.)?internal(\\..*)?")) {
                        continue;
                    }
                    Path info = dir.resolve("package-info.java");
                    if (!Files.exists(info) || !Files.readString(info).contains("Internal API")) {
                        unmarked.add(pkg);
                    }
                }
            }
        }
        assertEquals(List.of(), unmarked, "internal packages without a package-info.java that says \"Internal API\"");
    }

    @Test
    @DisplayName("the BOM manages every published module")
    void bomListsEveryPublishedModule() throws IOException {
        String bom = Files.readString(root.resolve("bom/pom.xml"));
        List<String> missing = new ArrayList<>();
        for (String module : modules()) {
            String pom = Files.readString(root.resolve(module).resolve("pom.xml"));
            boolean published = !pom.contains("<maven.deploy.skip>true</maven.deploy.skip>") && !module.equals("bom");
            if (published && !bom.contains("<artifactId>" + module + "</artifactId>")) {
                missing.add(module);
            }
        }
        assertEquals(List.of(), missing, "published modules that bom/pom.xml does not manage");
    }

    private static List<Path> sourceRoots() {
        List<Path> roots = new ArrayList<>();
        for (String module : modules()) {
            Path sources = root.resolve(module).resolve("src/main/java");
            if (Files.isDirectory(sources)) {
                roots.add(sources);
            }
        }
        return roots;
    }

    private static List<String> modules() {
        try {
            Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(root.resolve("pom.xml")));
            List<String> modules = new ArrayList<>();
            while (m.find()) {
                modules.add(m.group(1));
            }
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
