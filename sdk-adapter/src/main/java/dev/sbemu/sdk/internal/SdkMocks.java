package dev.sbemu.sdk.internal;

import static org.mockito.Mockito.withSettings;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.mockito.Mockito;
import org.mockito.invocation.InvocationOnMock;
import org.mockito.stubbing.Answer;

/**
 * The one place where the SDK's final client classes are instantiated: a stub-only Mockito mock
 * (inline mock maker) whose every call is forwarded to a plain implementation object that has a
 * public method with the same name and parameter types. A method the implementation lacks throws
 * {@code UnsupportedOperationException("ServiceBusSenderClient.createTransaction is not emulated")}:
 * never a silent default.
 *
 * <p>The method table is built once per (SDK type, implementation class) pair and cached.
 */
public final class SdkMocks {
    private static final Map<Class<?>, Map<Class<?>, Map<Method, Method>>> TABLES = new ConcurrentHashMap<>();

    private SdkMocks() {
    }

    /** An instance of {@code type} whose methods run {@code impl}'s methods of the same signature. */
    public static <T> T delegatingTo(Class<T> type, Object impl) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(impl, "impl");
        Map<Method, Method> table = TABLES.computeIfAbsent(type, t -> new ConcurrentHashMap<>())
                .computeIfAbsent(impl.getClass(), c -> table(type, c));
        return Mockito.mock(type, withSettings().stubOnly().defaultAnswer(new Delegating(type, impl, table)));
    }

    /**
     * An instance of {@code type} that creates its target with {@code create} on its first call and forwards every
     * call to it: a receiver that accepts its session when the test first uses it rather than when it is injected.
     * Before that first call, {@code toString()} returns {@code description} and {@code close()} closes nothing.
     */
    public static <T> T lazy(Class<T> type, Supplier<? extends T> create, String description) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(create, "create");
        return Mockito.mock(type, withSettings().stubOnly().defaultAnswer(new Lazy(create, description)));
    }

    private static Map<Method, Method> table(Class<?> type, Class<?> implClass) {
        Map<Method, Method> table = new HashMap<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic()) {
                    continue;
                }
                Method target = find(implClass, m);
                if (target != null) {
                    target.setAccessible(true);
                    table.put(m, target);
                }
            }
        }
        for (Method m : Object.class.getDeclaredMethods()) {
            if (m.getName().equals("toString") && m.getParameterCount() == 0) {
                Method target = find(implClass, m);
                target.setAccessible(true);
                table.put(m, target);
            }
        }
        return Map.copyOf(table);
    }

    private static Method find(Class<?> implClass, Method m) {
        try {
            Method target = implClass.getMethod(m.getName(), m.getParameterTypes());
            if (!m.getReturnType().isAssignableFrom(target.getReturnType())) {
                throw new IllegalStateException("Return type of " + target + " does not fit " + m);
            }
            return target;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** Creates the target on the first call (one thread creates it, others wait), then forwards to it. */
    private static final class Lazy implements Answer<Object> {
        private final Supplier<?> create;
        private final String description;
        private Object target;
        private boolean closed;

        Lazy(Supplier<?> create, String description) {
            this.create = create;
            this.description = description;
        }

        @Override
        public Object answer(InvocationOnMock invocation) throws Throwable {
            Method invoked = invocation.getMethod();
            String name = invoked.getName();
            boolean noArguments = invoked.getParameterCount() == 0;
            if (name.equals("hashCode") && noArguments) {
                return System.identityHashCode(invocation.getMock());
            }
            if (name.equals("equals") && invoked.getParameterCount() == 1) {
                return invocation.getMock() == invocation.getArgument(0);
            }
            Object to;
            synchronized (this) {
                if (target == null) {
                    if (name.equals("toString") && noArguments) {
                        return description;
                    }
                    if (name.equals("close") && noArguments) {
                        closed = true;
                        return null;
                    }
                    if (closed) {
                        throw new IllegalStateException("Cannot perform operation '" + name
                                + "' on a disposed receiver.");
                    }
                    target = create.get();
                }
                to = target;
            }
            try {
                return invoked.invoke(to, invocation.getArguments());
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** Forwards a call to the implementation, or refuses it by name. */
    private static final class Delegating implements Answer<Object> {
        private final Class<?> type;
        private final Object impl;
        private final Map<Method, Method> table;

        Delegating(Class<?> type, Object impl, Map<Method, Method> table) {
            this.type = type;
            this.impl = impl;
            this.table = table;
        }

        @Override
        public Object answer(InvocationOnMock invocation) throws Throwable {
            Method invoked = invocation.getMethod();
            Method target = table.get(invoked);
            if (target == null) {
                if (invoked.getName().equals("hashCode") && invoked.getParameterCount() == 0) {
                    return System.identityHashCode(invocation.getMock());
                }
                if (invoked.getName().equals("equals") && invoked.getParameterCount() == 1) {
                    return invocation.getMock() == invocation.getArgument(0);
                }
                throw new UnsupportedOperationException(type.getSimpleName() + "." + invoked.getName()
                        + " is not emulated");
            }
            try {
                return target.invoke(impl, invocation.getArguments());
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
