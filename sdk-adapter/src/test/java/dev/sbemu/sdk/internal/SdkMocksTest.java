package dev.sbemu.sdk.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusSenderClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.mockito.exceptions.base.MockitoException;

/** When Mockito's inline mock maker cannot work, the failure names sbemu, the cause and the fix. */
class SdkMocksTest {

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
