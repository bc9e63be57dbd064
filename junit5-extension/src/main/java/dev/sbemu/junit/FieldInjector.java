package dev.sbemu.junit;

import dev.sbemu.junit.internal.EmulatedNamespace;
import dev.sbemu.junit.internal.Injection;
import dev.sbemu.junit.internal.InjectionException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** Fills fields annotated with {@link Entity}, {@link Emulated} or {@link ConnectionString}, and describes injection targets for messages. */
final class FieldInjector {

    private FieldInjector() {}

    static void injectInstance(Object instance, EmulatedNamespace scope) {
        for (Field field : annotatedFields(instance.getClass(), f -> !Modifier.isStatic(f.getModifiers()))) {
            set(field, instance, scope);
        }
    }

    static void injectStatic(Class<?> testClass, EmulatedNamespace scope) {
        for (Field field : annotatedFields(testClass, f -> Modifier.isStatic(f.getModifiers()))) {
            set(field, null, scope);
        }
    }

    /** Static fields would outlive the per-method namespace they were filled from. */
    static void rejectStatic(Class<?> testClass) {
        for (Field field : annotatedFields(testClass, f -> Modifier.isStatic(f.getModifiers()))) {
            throw new InjectionException("Cannot inject " + describe(field) + ": it is static, and @ServiceBusEmulator "
                    + "creates a namespace per test method (lifecycle = PER_METHOD); make the field an instance field, "
                    + "or declare @ServiceBusEmulator(lifecycle = Lifecycle.PER_CLASS)");
        }
    }

    /**
     * A field of a type the extension injects, neither {@code @Entity} nor {@code @Emulated}, and still null when the
     * test starts: the test would fail with a bare NullPointerException on it.
     */
    static void rejectUnmarkedNullFields(Object instance) {
        for (Class<?> c = instance.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())
                        || !Injection.isInjectable(field.getType())
                        || field.isAnnotationPresent(Entity.class)
                        || field.isAnnotationPresent(Emulated.class)
                        || field.isSynthetic()) {
                    continue;
                }
                try {
                    field.setAccessible(true);
                    if (field.get(instance) != null) {
                        continue;
                    }
                } catch (ReflectiveOperationException | RuntimeException unreadable) {
                    continue;
                }
                throw new InjectionException(describe(field) + " is null: @ServiceBusEmulator fills only fields "
                        + "marked for it; annotate it with "
                        + (Injection.isPlain(field.getType())
                                ? "@Emulated"
                                : "@Entity naming its queue or topic, e.g. @Entity(\"orders\")")
                        + " (or set it in a @BeforeEach method)");
            }
        }
    }

    private static Set<Field> annotatedFields(Class<?> type, Predicate<Field> which) {
        Set<Field> fields = new LinkedHashSet<>(AnnotationSupport.findAnnotatedFields(type, Entity.class, which));
        fields.addAll(AnnotationSupport.findAnnotatedFields(type, Emulated.class, which));
        fields.addAll(AnnotationSupport.findAnnotatedFields(type, ConnectionString.class, which));
        return fields;
    }

    private static void set(Field field, Object instance, EmulatedNamespace scope) {
        if (Modifier.isFinal(field.getModifiers())) {
            throw new InjectionException("Cannot inject " + describe(field) + ": it is final");
        }
        Object value = field.isAnnotationPresent(ConnectionString.class)
                ? Injection.connectionString(field.getType(), field.getAnnotation(Entity.class), describe(field), scope)
                : Injection.resolve(field.getType(), field.getAnnotation(Entity.class), describe(field), scope);
        try {
            field.setAccessible(true);
            field.set(instance, value);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new InjectionException("Cannot inject " + describe(field) + ": " + e, e);
        }
    }

    static String describe(Field field) {
        return "field [" + field.getType().getSimpleName() + " " + field.getName() + "] of "
                + field.getDeclaringClass().getSimpleName();
    }

    static String describe(ParameterContext parameter) {
        Executable executable = parameter.getDeclaringExecutable();
        String owner = executable instanceof Constructor<?>
                ? "the constructor of " + executable.getDeclaringClass().getSimpleName()
                : executable.getDeclaringClass().getSimpleName() + "." + executable.getName() + "(...)";
        return "parameter [" + parameter.getParameter().getType().getSimpleName() + " "
                + parameter.getParameter().getName() + "] of " + owner;
    }
}
