package dev.sbemu.sdk.internal;

import static org.mockito.Mockito.withSettings;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.jar.Manifest;
import org.mockito.Mockito;
import org.mockito.invocation.Invocation;
import org.mockito.invocation.InvocationContainer;
import org.mockito.invocation.MockHandler;
import org.mockito.mock.MockCreationSettings;
import org.mockito.plugins.MockMaker;

/**
 * The one place where the SDK's final client classes are instantiated: a stub-only Mockito mock
 * (inline mock maker) whose every call is forwarded to a plain implementation object that has a
 * public method with the same name and parameter types. A method the implementation lacks throws
 * {@code UnsupportedOperationException("ServiceBusSenderClient.createTransaction is not emulated")}:
 * never a silent default.
 *
 * <p>The method table (by {@link Method} for Mockito's path, by name and descriptor with a method handle for the fast
 * path) is built once per (SDK type, implementation class) pair and cached.
 *
 * <p>The instance is created by the mock maker Mockito itself uses ({@code MockitoPlugins#getMockMaker(null)}, the
 * documented way for other libraries to share it, Mockito 5.6+), with a {@link MockHandler} of our own that forwards
 * a call straight to the implementation: none of Mockito's stubbing, matcher, verification or listener machinery.
 *
 * <p>Calls do not even reach that handler, as a rule: {@link SdkDispatch} weaves an advice of its own into each SDK
 * class created here, in front of Mockito's inline advice (through the {@code Instrumentation} Mockito already holds,
 * in the retransformation Mockito makes for the class anyway, or in one more if Mockito had instrumented the class
 * before sbemu first created it). For one of our forwarding instances it
 * calls the implementation through a method handle of the table below and skips the original method and Mockito's
 * advice with it, which costs about 2.5 µs per call whatever the handler (a stack walk for the call's location, a
 * method-graph lookup, a reflective method lookup; benchmarks/RESULTS.md, issue #17): about 20 ns instead. Any other
 * instance of the class, such as a user's own {@code mock(ServiceBusSenderClient.class)}, a {@link #lazy} instance,
 * a method not emulated, or {@code hashCode}/{@code equals}, goes on into Mockito's advice and the handler as before.
 * Where the instrumentation cannot be reached (another mock maker) or weaving fails, that is the path for every
 * call: correct, only slower.
 */
public final class SdkMocks {
    /** What {@link #dispatchFast} returns for a call it does not take. */
    static final Object NOT_TAKEN = new Object();
    private static final Map<Class<?>, Map<Class<?>, Table>> TABLES = new ConcurrentHashMap<>();
    private static final Map<Class<?>, MockCreationSettings<?>> SETTINGS = new ConcurrentHashMap<>();
    private static volatile MockMaker mockMaker;

    private SdkMocks() {
    }

    /** An instance of {@code type} whose methods run {@code impl}'s methods of the same signature. */
    public static <T> T delegatingTo(Class<T> type, Object impl) {
        return delegatingTo(type, impl, true);
    }

    /** As {@link #delegatingTo(Class, Object)}; with {@code fast} false, every call takes Mockito's path. */
    static <T> T delegatingTo(Class<T> type, Object impl, boolean fast) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(impl, "impl");
        Table table = TABLES.computeIfAbsent(type, t -> new ConcurrentHashMap<>())
                .computeIfAbsent(impl.getClass(), c -> table(type, c));
        return mock(type, new Delegating(type, impl, table, fast));
    }

    /**
     * The fast path's entry ({@link SdkDispatch}'s advice, woven into the SDK class): the implementation's result
     * when {@code self} is one of our forwarding instances and {@code method} (name and descriptor) is emulated,
     * otherwise {@link #NOT_TAKEN} and the call takes Mockito's path (a user's mock, a lazy instance, a method we do
     * not emulate, {@code hashCode}).
     */
    static Object dispatchFast(Object self, String method, Object[] arguments) throws Throwable {
        MockHandler<?> handler = mockMaker().getHandler(self);
        if (handler instanceof Handler && ((Handler<?>) handler).dispatch instanceof Delegating) {
            return ((Delegating) ((Handler<?>) handler).dispatch).fast(method, arguments);
        }
        return NOT_TAKEN;
    }

    /**
     * An instance of {@code type} that creates its target with {@code create} on its first call and forwards every
     * call to it: a receiver that accepts its session when the test first uses it rather than when it is injected.
     * Before that first call, {@code toString()} returns {@code description} and {@code close()} closes nothing.
     */
    public static <T> T lazy(Class<T> type, Supplier<? extends T> create, String description) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(create, "create");
        return mock(type, new Lazy(create, description));
    }

    /**
     * A stub-only mock of a final SDK class whose calls {@code dispatch} answers. When Mockito's inline mock maker
     * cannot work (a Mockito older than 5, a subclass-only mock maker configured, a JVM that refuses to attach
     * Mockito's agent), the failure names the cause and the fix instead of Mockito's own initialization error.
     */
    private static <T> T mock(Class<T> type, Dispatch dispatch) {
        try {
            @SuppressWarnings("unchecked")
            MockCreationSettings<T> settings = (MockCreationSettings<T>) SETTINGS.computeIfAbsent(type,
                    t -> withSettings().stubOnly().build(t));
            SdkDispatch.install(type); // before Mockito's first retransformation of the type, to share it
            T mock = mockMaker().createMock(settings, new Handler<>(settings, dispatch));
            SdkDispatch.install(type);
            return mock;
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalStateException(cannotMock(type, e, mockitoVersion()), e);
        }
    }

    /** The mock maker Mockito uses (the inline one unless the project configured another). */
    static MockMaker mockMaker() {
        MockMaker maker = mockMaker;
        if (maker == null) {
            maker = Mockito.framework().getPlugins().getMockMaker(null);
            mockMaker = maker;
        }
        return maker;
    }

    /** The message for a mock maker that failed: what sbemu needs, what went wrong, the one-line fix. */
    static String cannotMock(Class<?> type, Throwable failure, String mockitoVersion) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String cause = root.getClass().getSimpleName() + (root.getMessage() == null ? ""
                : ": " + root.getMessage().strip().lines().findFirst().orElse(""));
        String message = "sbemu cannot create the Azure SDK's " + type.getSimpleName() + ": the SDK's client classes "
                + "are final, and sbemu creates them with Mockito's inline mock maker, which did not work here ("
                + cause + "). ";
        int major = majorVersion(mockitoVersion);
        if (major > 0 && major < 5) {
            return message + "The test class path has mockito-core " + mockitoVersion + "; sbemu needs 5.x. Fix: "
                    + "declare org.mockito:mockito-core 5.x among your test dependencies (see the README's supported "
                    + "versions).";
        }
        return message + "Fix: load Mockito's agent when the test JVM starts, as the README shows: "
                + "<argLine>-javaagent:${net.bytebuddy:byte-buddy-agent:jar} -Xshare:off</argLine> in "
                + "maven-surefire-plugin, with maven-dependency-plugin's 'properties' goal; and no "
                + "mock-maker-subclass in src/test/resources/mockito-extensions.";
    }

    /** The Bundle-Version of the mockito-core jar on the class path, or "unknown". */
    static String mockitoVersion() {
        try {
            URL self = Mockito.class.getResource("Mockito.class");
            String url = self == null ? "" : self.toString();
            int jar = url.indexOf("!/");
            if (!url.startsWith("jar:") || jar < 0) {
                return "unknown";
            }
            try (InputStream in = URI.create(url.substring(0, jar + 2) + "META-INF/MANIFEST.MF")
                    .toURL().openStream()) {
                String version = new Manifest(in).getMainAttributes().getValue("Bundle-Version");
                return version == null ? "unknown" : version;
            }
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static int majorVersion(String version) {
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * A (SDK type, implementation class) pair's methods: by the SDK's {@link Method} (Mockito's path) and by name and
     * descriptor (the fast path).
     */
    private static final class Table {
        final Map<Method, Method> byMethod;
        final Map<String, Slot> bySignature;

        Table(Map<Method, Method> byMethod) {
            this.byMethod = byMethod;
            Map<String, Slot> bySignature = new HashMap<>();
            byMethod.forEach((m, target) -> bySignature.put(m.getName()
                    + MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString(),
                    new Slot(target)));
            this.bySignature = Map.copyOf(bySignature);
        }
    }

    /**
     * One implementation method for the fast path: a handle taking the implementation and the arguments as one array,
     * made on the method's first call (each handle spins classes; most of a client's methods are never called).
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
                h = MethodHandles.lookup().unreflect(target)
                        .asType(MethodType.genericMethodType(target.getParameterCount() + 1))
                        .asSpreader(Object[].class, target.getParameterCount());
                handle = h;
            }
            return h.invokeExact(impl, arguments);
        }
    }

    private static Table table(Class<?> type, Class<?> implClass) {
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
        return new Table(Map.copyOf(table));
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
        private final Supplier<?> create;
        private final String description;
        private Object target;
        private boolean closed;

        Lazy(Supplier<?> create, String description) {
            this.create = create;
            this.description = description;
        }

        @Override
        public Object call(Object mock, Method invoked, Object[] arguments) throws Throwable {
            String name = invoked.getName();
            boolean noArguments = invoked.getParameterCount() == 0;
            if (name.equals("hashCode") && noArguments) {
                return System.identityHashCode(mock);
            }
            if (name.equals("equals") && invoked.getParameterCount() == 1) {
                return mock == arguments[0];
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
                return invoked.invoke(to, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** Forwards a call to the implementation, or refuses it by name. */
    private static final class Delegating implements Dispatch {
        private final Class<?> type;
        private final Object impl;
        private final Table table;
        private final boolean fast;

        Delegating(Class<?> type, Object impl, Table table, boolean fast) {
            this.type = type;
            this.impl = impl;
            this.table = table;
            this.fast = fast;
        }

        /** The fast path: the result, or {@link #NOT_TAKEN} for Mockito's path. */
        Object fast(String method, Object[] arguments) throws Throwable {
            Slot target = fast ? table.bySignature.get(method) : null;
            return target == null ? NOT_TAKEN : target.invoke(impl, arguments);
        }

        @Override
        public Object call(Object mock, Method invoked, Object[] arguments) throws Throwable {
            Method target = table.byMethod.get(invoked);
            if (target == null) {
                if (invoked.getName().equals("hashCode") && invoked.getParameterCount() == 0) {
                    return System.identityHashCode(mock);
                }
                if (invoked.getName().equals("equals") && invoked.getParameterCount() == 1) {
                    return mock == arguments[0];
                }
                throw new UnsupportedOperationException(type.getSimpleName() + "." + invoked.getName()
                        + " is not emulated");
            }
            try {
                return target.invoke(impl, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** What a call on one of our instances does: the SDK method called, with its arguments as the caller passed them. */
    private interface Dispatch {
        Object call(Object mock, Method invoked, Object[] arguments) throws Throwable;
    }

    /**
     * The mock maker's handler for our instances: every call goes to the {@link Dispatch}, with the arguments as
     * passed (varargs not expanded), so no stubbing, matchers, verification or listeners of Mockito run. The
     * settings say {@code stubOnly}, so {@code Mockito.verify} on one of our instances fails with Mockito's message.
     */
    private static final class Handler<T> implements MockHandler<T> {
        private static final long serialVersionUID = 1L;
        private final transient MockCreationSettings<T> settings;
        final transient Dispatch dispatch;

        Handler(MockCreationSettings<T> settings, Dispatch dispatch) {
            this.settings = settings;
            this.dispatch = dispatch;
        }

        @Override
        public Object handle(Invocation invocation) throws Throwable {
            return dispatch.call(invocation.getMock(), invocation.getMethod(), invocation.getRawArguments());
        }

        @Override
        public MockCreationSettings<T> getMockSettings() {
            return settings;
        }

        @Override
        public InvocationContainer getInvocationContainer() {
            throw new UnsupportedOperationException("sbemu's " + settings.getTypeToMock().getSimpleName()
                    + " is not a Mockito mock: it records no invocations and cannot be stubbed or verified");
        }
    }
}
