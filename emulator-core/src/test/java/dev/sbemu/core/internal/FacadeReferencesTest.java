package dev.sbemu.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The {@link Broker} is the messaging façade on top of {@code dev.sbemu.core.internal}: the parts
 * below it (registry, entities, stores, intakes, session tables, transactions, the façade's helpers)
 * receive {@link Services} and the {@link EntityRegistry}, never the façade (issue #15). This fails
 * when a class of the package (or of a sub-package) other than the façade refers to it: in a field, constructor, method
 * signature, or anywhere in its compiled code (its constant pool names the class).
 */
class FacadeReferencesTest {
    /** The façade: classes allowed to refer to it (itself and its nested classes). */
    private static final String FACADE = Broker.class.getName();

    private static final String PACKAGE = Broker.class.getPackageName();
    /** The façade's name in a signature, not a longer name that starts with it ({@code BrokerTransaction}). */
    private static final Pattern FACADE_IN_SIGNATURE = Pattern.compile(Pattern.quote(FACADE) + "\\b");

    @Test
    @DisplayName(
            "no class in core/internal but the Broker façade declares a field, constructor or method with a Broker")
    void noSignatureNamesTheFacade() throws Exception {
        List<String> offences = new ArrayList<>();
        for (Class<?> type : packageClasses().keySet()) {
            for (Field field : type.getDeclaredFields()) {
                check(
                        offences,
                        type,
                        "field " + field.getName(),
                        field.getGenericType().getTypeName());
            }
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                check(offences, type, "constructor", constructor.toGenericString());
            }
            for (Method method : type.getDeclaredMethods()) {
                check(offences, type, "method " + method.getName(), method.toGenericString());
            }
        }
        assertEquals(List.of(), offences);
    }

    @Test
    @DisplayName("no compiled class in core/internal but the Broker façade refers to Broker")
    void noBytecodeRefersToTheFacade() throws Exception {
        byte[] facade = FACADE.replace('.', '/').getBytes(StandardCharsets.UTF_8);
        List<String> offences = new ArrayList<>();
        for (Map.Entry<Class<?>, byte[]> e : packageClasses().entrySet()) {
            if (refersTo(e.getValue(), facade)) {
                offences.add(e.getKey().getName());
            }
        }
        assertEquals(List.of(), offences);
    }

    @Test
    @DisplayName("the scan sees the package's classes, the façade among them, and would catch a Broker field")
    void theScanSeesThePackage() throws Exception {
        Map<Class<?>, byte[]> classes = allPackageClasses();
        assertTrue(classes.containsKey(Broker.class), "Broker is scanned");
        assertTrue(classes.containsKey(EntityRegistry.class), "EntityRegistry is scanned");
        assertTrue(classes.containsKey(MessageSource.class), "MessageSource is scanned");
        assertTrue(
                classes.keySet().stream().anyMatch(type -> type.getPackageName().equals(PACKAGE + ".config")),
                "the config sub-package is scanned");
        List<String> offences = new ArrayList<>();
        check(
                offences,
                Probe.class,
                "field broker",
                Probe.class.getDeclaredFields()[0].getGenericType().getTypeName());
        assertEquals(List.of(Probe.class.getName() + ": field broker"), offences);
        assertTrue(refersTo(classBytes(Probe.class), FACADE.replace('.', '/').getBytes(StandardCharsets.UTF_8)));
    }

    /** A class of the package (in the tests) that holds the façade, as the scan must refuse. */
    private static final class Probe {
        @SuppressWarnings("unused")
        private Broker broker;
    }

    private static void check(List<String> offences, Class<?> type, String member, String signature) {
        if (FACADE_IN_SIGNATURE.matcher(signature).find()) {
            offences.add(type.getName() + ": " + member);
        }
    }

    /** Whether {@code classFile} names the façade: its internal name, not followed by more of a longer name. */
    private static boolean refersTo(byte[] classFile, byte[] facade) {
        outer:
        for (int i = 0; i + facade.length <= classFile.length; i++) {
            for (int j = 0; j < facade.length; j++) {
                if (classFile[i + j] != facade[j]) {
                    continue outer;
                }
            }
            int next = i + facade.length < classFile.length ? classFile[i + facade.length] : -1;
            if (next == -1 || !Character.isJavaIdentifierPart(next)) {
                return true; // "Broker;" in a descriptor, "Broker" ending a constant, "Broker$..." a nested class
            }
        }
        return false;
    }

    /** The package's main classes other than the façade and its nested classes, with their class files. */
    private static Map<Class<?>, byte[]> packageClasses() throws Exception {
        Map<Class<?>, byte[]> classes = allPackageClasses();
        classes.keySet()
                .removeIf(
                        type -> type.getName().equals(FACADE) || type.getName().startsWith(FACADE + "$"));
        return classes;
    }

    /** Every class of the package and its sub-packages in the main classes (where {@code Broker.class} was loaded from). */
    private static Map<Class<?>, byte[]> allPackageClasses()
            throws IOException, URISyntaxException, ClassNotFoundException {
        URI facadeFile = Broker.class
                .getResource(Broker.class.getSimpleName() + ".class")
                .toURI();
        Map<Class<?>, byte[]> classes = new LinkedHashMap<>();
        if ("jar".equals(facadeFile.getScheme())) {
            try (FileSystem jar = FileSystems.newFileSystem(facadeFile, Map.of())) {
                read(jar.provider().getPath(facadeFile).getParent(), classes);
            }
        } else {
            read(Path.of(facadeFile).getParent(), classes);
        }
        return classes;
    }

    /** The classes under {@code directory}, the package's and its sub-packages' ({@code internal.config}). */
    private static void read(Path directory, Map<Class<?>, byte[]> classes) throws IOException, ClassNotFoundException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(p -> p.getFileName().toString().endsWith(".class"))
                    .sorted()
                    .toList();
        }
        for (Path file : files) {
            if (file.getFileName().toString().equals("package-info.class")) {
                continue;
            }
            String relative = directory
                    .relativize(file)
                    .toString()
                    .replace(file.getFileSystem().getSeparator(), ".");
            String name = PACKAGE + "." + relative.replaceFirst("\\.class$", "");
            Class<?> type = Class.forName(name, false, Broker.class.getClassLoader());
            classes.put(type, Files.readAllBytes(file));
        }
    }

    private static byte[] classBytes(Class<?> type) throws IOException {
        String name = type.getName().substring(PACKAGE.length() + 1) + ".class";
        try (var in = type.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }
}
