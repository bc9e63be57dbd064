package dev.sbemu.spring.internal;

import dev.sbemu.junit.JournalReport;
import dev.sbemu.spring.SpringServiceBusEmulator.Reset;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;
import org.springframework.test.context.support.DependencyInjectionTestExecutionListener;

/**
 * Registered in {@code META-INF/spring.factories}: renews the context's namespace between tests, fails a test
 * that starts while another test holds its context's namespace (SPRING-6), and adds the journal to a failed test
 * method's exception.
 *
 * <p>With {@link Reset#BEFORE_EACH_METHOD} the namespace is renewed before the test instance is prepared
 * (before Spring injects its fields, so injected clocks and namespaces are the method's), or before the
 * method for test instances shared by several methods; with {@link Reset#BEFORE_EACH_CLASS}, before the class.
 */
public final class EmulatorTestExecutionListener extends AbstractTestExecutionListener {
    /** The running test's token (see {@link SpringEmulator#reserve}), from its preparation to its end. */
    private static final String TOKEN = EmulatorTestExecutionListener.class.getName() + ".token";
    /** The test that held the namespace when this test's instance was prepared. */
    private static final String IN_USE_BY = EmulatorTestExecutionListener.class.getName() + ".inUseBy";

    /** Before dependency injection into the test instance. */
    @Override
    public int getOrder() {
        return DependencyInjectionTestExecutionListener.ORDER - 100;
    }

    @Override
    public void beforeTestClass(TestContext testContext) {
        Declarations declarations = Declarations.of(testContext.getTestClass());
        if (!declarations.isEmpty() && declarations.reset() == Reset.BEFORE_EACH_CLASS) {
            Class<?> testClass = testContext.getTestClass();
            emulator(testContext)
                    .start(
                            new Object(),
                            testClass,
                            SpringEmulator.name(testClass)
                                    + " (its tests share one namespace: reset = BEFORE_EACH_CLASS)");
        }
    }

    @Override
    public void afterTestClass(TestContext testContext) {
        if (!Declarations.of(testContext.getTestClass()).isEmpty() && testContext.hasApplicationContext()) {
            emulator(testContext).releaseClass(testContext.getTestClass());
        }
    }

    @Override
    public void prepareTestInstance(TestContext testContext) {
        if (renewsPerMethod(testContext)) {
            Object token = new Object();
            testContext.setAttribute(TOKEN, token);
            String holder = emulator(testContext).reserve(token, testContext.getTestClass());
            if (holder != null) {
                testContext.setAttribute(IN_USE_BY, holder);
            }
        }
    }

    @Override
    public void beforeTestMethod(TestContext testContext) {
        if (renewsPerMethod(testContext)) {
            String test = SpringEmulator.name(testContext.getTestClass()) + "."
                    + testContext.getTestMethod().getName() + "()";
            Object holder = testContext.removeAttribute(IN_USE_BY);
            if (holder != null) {
                throw SpringEmulator.inUse(test, (String) holder);
            }
            Object token = testContext.getAttribute(TOKEN);
            if (token == null) {
                // a test instance shared by several methods: prepared once, before the first
                token = new Object();
                testContext.setAttribute(TOKEN, token);
            }
            emulator(testContext).start(token, testContext.getTestClass(), test);
        }
    }

    @Override
    public void afterTestMethod(TestContext testContext) {
        Object token = testContext.removeAttribute(TOKEN);
        boolean held = token == null || emulator(testContext).release(token);
        Throwable failure = testContext.getTestException();
        // the journal of the namespace this test used; a test refused at its start used none
        if (failure != null
                && held
                && !Declarations.of(testContext.getTestClass()).isEmpty()) {
            JournalReport.attach(
                    failure,
                    emulator(testContext).namespace(),
                    testContext.getTestMethod().getName() + "()");
        }
    }

    private static boolean renewsPerMethod(TestContext testContext) {
        Declarations declarations = Declarations.of(testContext.getTestClass());
        return !declarations.isEmpty() && declarations.reset() == Reset.BEFORE_EACH_METHOD;
    }

    private static SpringEmulator emulator(TestContext testContext) {
        return testContext.getApplicationContext().getBean(SpringEmulator.BEAN_NAME, SpringEmulator.class);
    }
}
