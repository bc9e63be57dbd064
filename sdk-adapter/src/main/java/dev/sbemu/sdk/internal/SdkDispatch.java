package dev.sbemu.sdk.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import org.mockito.plugins.InlineMockMaker;
import org.objenesis.Objenesis;
import org.objenesis.ObjenesisStd;

/**
 * How {@link SdkInstances} makes instances of the SDK's final client classes without Mockito: a prologue of our own
 * is woven into the instance methods the SDK class declares (with ASM, as Byte Buddy repackages it), and the instance
 * is allocated without running a constructor (Objenesis, which Mockito brings). On each call the prologue asks
 * {@link #call} whether {@code this} is one of our instances (a weak identity map); if so, the instance's
 * {@link SdkInstances.Dispatch} answers and the SDK's own method body does not run. Any other instance of the class
 * (one the SDK's {@code ServiceBusClientBuilder} built, a user's own {@code mock(ServiceBusSenderClient.class)}) runs
 * its own code, Mockito's advice included where Mockito instrumented the class too.
 *
 * <p>Why not Mockito's mock maker: it retransforms each class with its own, much larger advice, and {@code Object}
 * with it, and needs Mockito's plugin system, Byte Buddy's type cache and its bootstrap dispatcher set up before the
 * first instance: most of a second of a test JVM's cold start (benchmarks/RESULTS.md, issue #17). Per call, Mockito's
 * advice walks the stack and looks the method up (about 2.5 µs); this prologue costs about 20 ns. Why ASM rather
 * than Byte Buddy's {@code Advice}: the prologue is a dozen instructions, and {@code Advice} loads some 800 classes
 * of Byte Buddy's to write them (about 0.3 s of a cold start).
 *
 * <p>The {@link Instrumentation} is the one of the agent the test JVM already runs (Byte Buddy's, as the README's
 * {@code argLine} loads it, or Mockito's own), else the one Mockito's inline mock maker attached itself. If none is
 * reachable, or weaving a class fails, {@link #newInstance} answers null and {@link SdkInstances} falls back to
 * Mockito's mock maker.
 *
 * <p>The methods of {@code Object} that the SDK class does not override ({@code toString}, {@code hashCode},
 * {@code equals}) keep {@code Object}'s behaviour, as on the SDK's own clients: {@code java.lang.Object} is not
 * retransformed.
 *
 * <p>The same weaver puts a prologue into chosen static methods of SDK classes ({@link #interceptStatic}): it asks
 * {@link #callStatic} for the method's {@link StaticHook}, whose non-null answer is returned instead of running the
 * method (the administration clients' transport, {@code admin.LoopbackAdministration}, is taken that way).
 *
 * <p>Public only because the woven code, which lives in the SDK's classes, calls {@link #call}, {@link #callStatic}
 * and {@link #result}; not an API.
 */
public final class SdkDispatch {
    /** Stands for a {@code null} result (or {@code void}) of a call that was taken. */
    private static final Object NULL = new Object();

    private static final Instances INSTANCES = new Instances();
    /** The hooks of woven static methods, by "owner.name(descriptor)" (owner as an internal name). */
    private static final Map<String, StaticHook> STATIC_HOOKS = new ConcurrentHashMap<>();

    private SdkDispatch() {}

    /**
     * Called by the woven prologue on every call of a woven SDK method: the result of {@code self}'s dispatch (boxed,
     * or a marker for {@code null}) if {@code self} is one of our instances, otherwise {@code null}, and the call goes
     * on into the original method. An exception of the dispatch propagates unchanged.
     */
    public static Object call(Object self, String method, Object[] arguments) throws Throwable {
        SdkInstances.Dispatch dispatch = INSTANCES.get(self);
        if (dispatch == null) {
            return null;
        }
        Object result = dispatch.call(self, method, arguments);
        return result == null ? NULL : result;
    }

    /**
     * Called by the prologue woven into a static method ({@link #interceptStatic}): the hook's answer (boxed, or a
     * marker for {@code null}), or {@code null} when there is no hook or it declines, and the method's own code runs.
     */
    public static Object callStatic(String method, Object[] arguments) throws Throwable {
        StaticHook hook = STATIC_HOOKS.get(method);
        return hook == null ? null : hook.call(arguments);
    }

    /** What a woven static method asks before running its own code. */
    @FunctionalInterface
    public interface StaticHook {
        /** What the method returns instead of running ({@code null}: run the method's own code). */
        Object call(Object[] arguments) throws Throwable;
    }

    /**
     * Puts a prologue into the static method {@code name} with {@code descriptor} of {@code type} that asks
     * {@code hook} first: true when calls on it go through the hook (false: no instrumentation, or the class cannot
     * be woven). A method the class does not declare is left alone (still true).
     */
    public static boolean interceptStatic(Class<?> type, String name, String descriptor, StaticHook hook) {
        try {
            STATIC_HOOKS.put(staticKey(type.getName().replace('.', '/'), name, descriptor), hook);
            return Holder.WEAVER.installStatic(type, name + descriptor);
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static String staticKey(String owner, String name, String descriptor) {
        return owner + "." + name + descriptor;
    }

    /** The result a taken call returns, from what {@link #call} answered. */
    public static Object result(Object taken) {
        return taken == NULL ? null : taken;
    }

    /**
     * A new instance of {@code type} whose calls {@code dispatch} answers, or null when this way is not open for
     * {@code type} (no instrumentation, the class cannot be woven or allocated): the caller then falls back to
     * Mockito.
     */
    static <T> T newInstance(Class<T> type, SdkInstances.Dispatch dispatch) {
        T instance;
        try {
            if (!Holder.WEAVER.install(type)) {
                return null;
            }
            instance = Holder.OBJENESIS.newInstance(type);
        } catch (RuntimeException | LinkageError e) {
            // e.g. a build that excluded Objenesis or Byte Buddy's agent: Mockito's way is still open
            return null;
        }
        INSTANCES.put(instance, dispatch);
        return instance;
    }

    /** Whether calls on {@code type} go through the woven prologue. */
    static boolean installed(Class<?> type) {
        return Holder.WEAVER.isWoven(type);
    }

    /** Made on first use: nothing of Byte Buddy or Objenesis is loaded before the first instance is asked for. */
    private static final class Holder {
        static final Weaver WEAVER = new Weaver(instrumentation());
        static final Objenesis OBJENESIS = new ObjenesisStd(true);

        private Holder() {}
    }

    /**
     * The instrumentation of the agent the JVM runs: Byte Buddy's ({@code -javaagent:byte-buddy-agent.jar}, as the
     * README's {@code argLine}), Mockito's ({@code -javaagent:mockito-core.jar}, Mockito 5.14+), else the one Mockito's
     * inline mock maker attached itself (which initializes Mockito); null when none is reachable.
     */
    static Instrumentation instrumentation() {
        try {
            return ByteBuddyAgent.getInstrumentation();
        } catch (IllegalStateException | LinkageError notInstalled) {
            // next candidate
        }
        try {
            Object premain = Class.forName(
                            "org.mockito.internal.PremainAttach", true, ClassLoader.getSystemClassLoader())
                    .getMethod("getInstrumentation")
                    .invoke(null);
            if (premain instanceof Instrumentation) {
                return (Instrumentation) premain;
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError notThere) {
            // next candidate
        }
        return mockitosInstrumentation();
    }

    /** The {@link Instrumentation} Mockito's inline mock maker obtained, or null when there is none to reach. */
    static Instrumentation mockitosInstrumentation() {
        try {
            if (!(MockitoInstances.mockMaker() instanceof InlineMockMaker)) {
                return null;
            }
            // Mockito 5.x's inline mock maker keeps the instrumentation of its agent (or self-attach) in this field.
            Field field = Class.forName("org.mockito.internal.creation.bytebuddy.InlineDelegateByteBuddyMockMaker")
                    .getDeclaredField("INSTRUMENTATION");
            field.setAccessible(true);
            Object instrumentation = field.get(null);
            return instrumentation instanceof Instrumentation ? (Instrumentation) instrumentation : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Weaves the prologue into the SDK classes asked for, each once, through one retransforming transformer. */
    static final class Weaver implements ClassFileTransformer {
        private final Instrumentation instrumentation;
        private final Set<Class<?>> wanted = ConcurrentHashMap.newKeySet();
        private final Set<Class<?>> woven = ConcurrentHashMap.newKeySet();
        private final Set<Class<?>> failed = ConcurrentHashMap.newKeySet();
        /** Static methods ("name(descriptor)") to weave, by class; a class whose are woven is in staticsWoven. */
        private final Map<Class<?>, Set<String>> staticsWanted = new ConcurrentHashMap<>();

        private final Set<Class<?>> staticsWoven = ConcurrentHashMap.newKeySet();
        private final Function<Class<?>, byte[]> onlyForTests;

        Weaver(Instrumentation instrumentation) {
            this(instrumentation, null);
        }

        /** {@code weave}, when given, replaces the weaving itself: a test's way to make it fail. */
        Weaver(Instrumentation instrumentation, Function<Class<?>, byte[]> weave) {
            this.instrumentation =
                    instrumentation != null && instrumentation.isRetransformClassesSupported() ? instrumentation : null;
            this.onlyForTests = weave;
            if (this.instrumentation != null) {
                this.instrumentation.addTransformer(this, true);
            }
        }

        /** Weaves {@code type} if it is not yet: true when calls on it go through the prologue. */
        boolean install(Class<?> type) {
            if (woven.contains(type)) {
                return true;
            }
            synchronized (this) {
                if (woven.contains(type)) {
                    return true;
                }
                if (instrumentation == null
                        || failed.contains(type)
                        || !seesDispatch(type)
                        || !instrumentation.isModifiableClass(type)) {
                    return false;
                }
                wanted.add(type);
                try {
                    instrumentation.retransformClasses(type);
                } catch (Exception | LinkageError e) {
                    // not woven: recorded as failed just below
                }
                if (!woven.contains(type)) {
                    wanted.remove(type);
                    failed.add(type);
                }
                return woven.contains(type);
            }
        }

        /** Weaves the static method {@code method} ("name(descriptor)") of {@code type}: true when it is woven. */
        synchronized boolean installStatic(Class<?> type, String method) {
            Set<String> methods = staticsWanted.get(type);
            if (methods != null && methods.contains(method) && staticsWoven.contains(type)) {
                return true;
            }
            if (instrumentation == null
                    || failed.contains(type)
                    || !seesDispatch(type)
                    || !instrumentation.isModifiableClass(type)) {
                return false;
            }
            staticsWanted
                    .computeIfAbsent(type, t -> ConcurrentHashMap.newKeySet())
                    .add(method);
            staticsWoven.remove(type);
            try {
                instrumentation.retransformClasses(type);
            } catch (Exception | LinkageError e) {
                // not woven: recorded as failed just below
            }
            if (!staticsWoven.contains(type)) {
                staticsWanted.remove(type);
                failed.add(type);
                return false;
            }
            return true;
        }

        boolean isWoven(Class<?> type) {
            return woven.contains(type);
        }

        /** The woven code names SdkDispatch: only weave a class whose loader resolves that name to this class. */
        private static boolean seesDispatch(Class<?> type) {
            ClassLoader loader = type.getClassLoader();
            try {
                return loader != null && Class.forName(SdkDispatch.class.getName(), false, loader) == SdkDispatch.class;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }

        /**
         * Weaves every class asked for whenever it is retransformed: on our {@link #install}, and again when Mockito
         * retransforms it for a user's mock (retransformation starts from the original class file each time).
         */
        @Override
        public byte[] transform(
                ClassLoader loader, String name, Class<?> classBeingRedefined, ProtectionDomain domain, byte[] bytes) {
            if (classBeingRedefined == null) {
                return null;
            }
            Set<String> statics = staticsWanted.get(classBeingRedefined);
            if (statics != null) {
                try {
                    byte[] result = weave(bytes, false, statics);
                    staticsWoven.add(classBeingRedefined);
                    return result;
                } catch (RuntimeException | LinkageError e) {
                    failed.add(classBeingRedefined);
                    staticsWoven.remove(classBeingRedefined);
                    staticsWanted.remove(classBeingRedefined);
                    return null;
                }
            }
            if (!wanted.contains(classBeingRedefined)) {
                return null;
            }
            try {
                byte[] result = onlyForTests != null ? onlyForTests.apply(classBeingRedefined) : weave(bytes);
                woven.add(classBeingRedefined);
                return result;
            } catch (RuntimeException | LinkageError e) {
                // never retried: install reports the class as not woven, and SdkInstances uses Mockito for it
                failed.add(classBeingRedefined);
                woven.remove(classBeingRedefined);
                wanted.remove(classBeingRedefined);
                return null;
            }
        }

        /**
         * The class's bytes with the {@link Prologue} at the start of each instance method it declares, private ones
         * aside (only the class's own code calls those, from methods the prologue already took over).
         */
        static byte[] weave(byte[] bytes) {
            return weave(bytes, true, Set.of());
        }

        /**
         * The class's bytes with the {@link Prologue}: in each instance method it declares when {@code instances}
         * (as {@link #weave(byte[])}), and in the static methods named in {@code statics} ("name(descriptor)").
         */
        static byte[] weave(byte[] bytes, boolean instances, Set<String> statics) {
            ClassReader reader = new ClassReader(bytes);
            ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            reader.accept(
                    new ClassVisitor(Opcodes.ASM9, writer) {
                        private String owner;

                        @Override
                        public void visit(
                                int version,
                                int access,
                                String name,
                                String signature,
                                String superName,
                                String[] interfaces) {
                            owner = name;
                            super.visit(version, access, name, signature, superName, interfaces);
                        }

                        @Override
                        public MethodVisitor visitMethod(
                                int access, String name, String descriptor, String signature, String[] exceptions) {
                            MethodVisitor method = super.visitMethod(access, name, descriptor, signature, exceptions);
                            if ((access & Opcodes.ACC_STATIC) != 0
                                    && (access & Opcodes.ACC_ABSTRACT) == 0
                                    && statics.contains(name + descriptor)) {
                                return new Prologue(method, owner, name, descriptor, true);
                            }
                            if (!instances) {
                                return method;
                            }
                            int skipped = Opcodes.ACC_STATIC
                                    | Opcodes.ACC_PRIVATE
                                    | Opcodes.ACC_ABSTRACT
                                    | Opcodes.ACC_NATIVE
                                    | Opcodes.ACC_BRIDGE
                                    | Opcodes.ACC_SYNTHETIC;
                            return (access & skipped) != 0 || name.startsWith("<")
                                    ? method
                                    : new Prologue(method, owner, name, descriptor, false);
                        }
                    },
                    ClassReader.EXPAND_FRAMES); // all frames expanded, as the one the prologue adds
            return writer.toByteArray();
        }
    }

    /**
     * Put in front of a method's own code:
     * <pre>
     * Object taken = SdkDispatch.call(this, "name(descriptor)", new Object[] {arguments, boxed});
     * if (taken != null) return (ReturnType) SdkDispatch.result(taken);   // unboxed for a primitive; void: return
     * ...the method's own code
     * </pre>
     * In a static method: {@code Object taken = SdkDispatch.callStatic("owner.name(descriptor)", arguments)}, then
     * the same. It uses the operand stack only, no local variable, so the method's own frames stay valid; the one frame it adds
     * (where the method's code starts, {@code taken} still on the stack) has the method's entry locals.
     */
    private static final class Prologue extends MethodVisitor {
        private static final String DISPATCH = Type.getInternalName(SdkDispatch.class);
        private final String owner;
        private final String name;
        private final String descriptor;
        private final boolean isStatic;

        Prologue(MethodVisitor method, String owner, String name, String descriptor, boolean isStatic) {
            super(Opcodes.ASM9, method);
            this.owner = owner;
            this.name = name;
            this.descriptor = descriptor;
            this.isStatic = isStatic;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Type[] parameters = Type.getArgumentTypes(descriptor);
            Type returned = Type.getReturnType(descriptor);
            int first = isStatic ? 0 : 1;
            if (isStatic) {
                super.visitLdcInsn(staticKey(owner, name, descriptor));
            } else {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitLdcInsn(name + descriptor);
            }
            super.visitLdcInsn(parameters.length);
            super.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
            Object[] locals = new Object[parameters.length + first];
            if (!isStatic) {
                locals[0] = owner;
            }
            int slot = first;
            for (int i = 0; i < parameters.length; i++) {
                Type parameter = parameters[i];
                super.visitInsn(Opcodes.DUP);
                super.visitLdcInsn(i);
                super.visitVarInsn(parameter.getOpcode(Opcodes.ILOAD), slot);
                box(parameter);
                super.visitInsn(Opcodes.AASTORE);
                locals[i + first] = frameType(parameter);
                slot += parameter.getSize();
            }
            if (isStatic) {
                super.visitMethodInsn(
                        Opcodes.INVOKESTATIC,
                        DISPATCH,
                        "callStatic",
                        "(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/Object;",
                        false);
            } else {
                super.visitMethodInsn(
                        Opcodes.INVOKESTATIC,
                        DISPATCH,
                        "call",
                        "(Ljava/lang/Object;Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/Object;",
                        false);
            }
            super.visitInsn(Opcodes.DUP);
            Label notTaken = new Label();
            super.visitJumpInsn(Opcodes.IFNULL, notTaken);
            if (returned.getSort() == Type.VOID) {
                super.visitInsn(Opcodes.POP);
                super.visitInsn(Opcodes.RETURN);
            } else {
                super.visitMethodInsn(
                        Opcodes.INVOKESTATIC, DISPATCH, "result", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
                unbox(returned);
                super.visitInsn(returned.getOpcode(Opcodes.IRETURN));
            }
            super.visitLabel(notTaken);
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Object"});
            super.visitInsn(Opcodes.POP);
        }

        /** The wrapper type of a primitive, or null for a reference. */
        private static Type wrapper(Type type) {
            switch (type.getSort()) {
                case Type.BOOLEAN:
                    return Type.getType(Boolean.class);
                case Type.BYTE:
                    return Type.getType(Byte.class);
                case Type.CHAR:
                    return Type.getType(Character.class);
                case Type.SHORT:
                    return Type.getType(Short.class);
                case Type.INT:
                    return Type.getType(Integer.class);
                case Type.LONG:
                    return Type.getType(Long.class);
                case Type.FLOAT:
                    return Type.getType(Float.class);
                case Type.DOUBLE:
                    return Type.getType(Double.class);
                default:
                    return null;
            }
        }

        private void box(Type type) {
            Type wrapper = wrapper(type);
            if (wrapper != null) {
                super.visitMethodInsn(
                        Opcodes.INVOKESTATIC,
                        wrapper.getInternalName(),
                        "valueOf",
                        Type.getMethodDescriptor(wrapper, type),
                        false);
            }
        }

        private void unbox(Type type) {
            Type wrapper = wrapper(type);
            if (wrapper == null) {
                super.visitTypeInsn(Opcodes.CHECKCAST, type.getInternalName());
            } else {
                super.visitTypeInsn(Opcodes.CHECKCAST, wrapper.getInternalName());
                super.visitMethodInsn(
                        Opcodes.INVOKEVIRTUAL,
                        wrapper.getInternalName(),
                        type.getClassName() + "Value",
                        Type.getMethodDescriptor(type),
                        false);
            }
        }

        /** A parameter's type as an expanded frame names it. */
        private static Object frameType(Type type) {
            switch (type.getSort()) {
                case Type.BOOLEAN:
                case Type.BYTE:
                case Type.CHAR:
                case Type.SHORT:
                case Type.INT:
                    return Opcodes.INTEGER;
                case Type.LONG:
                    return Opcodes.LONG;
                case Type.FLOAT:
                    return Opcodes.FLOAT;
                case Type.DOUBLE:
                    return Opcodes.DOUBLE;
                default:
                    return type.getInternalName();
            }
        }
    }

    /**
     * Our instances with their dispatch, by identity and weakly: an instance the test dropped is collected with its
     * implementation (a long test run makes thousands).
     */
    private static final class Instances {
        private final ConcurrentHashMap<Key, SdkInstances.Dispatch> map = new ConcurrentHashMap<>();
        private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

        void put(Object instance, SdkInstances.Dispatch dispatch) {
            for (Object gone; (gone = collected.poll()) != null; ) {
                map.remove(gone);
            }
            map.put(new Weak(instance, collected), dispatch);
        }

        SdkInstances.Dispatch get(Object instance) {
            return map.get(new Lookup(instance));
        }

        /** Equal when both refer to the same live instance; a cleared key equals only itself. */
        private interface Key {
            Object referent();
        }

        private static boolean same(Key key, Object other) {
            if (key == other) {
                return true;
            }
            Object referent = key.referent();
            return referent != null && other instanceof Key && ((Key) other).referent() == referent;
        }

        private static final class Weak extends WeakReference<Object> implements Key {
            private final int hash;

            Weak(Object instance, ReferenceQueue<Object> queue) {
                super(instance, queue);
                this.hash = System.identityHashCode(instance);
            }

            @Override
            public Object referent() {
                return get();
            }

            @Override
            public int hashCode() {
                return hash;
            }

            @Override
            public boolean equals(Object other) {
                return same(this, other);
            }
        }

        /** A lookup's key: made per call, it does not escape and costs no allocation once compiled. */
        private static final class Lookup implements Key {
            private final Object instance;

            Lookup(Object instance) {
                this.instance = instance;
            }

            @Override
            public Object referent() {
                return instance;
            }

            @Override
            public int hashCode() {
                return System.identityHashCode(instance);
            }

            @Override
            public boolean equals(Object other) {
                return same(this, other);
            }
        }
    }
}
