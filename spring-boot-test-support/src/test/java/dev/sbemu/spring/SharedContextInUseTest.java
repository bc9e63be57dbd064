package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.Queue;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Two test classes sharing one cached context run concurrently: the second test to start fails at once, naming
 * both tests and the fix, and the first keeps its namespace; run one after the other, both pass.
 */
@DisplayName("SPRING-6 a test that starts while another test holds its shared context's namespace fails, naming both")
class SharedContextInUseTest {
    private static volatile boolean runningFixtures;
    private static volatile boolean concurrent;
    private static volatile CountDownLatch firstInside = new CountDownLatch(1);
    private static volatile CountDownLatch secondEnded = new CountDownLatch(1);

    @Test
    void aTestStartingWhileAnotherHoldsTheNamespaceFailsAndTheOtherKeepsItsState() {
        List<Event> failures = run(true)
                .testEvents()
                .assertStatistics(s -> s.started(2).succeeded(1).failed(1))
                .failed()
                .list();
        Throwable failure = failures.get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        assertEquals(IllegalStateException.class, failure.getClass());
        String message = failure.getMessage();
        assertTrue(
                message.startsWith("sbemu: SharedContextInUseTest$Second.usesTheNamespace() started while "
                        + "SharedContextInUseTest$First.holdsTheNamespace() is still using the emulated Service Bus namespace "
                        + "of the same Spring application context."),
                message);
        assertTrue(message.contains("@ResourceLock"), message);
        // the refused test used no namespace: no journal of the other test's
        assertEquals(0, failure.getSuppressed().length);
    }

    @Test
    void testsSharingTheContextOneAfterAnotherPass() {
        run(false).testEvents().assertStatistics(s -> s.started(2).succeeded(2));
    }

    private static EngineExecutionResults run(boolean inParallel) {
        concurrent = inParallel;
        firstInside = new CountDownLatch(1);
        secondEnded = new CountDownLatch(1);
        runningFixtures = true;
        try {
            return EngineTestKit.engine("junit-jupiter")
                    .configurationParameter("junit.jupiter.execution.parallel.enabled", String.valueOf(inParallel))
                    .configurationParameter("junit.jupiter.execution.parallel.mode.default", "same_thread")
                    .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                    .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                    // more workers than the two classes that wait for each other: a worker can be left waiting in
                    // a join for a class another one took (ForkJoinPool work stealing, junit-framework#3108)
                    .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "4")
                    .selectors(selectClass(First.class), selectClass(Second.class))
                    .execute();
        } finally {
            runningFixtures = false;
        }
    }

    static boolean runningFixtures() {
        return runningFixtures;
    }

    /** The fixtures' shared declaration: one cached context. */
    @SpringBootTest(
            classes = TestApplication.class,
            properties = {
                "spring.cloud.azure.servicebus.producer.entity-name=orders",
                "spring.cloud.azure.servicebus.producer.entity-type=queue"
            })
    @SpringServiceBusEmulator(queues = @Queue(name = "orders"), startAt = "2026-01-01T00:00:00Z")
    abstract static class Fixture {
        @Autowired
        ServiceBusSenderClient sender;

        @Autowired
        Namespace namespace;

        @Autowired
        EmulatedServiceBus serviceBus;

        /** Messages in the queue of the namespace the context serves now. */
        long queued() {
            assertSame(namespace, serviceBus.namespace(), "the namespace the test started with");
            return namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount();
        }
    }

    /** Holds the namespace until the second test ended (when concurrent). Run by the test kit only. */
    @EnabledIf("dev.sbemu.spring.SharedContextInUseTest#runningFixtures")
    static class First extends Fixture {
        @Test
        void holdsTheNamespace() throws InterruptedException {
            firstInside.countDown();
            sender.sendMessage(new ServiceBusMessage("first"));
            if (concurrent) {
                assertTrue(secondEnded.await(120, TimeUnit.SECONDS), "the second test ended");
            }
            assertEquals(1, queued());
        }
    }

    /** Starts while the first test holds the namespace (when concurrent). Run by the test kit only. */
    @EnabledIf("dev.sbemu.spring.SharedContextInUseTest#runningFixtures")
    @ExtendWith(Second.Ended.class)
    static class Second extends Fixture {
        @BeforeAll
        static void afterTheFirstStarted() throws InterruptedException {
            if (concurrent) {
                assertTrue(firstInside.await(120, TimeUnit.SECONDS), "the first test started");
            }
        }

        @Test
        void usesTheNamespace() {
            sender.sendMessage(new ServiceBusMessage("second"));
            assertEquals(1, queued());
        }

        /** Tells the first test that this one ended, however. */
        static final class Ended implements TestWatcher {
            @Override
            public void testSuccessful(ExtensionContext context) {
                secondEnded.countDown();
            }

            @Override
            public void testFailed(ExtensionContext context, Throwable cause) {
                secondEnded.countDown();
            }

            @Override
            public void testAborted(ExtensionContext context, Throwable cause) {
                secondEnded.countDown();
            }

            @Override
            public void testDisabled(ExtensionContext context, Optional<String> reason) {
                secondEnded.countDown();
            }
        }
    }
}
