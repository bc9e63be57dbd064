package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.CreateTopicOptions;
import com.azure.messaging.servicebus.administration.models.NamespaceProperties;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.sdk.AdministrationClients;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the tier changes in the administration view. */
class TierTest {

    @Test
    @DisplayName("LIM-1 Premium: message size up to 100 MB per entity, 1 MB by default; one messaging unit")
    void premium() {
        try (Namespace namespace = Namespace.builder().tier(Tier.PREMIUM).build()) {
            ServiceBusAdministrationClient admin = AdministrationClients.sync(namespace);
            assertEquals(1024, admin.createQueue("default").getMaxMessageSizeInKilobytes());
            assertEquals(
                    102400,
                    admin.createQueue("large", new CreateQueueOptions().setMaxMessageSizeInKilobytes(102400))
                            .getMaxMessageSizeInKilobytes());
            assertEquals(
                    2048L,
                    namespace
                            .getTopic(
                                    admin.createTopic("t", new CreateTopicOptions().setMaxMessageSizeInKilobytes(2048))
                                            .getName())
                            .maxMessageSizeInKilobytes());
            AdminFixture.assertBadRequest(
                    () -> admin.createQueue("huge", new CreateQueueOptions().setMaxMessageSizeInKilobytes(102401)),
                    "maxMessageSizeInKilobytes");
            NamespaceProperties properties = admin.getNamespaceProperties();
            assertEquals("Premium", properties.getMessagingSku().toString());
            assertEquals(1, properties.getMessagingUnits());
        }
    }

    @Test
    @DisplayName("TTL-7 Basic caps the default message TTL at 14 days")
    void basic() {
        try (Namespace namespace = Namespace.builder().tier(Tier.BASIC).build()) {
            ServiceBusAdministrationClient admin = AdministrationClients.sync(namespace);
            assertEquals(Duration.ofDays(14), admin.createQueue("q").getDefaultMessageTimeToLive());
            assertEquals(
                    "Basic", admin.getNamespaceProperties().getMessagingSku().toString());
        }
    }
}
