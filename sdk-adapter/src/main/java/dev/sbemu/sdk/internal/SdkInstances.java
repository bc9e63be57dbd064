package dev.sbemu.sdk.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The one place where the SDK's final client classes are instantiated: an instance of the SDK class whose every call
 * is forwarded to a plain implementation object that has a public method with the same name and parameter types. A
 * method the implementation lacks throws
 * {@code UnsupportedOperationException("ServiceBusSenderClient.createTransaction is not emulated")}: never a silent
 * default.
 *
 * <p>How the instance is made: {@link SdkDispatch} weaves an advice into the SDK class that hands calls on our
 * instances to their {@link Dispatch} (through the instrumentation of the test JVM's agent), or, where that way is
 * closed, {@link MockitoInstances} makes a stub-only Mockito mock whose handler does the same. Either way the
 * implementation is reached through the method table below, built once per (SDK type, implementation class) pair:
 * by name and descriptor, each with a method handle made on the method's first call.
 */
public final class SdkInstances {
    private static final Map<Class<?>, Map<Class<?>, Map<String, Slot>>> TABLES = new ConcurrentHashMap<>();
    private static final Map<Class<?>, Map<String, Method>> SDK_METHODS = new ConcurrentHashMap<>();
    private static final String HASH_CODE = "hashCode()I";
    private static final String EQUALS = "equals(Ljava/lang/Object;)Z";
    private static final String TO_STRING = "toString()Ljava/lang/String;";

    private SdkInstances() {}

    /** An instance of {@code type} whose methods run {@code impl}'s methods of the same signature. */
    public static <T> T delegatingTo(Class<T> type, Object impl) {
        return delegatingTo(type, impl, true);
    }

    /** As {@link #delegatingTo(Class, Object)}; with {@code woven} false, always by Mockito's mock maker. */
    static <T> T delegatingTo(Class<T> type, Object impl, boolean woven) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(impl, "impl");
        Map<String, Slot> table = TABLES.computeIfAbsent(type, t -> new ConcurrentHashMap<>())
                .computeIfAbsent(impl.getClass(), c -> table(type, c));
        return newInstance(type, new Delegating(type, impl, table), woven);
    }

    /**
     * An instance of {@code type} that creates its target with {@code create} on its first call and forwards every
     * call to it: a receiver that accepts its session when the test first uses it rather than when it is injected.
     * Before that first call, {@code close()} closes nothing (and {@code toString()}, {@code Object}'s, creates
     * nothing).
     */
    public static <T> T lazy(Class<T> type, Supplier<? extends T> create) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(create, "create");
        return newInstance(type, new Lazy(type, create), true);
    }

    private static <T> T newInstance(Class<T> type, Dispatch dispatch, boolean woven) {
        T instance = woven ? SdkDispatch.newInstance(type, dispatch) : null;
        return instance != null ? instance : MockitoInstances.newInstance(type, dispatch);
    }

    /** A method's name and descriptor, as the woven prologue names it: {@code sendMessage(L...ServiceBusMessage;)V}. */
    static String signature(Method method) {
        return method.getName()
                + MethodType.methodType(method.getReturnType(), method.getParameterTypes())
                        .toMethodDescriptorString();
    }

    /** What a call on one of our instances does: the SDK method (name and descriptor) and its arguments as passed. */
    interface Dispatch {
        Object call(Object self, String signature, Object[] arguments) throws Throwable;
    }

    /**
     * {@code Object}'s identity for {@code hashCode()} and {@code equals(Object)}, which Mockito's advice intercepts
     * (the woven advice does not: {@code Object}'s own run), or null for any other method.
     */
    private static Object identity(Object self, String signature, Object[] arguments) {
        if (signature.equals(HASH_CODE)) {
            return System.identityHashCode(self);
        }
        return signature.equals(EQUALS) ? (Object) (self == arguments[0]) : null;
    }

    /**
     * One implementation method: a handle taking the implementation and the arguments as one array, made on the
     * method's first call (each handle spins classes; most of a client's methods are never called).
     */
    private static final class Slot {
        private final Method target;
        private volatile MethodHandle handle;

        Slot(Method target) {
            this.target = target;
        }

        Object invoke(Object impl, Object[] arguments) throws Throwable {
            MethodHandle h = handle;
            if (h == null) {
                // a race makes two equal handles; either will do
                h = MethodHandles.lookup()
                        .unreflect(target)
                        .asType(MethodType.genericMethodType(target.getParameterCount() + 1))
                        .asSpreader(Object[].class, target.getParameterCount());
                handle = h;
            }
            return h.invokeExact(impl, arguments);
        }
    }

    /** A (SDK type, implementation class) pair's methods, by name and descriptor. */
    private static Map<String, Slot> table(Class<?> type, Class<?> implClass) {
        Map<String, Slot> table = new HashMap<>();
        sdkMethods(type).forEach((signature, m) -> {
            Method target = find(implClass, m);
            if (target != null) {
                target.setAccessible(true);
                table.put(signature, new Slot(target));
            }
        });
        return Map.copyOf(table);
    }

    /**
     * The instance methods of {@code type} and its superclasses, by signature, with {@code Object}'s
     * {@code toString()} (which an implementation may answer for the Mockito path, where it is intercepted).
     */
    private static Map<String, Method> sdkMethods(Class<?> type) {
        return SDK_METHODS.computeIfAbsent(type, t -> {
            Map<String, Method> methods = new HashMap<>();
            for (Class<?> c = t; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Method m : c.getDeclaredMethods()) {
                    if (!Modifier.isStatic(m.getModifiers()) && !m.isSynthetic()) {
                        methods.putIfAbsent(signature(m), m);
                    }
                }
            }
            try {
                methods.putIfAbsent(TO_STRING, Object.class.getMethod("toString"));
            } catch (NoSuchMethodException e) {
                throw new AssertionError(e);
            }
            return Map.copyOf(methods);
        });
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
    private static final class Lazy implements Dispatch {
        private final Class<?> type;
        private final Supplier<?> create;
        private Object target;
        private boolean closed;

        Lazy(Class<?> type, Supplier<?> create) {
            this.type = type;
            this.create = create;
        }

        @Override
        public Object call(Object self, String signature, Object[] arguments) throws Throwable {
            Object identity = identity(self, signature, arguments);
            if (identity != null) {
                return identity;
            }
            boolean close = signature.equals("close()V");
            Object to;
            synchronized (this) {
                if (target == null) {
                    if (signature.equals(TO_STRING)) { // Mockito's path: Object's answer, without creating
                        return type.getName() + "@" + Integer.toHexString(System.identityHashCode(self));
                    }
                    if (close) {
                        closed = true;
                        return null;
                    }
                    if (closed) {
                        throw new IllegalStateException(
                                "Cannot perform operation '" + name(signature) + "' on a disposed receiver.");
                    }
                    target = create.get();
                }
                to = target;
            }
            Method method = sdkMethods(type).get(signature);
            if (method == null) {
                throw new UnsupportedOperationException(
                        type.getSimpleName() + "." + name(signature) + " is not emulated");
            }
            try {
                return method.invoke(to, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    private static String name(String signature) {
        return signature.substring(0, signature.indexOf('('));
    }

    /** Forwards a call to the implementation, or refuses it by name. */
    private static final class Delegating implements Dispatch {
        private final Class<?> type;
        private final Object impl;
        private final Map<String, Slot> table;

        Delegating(Class<?> type, Object impl, Map<String, Slot> table) {
            this.type = type;
            this.impl = impl;
            this.table = table;
        }

        @Override
        public Object call(Object self, String signature, Object[] arguments) throws Throwable {
            Slot target = table.get(signature);
            if (target != null) {
                return target.invoke(impl, arguments);
            }
            Object identity = identity(self, signature, arguments);
            if (identity != null) {
                return identity;
            }
            throw new UnsupportedOperationException(type.getSimpleName() + "." + name(signature) + " is not emulated");
        }
    }
}
