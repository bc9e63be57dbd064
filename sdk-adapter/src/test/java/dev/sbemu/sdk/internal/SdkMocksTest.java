package dev.sbemu.sdk.internal;

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

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import java.lang.instrument.Instrumentation;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.mockito.exceptions.base.MockitoException;
import org.mockito.exceptions.misusing.CannotVerifyStubOnlyMock;

/**
 * The SDK's final classes forward every call to an implementation, without Mockito's invocation machinery; when
 * Mockito's inline mock maker cannot work, the failure names sbemu, the cause and the fix.
 */
class SdkMocksTest {

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
            callers = StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                    .collect(Collectors.toList()));
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
        ServiceBusSenderClient sender = SdkMocks.delegatingTo(ServiceBusSenderClient.class, impl);
        ServiceBusMessage message = new ServiceBusMessage("order-42");

        sender.sendMessage(message);

        assertEquals(List.of(message), impl.sent);
        assertEquals("orders", sender.getEntityPath());
        assertEquals("two methods", sender.toString());
        assertTrue(sender.equals(sender));
        assertEquals(System.identityHashCode(sender), sender.hashCode());
        assertEquals("ServiceBusSenderClient.getFullyQualifiedNamespace is not emulated",
                assertThrows(UnsupportedOperationException.class, sender::getFullyQualifiedNamespace).getMessage());
    }

    @Test
    @DisplayName("Mockito records no call on an emulated client, and verify() on one fails with Mockito's message")
    void notRecorded() {
        ServiceBusSenderClient sender = SdkMocks.delegatingTo(ServiceBusSenderClient.class, new TwoMethods());
        sender.sendMessage(new ServiceBusMessage("order-42"));

        assertEquals("sbemu's ServiceBusSenderClient is not a Mockito mock: it records no invocations and cannot be "
                + "stubbed or verified", assertThrows(UnsupportedOperationException.class,
                () -> Mockito.mockingDetails(sender).getInvocations()).getMessage());
        assertThrows(CannotVerifyStubOnlyMock.class, () -> Mockito.verify(sender));
    }

    @Test
    @DisplayName("a call on an emulated client bypasses Mockito's inline advice: our advice is woven into the type")
    void bypassesMockito() {
        TwoMethods impl = new TwoMethods();
        ServiceBusSenderClient sender = SdkMocks.delegatingTo(ServiceBusSenderClient.class, impl);

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
        ServiceBusSenderClient sender = SdkMocks.delegatingTo(ServiceBusSenderClient.class, impl);

        assertSame(impl.failure, assertThrows(IllegalStateException.class,
                () -> sender.sendMessage(new ServiceBusMessage("x"))));
        assertTrue(impl.callers.contains(SdkDispatch.class.getName()), impl.callers::toString);
        assertEquals("orders", sender.getEntityPath());
        assertEquals("ServiceBusSenderClient.getFullyQualifiedNamespace is not emulated",
                assertThrows(UnsupportedOperationException.class, sender::getFullyQualifiedNamespace).getMessage());

        ServiceBusProcessorClient processor = SdkMocks.delegatingTo(ServiceBusProcessorClient.class, new Running());
        assertTrue(processor.isRunning()); // a primitive result, unboxed by the woven code
        assertEquals(null, processor.getQueueName()); // a null result
        assertTrue(SdkDispatch.installed(ServiceBusProcessorClient.class));
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
        ServiceBusSenderClient emulated = SdkMocks.delegatingTo(ServiceBusSenderClient.class, new TwoMethods());
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
        assertEquals("stubbed", assertThrows(IllegalArgumentException.class, () -> users.sendMessage(message))
                .getMessage());
    }

    @Test
    @DisplayName("without the fast path (no instrumentation, or weaving fails) calls take Mockito's path, correctly")
    void fallback() throws Exception {
        assertFalse(new SdkDispatch.Weaver(null).install(ServiceBusSenderClient.class));
        Instrumentation instrumentation = SdkDispatch.mockitosInstrumentation();
        assertTrue(instrumentation != null, "Mockito's instrumentation is reachable");
        SdkDispatch.Weaver failing = new SdkDispatch.Weaver(instrumentation, type -> {
            throw new IllegalStateException("cannot weave " + type);
        });
        try {
            mock(ServiceBusRuleManagerClient.class); // instrumented by Mockito
            assertFalse(failing.install(ServiceBusRuleManagerClient.class));
            assertFalse(failing.install(ServiceBusRuleManagerClient.class)); // retransformed: weaving failed
            assertFalse(failing.isWoven(ServiceBusRuleManagerClient.class));
        } finally {
            instrumentation.removeTransformer(failing);
        }
        TwoMethods impl = new TwoMethods();
        ServiceBusSenderClient sender = SdkMocks.delegatingTo(ServiceBusSenderClient.class, impl, false);
        ServiceBusMessage message = new ServiceBusMessage("order-42");

        sender.sendMessage(message);

        assertEquals(List.of(message), impl.sent);
        assertFalse(impl.callers.contains(SdkDispatch.class.getName()), impl.callers::toString);
        assertTrue(impl.callers.stream().anyMatch(c -> c.startsWith("org.mockito.")), impl.callers::toString);
        assertEquals("orders", sender.getEntityPath());
        impl.failure = new IllegalStateException("boom");
        assertSame(impl.failure, assertThrows(IllegalStateException.class, () -> sender.sendMessage(message)));
        assertEquals("ServiceBusSenderClient.getFullyQualifiedNamespace is not emulated",
                assertThrows(UnsupportedOperationException.class, sender::getFullyQualifiedNamespace).getMessage());
    }

    @Test
    @DisplayName("a Mockito older than 5 is named, with the version to declare")
    void oldMockito() {
        MockitoException subclassMaker = new MockitoException("\nCannot mock/spy class "
                + "com.azure.messaging.servicebus.ServiceBusSenderClient\nMockito cannot mock/spy because :\n"
                + " - final class");
        assertEquals("sbemu cannot create the Azure SDK's ServiceBusSenderClient: the SDK's client classes are final, "
                + "and sbemu creates them with Mockito's inline mock maker, which did not work here (MockitoException: "
                + "Cannot mock/spy class com.azure.messaging.servicebus.ServiceBusSenderClient). The test class path "
                + "has mockito-core 4.11.0; sbemu needs 5.x. Fix: declare org.mockito:mockito-core 5.x among your test "
                + "dependencies (see the README's supported versions).",
                SdkMocks.cannotMock(ServiceBusSenderClient.class, subclassMaker, "4.11.0"));
    }

    @Test
    @DisplayName("an inline mock maker that cannot attach is told to load the agent, with the argLine")
    void noAgent() {
        IllegalStateException plugin = new IllegalStateException("Could not initialize plugin: interface "
                + "org.mockito.plugins.MockMaker (alternate: null)",
                new IllegalStateException("Could not self-attach to current VM using external process"));
        assertEquals("sbemu cannot create the Azure SDK's ServiceBusSenderClient: the SDK's client classes are final, "
                + "and sbemu creates them with Mockito's inline mock maker, which did not work here "
                + "(IllegalStateException: Could not self-attach to current VM using external process). Fix: load "
                + "Mockito's agent when the test JVM starts, as the README shows: <argLine>-javaagent:"
                + "${net.bytebuddy:byte-buddy-agent:jar} -Xshare:off</argLine> in maven-surefire-plugin, with "
                + "maven-dependency-plugin's 'properties' goal; and no mock-maker-subclass in "
                + "src/test/resources/mockito-extensions.",
                SdkMocks.cannotMock(ServiceBusSenderClient.class, plugin, "5.24.0"));
    }

    @Test
    @DisplayName("the version of mockito-core on the class path is read from its jar")
    void version() {
        String version = SdkMocks.mockitoVersion();
        assertTrue(version.matches("[5-9]\\.\\d+\\.\\d+.*"), version);
    }
}
