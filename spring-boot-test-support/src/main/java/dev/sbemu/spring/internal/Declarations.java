package dev.sbemu.spring.internal;

import dev.sbemu.junit.DeclaredNamespace;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.spring.SpringServiceBusEmulator;
import dev.sbemu.spring.SpringServiceBusEmulator.Reset;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * The {@link SpringServiceBusEmulator} declarations of a test class and the enclosing classes whose Spring
 * configuration it inherits (outermost first), merged as the JUnit extension merges {@code @ServiceBusEmulator}.
 */
final class Declarations {
    private static final String NAME = "@" + SpringServiceBusEmulator.class.getSimpleName();

    private final List<SpringServiceBusEmulator> annotations;
    private final List<Class<?>> declaringClasses;

    private Declarations(List<SpringServiceBusEmulator> annotations, List<Class<?>> declaringClasses) {
        this.annotations = annotations;
        this.declaringClasses = declaringClasses;
    }

    static Declarations of(Class<?> testClass) {
        List<SpringServiceBusEmulator> annotations = new ArrayList<>();
        List<Class<?>> on = new ArrayList<>();
        for (Class<?> c = testClass;
                c != null;
                c = TestContextAnnotationUtils.searchEnclosingClass(c) ? c.getEnclosingClass() : null) {
            // plain reflection (the annotation is @Inherited): Spring's merged-annotation support would warn
            // about the "status" attribute of @Queue, @Topic and @Subscription
            SpringServiceBusEmulator a = c.getAnnotation(SpringServiceBusEmulator.class);
            if (a != null) {
                annotations.add(0, a);
                on.add(0, c);
            }
        }
        return new Declarations(List.copyOf(annotations), List.copyOf(on));
    }

    boolean isEmpty() {
        return annotations.isEmpty();
    }

    /** When the namespace is renewed: the innermost non-default setting. */
    Reset reset() {
        Reset reset = Reset.BEFORE_EACH_METHOD;
        for (SpringServiceBusEmulator a : annotations) {
            reset = a.reset() != Reset.BEFORE_EACH_METHOD ? a.reset() : reset;
        }
        return reset;
    }

    /**
     * What makes two contexts' namespaces alike (Spring's context cache key): every attribute but
     * {@code reset}, which decides when the namespace is renewed, not what it is.
     */
    List<List<Object>> key() {
        List<List<Object>> key = new ArrayList<>();
        for (SpringServiceBusEmulator a : annotations) {
            key.add(List.of(
                    List.of(a.queues()),
                    List.of(a.topics()),
                    List.of(a.config()),
                    a.startAt(),
                    a.clock(),
                    a.expiryMode(),
                    a.tier(),
                    a.journalCapacity(),
                    a.tlsPort()));
        }
        return key;
    }

    /**
     * The merged declaration.
     *
     * @throws IllegalStateException naming the attribute and the value, for a declaration the service rejects
     */
    DeclaredNamespace merge() {
        List<ServiceBusEmulator> declared = new ArrayList<>();
        for (SpringServiceBusEmulator a : annotations) {
            declared.add(asJunitDeclaration(a));
        }
        try {
            return DeclaredNamespace.merge(declared, declaringClasses, NAME);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The same attributes as the JUnit annotation, which the shared merge reads (lifecycle: its default). */
    private static ServiceBusEmulator asJunitDeclaration(SpringServiceBusEmulator a) {
        Map<String, Object> values = Map.of(
                "queues",
                a.queues(),
                "topics",
                a.topics(),
                "config",
                a.config(),
                "startAt",
                a.startAt(),
                "clock",
                a.clock(),
                "expiryMode",
                a.expiryMode(),
                "tier",
                a.tier(),
                "journalCapacity",
                a.journalCapacity(),
                "tlsPort",
                a.tlsPort());
        return (ServiceBusEmulator) Proxy.newProxyInstance(
                ServiceBusEmulator.class.getClassLoader(),
                new Class<?>[] {ServiceBusEmulator.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "annotationType" -> ServiceBusEmulator.class;
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> a.toString();
                    default ->
                        values.containsKey(method.getName()) ? values.get(method.getName()) : method.getDefaultValue();
                });
    }
}
