package dev.sbemu.sdk.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import java.util.ArrayList;
import java.util.List;
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

        public String getEntityPath() {
            return "orders";
        }

        public void sendMessage(ServiceBusMessage message) {
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
