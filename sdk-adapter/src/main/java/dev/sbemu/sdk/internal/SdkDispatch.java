package dev.sbemu.sdk.internal;

import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.isEquals;
import static net.bytebuddy.matcher.ElementMatchers.isHashCode;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.isVirtual;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.security.ProtectionDomain;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The fast path of {@link SdkMocks}: an advice of our own, woven into the public methods of each SDK class SdkMocks
 * instantiates, in front of Mockito's inline advice (our transformer is registered after Mockito's, so it wraps
 * Mockito's instrumented code). On a call, the advice asks {@link #call} whether {@code this} is one of SdkMocks'
 * forwarding instances; if so, the implementation runs through a precomputed method handle and the original method,
 * Mockito's advice with it, is skipped. Any other instance (a user's own {@code mock(ServiceBusSenderClient.class)})
 * goes on into Mockito's advice untouched.
 *
 * <p>Why: Mockito's advice costs about 2.7 µs per call before any handler runs (a stack walk for the call's location,
 * a method-graph lookup, a reflective method lookup), whatever the handler does; see benchmarks/RESULTS.md, issue #17.
 *
 * <p>The {@link Instrumentation} is the one Mockito's inline mock maker already holds (its agent, or its self-attach);
 * no agent of our own is attached. If it cannot be reached, or weaving a class fails, that class keeps the Mockito
 * path: correct, only slower.
 *
 * <p>Public only because the woven code, which lives in the SDK's classes, calls {@link #call} and {@link #result};
 * not an API.
 */
public final class SdkDispatch {
    /** Stands for a {@code null} result (or {@code void}) of a call that was taken. */
    private static final Object NULL = new Object();

    private static final Weaver WEAVER = new Weaver(mockitosInstrumentation());

    private SdkDispatch() {
    }

    /**
     * Called by the woven advice on every call of a woven SDK method: the implementation's result (boxed, or a marker
     * for {@code null}) if {@code self} is one of SdkMocks' forwarding instances and the method is emulated,
     * otherwise {@code null}, and the call goes on into the original method. An exception of the implementation
     * propagates unchanged.
     */
    public static Object call(Object self, String method, Object[] arguments) throws Throwable {
        Object result = SdkMocks.dispatchFast(self, method, arguments);
        if (result == SdkMocks.NOT_TAKEN) {
            return null; // the original method (Mockito's advice) runs
        }
        return result == null ? NULL : result;
    }

    /** The result a taken call returns, from what {@link #call} answered. */
    public static Object result(Object taken) {
        return taken == NULL ? null : taken;
    }

    /**
     * Weaves the fast path into {@code type} if it is not yet: true when calls on {@code type}'s public methods go
     * through {@link #call}. Called before Mockito instruments the type (so that Mockito's retransformation weaves
     * ours in the same pass) and after (to retransform once if that pass did not include ours).
     */
    static boolean install(Class<?> type) {
        return WEAVER.install(type);
    }

    /** Whether calls on {@code type} go through the fast path. */
    static boolean installed(Class<?> type) {
        return WEAVER.isWoven(type);
    }

    /** The {@link Instrumentation} Mockito's inline mock maker obtained, or null when there is none to reach. */
    static Instrumentation mockitosInstrumentation() {
        try {
            if (!(SdkMocks.mockMaker() instanceof org.mockito.plugins.InlineMockMaker)) {
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

    /** Weaves the advice into the SDK classes asked for, through one transformer registered after Mockito's. */
    static final class Weaver implements ClassFileTransformer {
        private final Instrumentation instrumentation;
        private final Set<Class<?>> wanted = ConcurrentHashMap.newKeySet();
        private final Set<Class<?>> woven = ConcurrentHashMap.newKeySet();
        private final Set<Class<?>> failed = ConcurrentHashMap.newKeySet();
        private final Function<Class<?>, byte[]> onlyForTests;

        Weaver(Instrumentation instrumentation) {
            this(instrumentation, null);
        }

        /** {@code weave}, when given, replaces the weaving itself: a test's way to make it fail. */
        Weaver(Instrumentation instrumentation, Function<Class<?>, byte[]> weave) {
            this.instrumentation = usable(instrumentation);
            this.onlyForTests = weave;
            if (this.instrumentation != null) {
                this.instrumentation.addTransformer(this, true);
            }
        }

        private static Instrumentation usable(Instrumentation instrumentation) {
            return instrumentation != null && instrumentation.isRetransformClassesSupported() ? instrumentation : null;
        }

        boolean install(Class<?> type) {
            if (woven.contains(type)) {
                return true;
            }
            if (instrumentation == null || failed.contains(type) || !instrumentation.isModifiableClass(type)) {
                return false;
            }
            if (wanted.add(type)) {
                return false; // first sight: Mockito's retransformation of the type, if due, weaves ours too
            }
            try {
                instrumentation.retransformClasses(type);
            } catch (Exception | LinkageError e) {
                failed.add(type);
            }
            return woven.contains(type);
        }

        boolean isWoven(Class<?> type) {
            return woven.contains(type);
        }

        @Override
        public byte[] transform(ClassLoader loader, String name, Class<?> classBeingRedefined,
                ProtectionDomain domain, byte[] bytes) {
            if (classBeingRedefined == null || !wanted.contains(classBeingRedefined)) {
                return null;
            }
            try {
                byte[] result = onlyForTests != null ? onlyForTests.apply(classBeingRedefined)
                        : weave(classBeingRedefined, bytes);
                woven.add(classBeingRedefined);
                return result;
            } catch (RuntimeException | LinkageError e) {
                // the class keeps Mockito's path; never retried
                failed.add(classBeingRedefined);
                woven.remove(classBeingRedefined);
                wanted.remove(classBeingRedefined);
                return null;
            }
        }

        /** The class's bytes (as Mockito left them) with our advice around each public instance method it declares. */
        private static byte[] weave(Class<?> type, byte[] bytes) {
            var methods = isDeclaredBy(type).and(isPublic()).and(isVirtual())
                    .and(not(isBridge().or(isSynthetic()).or(isHashCode()).or(isEquals())));
            return new ByteBuddy()
                    .with(TypeValidation.DISABLED)
                    .with(Implementation.Context.Disabled.Factory.INSTANCE)
                    .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
                    .redefine(type, ClassFileLocator.Simple.of(type.getName(), bytes))
                    .visit(new AsmVisitorWrapper.ForDeclaredMethods()
                            .method(methods.and(returns(void.class)), Advices.VOID)
                            .method(methods.and(not(returns(void.class))), Advices.VALUE))
                    .make()
                    .getBytes();
        }
    }

    /** The two advices, read from their class files once (on the first weaving). */
    private static final class Advices {
        static final Advice VOID = Advice.to(VoidAdvice.class);
        static final Advice VALUE = Advice.to(ValueAdvice.class);

        private Advices() {
        }
    }

    /** Woven into methods that return {@code void}: skips the original method when the call was taken. */
    static final class VoidAdvice {
        private VoidAdvice() {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This Object self, @Advice.Origin("#m#d") String method,
                @Advice.AllArguments Object[] arguments) throws Throwable {
            return SdkDispatch.call(self, method, arguments) != null;
        }
    }

    /** Woven into methods that return a value: skips the original method and returns the result of a taken call. */
    static final class ValueAdvice {
        private ValueAdvice() {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static Object enter(@Advice.This Object self, @Advice.Origin("#m#d") String method,
                @Advice.AllArguments Object[] arguments) throws Throwable {
            return SdkDispatch.call(self, method, arguments);
        }

        @SuppressWarnings("UnusedAssignment")
        @Advice.OnMethodExit
        static void exit(@Advice.Enter Object taken,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
            if (taken != null) {
                returned = SdkDispatch.result(taken);
            }
        }
    }
}
