package dev.sbemu.sdk.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.azure.core.util.IterableStream;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.mockito.exceptions.base.MockitoException;
import org.mockito.exceptions.misusing.CannotVerifyStubOnlyMock;
import org.mockito.exceptions.misusing.NotAMockException;

/**
 * The SDK's final classes forward every call to an implementation, without Mockito's invocation machinery; when
 * Mockito's inline mock maker cannot work, the failure names sbemu, the cause and the fix.
 */
class SdkInstancesTest {

    /** Implements two of the sender's methods. */
    public static final class TwoMethods {
        final List<ServiceBusMessage> sent = new ArrayList<>();
        /** The classes on the stack of the last {@code sendMessage}. */
        List<String> callers = List.of();

        RuntimeException failure;

        public String getEntityPath() {
            return "orders";
        }

        public void sendMessage(ServiceBusMessage message) {
            callers = StackWalker.getInstance()
                    .walk(frames ->
                            frames.map(StackWalker.StackFrame::getClassName).collect(Collectors.toList()));
            if (failure != null) {
                throw failure;
            }
            sent.add(message);
        }

        @Override
        public String toString() {
            return "two methods";
        }
    }

    @Test
    @DisplayName("a call reaches the implementation with its arguments; a method it lacks is refused by name")
    void forwards() {
        TwoMethods impl = new TwoMethods();
        ServiceBusSenderClient sender = SdkInstances.delegatingTo(ServiceBusSenderClient.class, impl);
        ServiceBusMessage message = new ServiceBusMessage("order-42");

        sender.sendMessage(message);

        assertEquals(List.of(message), impl.sent);
        assertEquals("orders", sender.getEntityPath());
        assertTrue(sender.equals(sender));
        assertFalse(sender.equals(SdkInstances.delegatingTo(ServiceBusSenderClient.class, impl)));
        assertEquals(System.identityHashCode(sender), sender.hashCode());
        assertEquals(
                "ServiceBusSenderClient.getFullyQualifiedNamespace is not emulated",
                assertThrows(UnsupportedOperationException.class, sender::getFullyQualifiedNamespace)
                        .getMessage());
    }

    @Test
    @DisplayName("toString, hashCode and equals are Object's, as on the SDK's own clients (which do not override them)")
    void objectMethods() {
        ServiceBusSenderClient sender = SdkInstances.delegatingTo(ServiceBusSenderClient.class, new TwoMethods());

        assertEquals(
                ServiceBusSenderClient.class.getName() + "@" + Integer.toHexString(sender.hashCode()),
                sender.toString());
    }

    @Test
    @DisplayName("a lazy instance creates its target on the first call, not on toString or close; closed, it refuses")
    void lazy() {
        List<TwoMethods> created = new ArrayList<>();
        ServiceBusSenderClient lazy = SdkInstances.lazy(ServiceBusSenderClient.class, () -> {
            TwoMethods impl = new TwoMethods();
            created.add(impl);
            return SdkInstances.delegatingTo(ServiceBusSenderClient.class, impl);
        });
        assertTrue(lazy.toString().startsWith(ServiceBusSenderClient.class.getName() + "@"));
        assertEquals(List.of(), created);

        assertEquals("orders", lazy.getEntityPath());
        lazy.sendMessage(new ServiceBusMessage("a"));
        assertEquals(1, created.size());
        assertEquals(1, created.get(0).sent.size());
        assertEquals(
                "ServiceBusSenderClient.getFullyQualifiedNamespace is not emulated",
                assertThrows(UnsupportedOperationException.class, lazy::getFullyQualifiedNamespace)
                        .getMessage());

        ServiceBusSenderClient closedFirst = SdkInstances.lazy(ServiceBusSenderClient.class, () -> {
            throw new AssertionError("not created");
        });
        closedFirst.close();
        assertEquals(
                "Cannot perform operation 'getEntityPath' on a disposed receiver.",
                assertThrows(IllegalStateException.class, closedFirst::getEntityPath)
                        .getMessage());
    }

    @Test
    @DisplayName("an emulated client is no Mockito mock: verify() on one fails with Mockito's message")
    void notAMock() {
        ServiceBusSenderClient sender = SdkInstances.delegatingTo(ServiceBusSenderClient.class, new TwoMethods());
        sender.sendMessage(new ServiceBusMessage("order-42"));

        assertFalse(Mockito.mockingDetails(sender).isMock());
        assertThrows(NotAMockException.class, () -> Mockito.verify(sender));
    }

    @Test
    @DisplayName("on Mockito's path Mockito records no call, and verify() fails with Mockito's message")
    void notRecordedOnMockitosPath() {
        ServiceBusSenderClient sender =
                SdkInstances.delegatingTo(ServiceBusSenderClient.class, new TwoMethods(), false);
        sender.sendMessage(new ServiceBusMessage("order-42"));

        assertEquals(
                "sbemu's ServiceBusSenderClient is not a Mockito mock: it records no invocations and cannot be "
                        + "stubbed or verified",
                assertThrows(
                                UnsupportedOperationException.class,
                                () -> Mockito.mockingDetails(sender).getInvocations())
                        .getMessage());
        assertThrows(CannotVerifyStubOnlyMock.class, () -> Mockito.verify(sender));
    }

    @Test
    @DisplayName("the instrumentation is the JVM's agent's (this module's tests load Byte Buddy's, as the README's)")
    void agentsInstrumentation() {
        assertSame(ByteBuddyAgent.getInstrumentation(), SdkDispatch.instrumentation());
    }

    @Test
    @DisplayName("a call on an emulated client runs no Mockito code: our advice is woven into the type")
    void bypassesMockito() {
        TwoMethods impl = new TwoMethods();
        ServiceBusSenderClient sender = SdkInstances.delegatingTo(ServiceBusSenderClient.class, impl);

        sender.sendMessage(new ServiceBusMessage("order-42"));

        assertTrue(SdkDispatch.installed(ServiceBusSenderClient.class));
        assertTrue(impl.callers.contains(SdkDispatch.class.getName()), impl.callers::toString);
        assertFalse(impl.callers.stream().anyMatch(c -> c.startsWith("org.mockito.")), impl.callers::toString);
    }

    @Test
    @DisplayName("on the fast path an exception of the implementation propagates unchanged, and values are returned")
    void fastPathResults() {
        TwoMethods impl = new TwoMethods();
        impl.failure = new IllegalStateException("boom");
        ServiceBusSenderClient sender = SdkInstances.delegatingTo(ServiceBusSenderClient.class, impl);

        assertSame(
                impl.failure,
                assertThrows(IllegalStateException.class, () -> sender.sendMessage(new ServiceBusMessage("x"))));
        assertTrue(impl.callers.contains(SdkDispatch.class.getName()), impl.callers::toString);
        assertEquals("orders", sender.getEntityPath());
        assertEquals(
                "ServiceBusSenderClient.getFullyQualifiedNamespace is not emulated",
                assertThrows(UnsupportedOperationException.class, sender::getFullyQualifiedNamespace)
                        .getMessage());

        ServiceBusProcessorClient processor = SdkInstances.delegatingTo(ServiceBusProcessorClient.class, new Running());
        assertTrue(processor.isRunning()); // a primitive result, unboxed by the woven code
        assertEquals(null, processor.getQueueName()); // a null result
        assertTrue(SdkDispatch.installed(ServiceBusProcessorClient.class));
    }

    /** Implements receiver methods with primitive, wide and array parameters and results. */
    public static final class Primitives {
        final List<Object> seen = new ArrayList<>();

        public IterableStream<ServiceBusReceivedMessage> peekMessages(int maxMessages, long fromSequenceNumber) {
            seen.add(maxMessages);
            seen.add(fromSequenceNumber);
            return new IterableStream<>(List.of());
        }

        public byte[] getSessionState() {
            return new byte[] {1, 2};
        }

        public void setSessionState(byte[] state) {
            seen.add(state);
        }
    }

    @Test
    @DisplayName("the woven prologue passes int, long and array arguments, returns arrays, refuses the unemulated")
    void parametersAndResults() {
        Primitives impl = new Primitives();
        ServiceBusReceiverClient receiver = SdkInstances.delegatingTo(ServiceBusReceiverClient.class, impl);
        byte[] state = {7};

        assertEquals(0, receiver.peekMessages(3, Long.MAX_VALUE - 1).stream().count());
        receiver.setSessionState(state);

        assertArrayEquals(new byte[] {1, 2}, receiver.getSessionState());
        assertEquals(List.of(3, Long.MAX_VALUE - 1, state), impl.seen);
        assertTrue(SdkDispatch.installed(ServiceBusReceiverClient.class));
        assertEquals(
                "ServiceBusReceiverClient.receiveMessages is not emulated",
                assertThrows(UnsupportedOperationException.class, () -> receiver.receiveMessages(1))
                        .getMessage());
    }

    /** A processor that runs and has no queue name. */
    public static final class Running {
        public boolean isRunning() {
            return true;
        }

        public String getQueueName() {
            return null;
        }
    }

    @Test
    @DisplayName("a user's own Mockito mock of a woven SDK class still stubs and verifies, next to an emulated one")
    void userMocksStillWork() {
        ServiceBusSenderClient emulated = SdkInstances.delegatingTo(ServiceBusSenderClient.class, new TwoMethods());
        ServiceBusSenderClient users = mock(ServiceBusSenderClient.class);
        when(users.getEntityPath()).thenReturn("mine");
        ServiceBusMessage message = new ServiceBusMessage("order-42");

        users.sendMessage(message);

        assertTrue(SdkDispatch.installed(ServiceBusSenderClient.class));
        assertEquals("mine", users.getEntityPath());
        assertEquals("orders", emulated.getEntityPath());
        verify(users).sendMessage(message);
        verify(users).getEntityPath();
        verify(users, never()).getFullyQualifiedNamespace();
        assertEquals(2, Mockito.mockingDetails(users).getInvocations().size()); // the stubbing call is not one
        Mockito.doThrow(new IllegalArgumentException("stubbed")).when(users).sendMessage(any());
        assertEquals(
                "stubbed",
                assertThrows(IllegalArgumentException.class, () -> users.sendMessage(message))
                        .getMessage());
    }

    @Test
    @DisplayName("where weaving is closed (no instrumentation, or weaving fails) Mockito makes the instance, correctly")
    void fallback() throws Exception {
        assertFalse(new SdkDispatch.Weaver(null).install(ServiceBusSenderClient.class));
        assertFalse(SdkDispatch.installed(Object.class));
        Instrumentation instrumentation = SdkDispatch.mockitosInstrumentation();
        assertTrue(instrumentation != null, "Mockito's instrumentation is reachable");
        SdkDispatch.Weaver failing = new SdkDispatch.Weaver(instrumentation, type -> {
            throw new IllegalStateException("cannot weave " + type);
        });
        try {
            mock(ServiceBusRuleManagerClient.class); // instrumented by Mockito
            assertFalse(failing.install(ServiceBusRuleManagerClient.class)); // retransformed: weaving failed
            assertFalse(failing.install(ServiceBusRuleManagerClient.class)); // not retried
            assertFalse(failing.isWoven(ServiceBusRuleManagerClient.class));
        } finally {
            instrumentation.removeTransformer(failing);
        }
        TwoMethods impl = new TwoMethods();
        ServiceBusSenderClient sender = SdkInstances.delegatingTo(ServiceBusSenderClient.class, impl, false);
        ServiceBusMessage message = new ServiceBusMessage("order-42");

        sender.sendMessage(message);

        assertEquals(List.of(message), impl.sent);
        assertFalse(impl.callers.contains(SdkDispatch.class.getName()), impl.callers::toString);
        assertTrue(impl.callers.stream().anyMatch(c -> c.startsWith("org.mockito.")), impl.callers::toString);
        assertEquals("orders", sender.getEntityPath());
        impl.failure = new IllegalStateException("boom");
        assertSame(impl.failure, assertThrows(IllegalStateException.class, () -> sender.sendMessage(message)));
        assertEquals(
                "ServiceBusSenderClient.getFullyQualifiedNamespace is not emulated",
                assertThrows(UnsupportedOperationException.class, sender::getFullyQualifiedNamespace)
                        .getMessage());
    }

    @Test
    @DisplayName("without the agent, a Mockito older than 5 is named, with the agent line or the version to declare")
    void oldMockito() {
        MockitoException subclassMaker = new MockitoException("\nCannot mock/spy class "
                + "com.azure.messaging.servicebus.ServiceBusSenderClient\nMockito cannot mock/spy because :\n"
                + " - final class");
        assertEquals(
                "sbemu cannot create the Azure SDK's ServiceBusSenderClient: the SDK's client classes are final; "
                        + "sbemu creates them through the test JVM's Java agent, and without one through Mockito's inline mock "
                        + "maker, which did not work here (MockitoException: Cannot mock/spy class "
                        + "com.azure.messaging.servicebus.ServiceBusSenderClient). The test class path has mockito-core "
                        + "4.11.0, whose default mock maker cannot. Fix: load the agent when the test JVM starts, as the "
                        + "README shows: <argLine>-javaagent:${net.bytebuddy:byte-buddy-agent:jar} -Xshare:off</argLine> in "
                        + "maven-surefire-plugin, with maven-dependency-plugin's 'properties' goal; or declare "
                        + "org.mockito:mockito-core 5.x among your test dependencies (see the README's supported versions).",
                MockitoInstances.cannotMock(ServiceBusSenderClient.class, subclassMaker, "4.11.0"));
    }

    @Test
    @DisplayName("an inline mock maker that cannot attach is told to load the agent, with the argLine")
    void noAgent() {
        IllegalStateException plugin = new IllegalStateException(
                "Could not initialize plugin: interface " + "org.mockito.plugins.MockMaker (alternate: null)",
                new IllegalStateException("Could not self-attach to current VM using external process"));
        assertEquals(
                "sbemu cannot create the Azure SDK's ServiceBusSenderClient: the SDK's client classes are final; "
                        + "sbemu creates them through the test JVM's Java agent, and without one through Mockito's inline mock "
                        + "maker, which did not work here (IllegalStateException: Could not self-attach to current VM using "
                        + "external process). Fix: load the agent when the test JVM starts, as the README shows: "
                        + "<argLine>-javaagent:${net.bytebuddy:byte-buddy-agent:jar} -Xshare:off</argLine> in "
                        + "maven-surefire-plugin, with maven-dependency-plugin's 'properties' goal; and no mock-maker-subclass "
                        + "in src/test/resources/mockito-extensions.",
                MockitoInstances.cannotMock(ServiceBusSenderClient.class, plugin, "5.24.0"));
    }

    @Test
    @DisplayName("the version of mockito-core on the class path is read from its jar")
    void version() {
        String version = MockitoInstances.mockitoVersion();
        assertTrue(version.matches("[5-9]\\.\\d+\\.\\d+.*"), version);
    }
}
