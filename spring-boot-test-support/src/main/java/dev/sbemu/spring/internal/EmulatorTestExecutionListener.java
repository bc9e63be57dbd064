package dev.sbemu.spring.internal;

import dev.sbemu.junit.JournalReport;
import dev.sbemu.spring.SpringServiceBusEmulator.Reset;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;
import org.springframework.test.context.support.DependencyInjectionTestExecutionListener;

/**
 * Registered in {@code META-INF/spring.factories}: renews the context's namespace between tests and adds
 * the journal to a failed test method's exception.
 *
 * <p>With {@link Reset#BEFORE_EACH_METHOD} the namespace is renewed before the test instance is prepared
 * (before Spring injects its fields, so injected clocks and namespaces are the method's), or before the
 * method for test instances shared by several methods; with {@link Reset#BEFORE_EACH_CLASS}, before the class.
 */
public final class EmulatorTestExecutionListener extends AbstractTestExecutionListener {
    private static final String RENEWED = EmulatorTestExecutionListener.class.getName() + ".renewed";

    /** Before dependency injection into the test instance. */
    @Override
    public int getOrder() {
        return DependencyInjectionTestExecutionListener.ORDER - 100;
    }

    @Override
    public void beforeTestClass(TestContext testContext) {
        Declarations declarations = Declarations.of(testContext.getTestClass());
        if (!declarations.isEmpty() && declarations.reset() == Reset.BEFORE_EACH_CLASS) {
            emulator(testContext).renew();
        }
    }

    @Override
    public void prepareTestInstance(TestContext testContext) {
        if (renewsPerMethod(testContext)) {
            emulator(testContext).renew();
            testContext.setAttribute(RENEWED, Boolean.TRUE);
        }
    }

    @Override
    public void beforeTestMethod(TestContext testContext) {
        if (renewsPerMethod(testContext) && testContext.removeAttribute(RENEWED) == null) {
            emulator(testContext).renew();
        }
    }

    @Override
    public void afterTestMethod(TestContext testContext) {
        Throwable failure = testContext.getTestException();
        if (failure != null && !Declarations.of(testContext.getTestClass()).isEmpty()) {
            JournalReport.attach(failure, emulator(testContext).namespace(),
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
