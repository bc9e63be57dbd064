package dev.sbemu.sdk.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The static prologue of {@link SdkDispatch#interceptStatic}: arguments of every kind, taken, declined, thrown. */
class StaticInterceptTest {
    /** Stands for an SDK class with static factory methods. */
    static final class Target {
        static String describe(int a, long b, double c, boolean d, String e) {
            return "original " + a + " " + b + " " + c + " " + d + " " + e;
        }

        static long twice(long value) {
            return value * 2;
        }

        static String none() {
            return "original";
        }
    }

    @Test
    void theHookAnswersOrDeclinesAndSeesEveryArgument() {
        AtomicReference<Object[]> seen = new AtomicReference<>();
        AtomicReference<Object> answer = new AtomicReference<>();
        assertTrue(SdkDispatch.interceptStatic(
                Target.class, "describe", "(IJDZLjava/lang/String;)Ljava/lang/String;", arguments -> {
                    seen.set(arguments);
                    return answer.get();
                }));

        assertEquals("original 1 2 3.5 true x", Target.describe(1, 2L, 3.5, true, "x"), "declined: the method runs");
        assertEquals(Arrays.asList(1, 2L, 3.5, true, "x"), Arrays.asList(seen.get()));

        answer.set("hooked");
        assertEquals("hooked", Target.describe(1, 2L, 3.5, true, null));
        assertNull(seen.get()[4]);
    }

    @Test
    void primitiveResultsAndExceptionsAndNoArguments() {
        assertTrue(SdkDispatch.interceptStatic(Target.class, "twice", "(J)J", arguments -> 7L));
        assertTrue(SdkDispatch.interceptStatic(Target.class, "none", "()Ljava/lang/String;", arguments -> {
            throw new IllegalStateException("from the hook");
        }));

        assertEquals(7L, Target.twice(21));
        assertEquals(
                "from the hook",
                assertThrows(IllegalStateException.class, Target::none).getMessage());
    }
}
