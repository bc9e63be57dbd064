package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.ResourceExistsException;
import com.azure.core.exception.ResourceNotFoundException;
import com.azure.messaging.servicebus.administration.models.CreateTopicOptions;
import com.azure.messaging.servicebus.administration.models.EntityStatus;
import com.azure.messaging.servicebus.administration.models.TopicProperties;
import dev.sbemu.core.TopicOptions;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TopicAdministrationTest extends AdminFixture {

    @Test
    @DisplayName("TTL-7 a default topic reports the service's defaults")
    void defaults() {
        TopicProperties t = admin.createTopic("events");
        assertEquals("events", t.getName());
        assertEquals(MAX, t.getDefaultMessageTimeToLive());
        assertEquals(MAX, t.getAutoDeleteOnIdle());
        assertEquals(Duration.ofMinutes(1), t.getDuplicateDetectionHistoryTimeWindow());
        assertEquals(1024, t.getMaxSizeInMegabytes());
        assertEquals(256, t.getMaxMessageSizeInKilobytes());
        assertEquals(EntityStatus.ACTIVE, t.getStatus());
        assertFalse(t.isDuplicateDetectionRequired());
        assertFalse(t.isPartitioningEnabled());
        assertTrue(t.isBatchedOperationsEnabled());
        assertNull(t.getUserMetadata());
        assertEquals(
                TopicOptions.defaults().toBuilder()
                        .supportOrdering(t.isOrderingSupported())
                        .build(),
                namespace.getTopic("events"));
    }

    @Test
    @DisplayName("every CreateTopicOptions property reaches the core and comes back")
    void everyPropertyRoundTrips() {
        CreateTopicOptions options = new CreateTopicOptions()
                .setDefaultMessageTimeToLive(Duration.ofHours(5))
                .setAutoDeleteOnIdle(Duration.ofDays(1))
                .setDuplicateDetectionRequired(true)
                .setDuplicateDetectionHistoryTimeWindow(Duration.ofMinutes(3))
                .setMaxSizeInMegabytes(5120)
                .setStatus(EntityStatus.SEND_DISABLED)
                .setPartitioningEnabled(true)
                .setBatchedOperationsEnabled(false)
                .setOrderingSupported(true)
                .setUserMetadata("events of team b");
        TopicProperties created = admin.createTopic("events", options);
        for (TopicProperties t : new TopicProperties[] {created, admin.getTopic("events")}) {
            assertEquals(Duration.ofHours(5), t.getDefaultMessageTimeToLive());
            assertEquals(Duration.ofDays(1), t.getAutoDeleteOnIdle());
            assertTrue(t.isDuplicateDetectionRequired());
            assertEquals(Duration.ofMinutes(3), t.getDuplicateDetectionHistoryTimeWindow());
            assertEquals(16 * 5120, t.getMaxSizeInMegabytes(), "LIM-6: the 16 partitions together");
            assertEquals(EntityStatus.SEND_DISABLED, t.getStatus());
            assertTrue(t.isPartitioningEnabled());
            assertFalse(t.isBatchedOperationsEnabled());
            assertTrue(t.isOrderingSupported());
            assertEquals("events of team b", t.getUserMetadata());
        }
        TopicOptions core = namespace.getTopic("events");
        assertEquals(Duration.ofHours(5), core.defaultMessageTimeToLive());
        assertTrue(core.supportOrdering());
        assertEquals(dev.sbemu.core.EntityStatus.SEND_DISABLED, core.status());
    }

    @Test
    @DisplayName("updates through TopicProperties setters")
    void update() {
        TopicProperties t = admin.createTopic("events");
        t.setDefaultMessageTimeToLive(Duration.ofMinutes(10))
                .setAutoDeleteOnIdle(Duration.ofHours(1))
                .setDuplicateDetectionHistoryTimeWindow(Duration.ofMinutes(4))
                .setMaxSizeInMegabytes(2048)
                .setStatus(EntityStatus.DISABLED)
                .setDuplicateDetectionRequired(true)
                .setOrderingSupported(true)
                .setUserMetadata("v2");
        TopicProperties updated = admin.updateTopic(t);
        assertEquals(Duration.ofMinutes(10), updated.getDefaultMessageTimeToLive());
        assertEquals(Duration.ofHours(1), updated.getAutoDeleteOnIdle());
        assertEquals(Duration.ofMinutes(4), updated.getDuplicateDetectionHistoryTimeWindow());
        assertEquals(2048, updated.getMaxSizeInMegabytes());
        assertEquals(EntityStatus.DISABLED, updated.getStatus());
        assertTrue(updated.isDuplicateDetectionRequired());
        assertTrue(updated.isOrderingSupported());
        assertEquals("v2", updated.getUserMetadata());
        assertEquals(Duration.ofMinutes(10), namespace.getTopic("events").defaultMessageTimeToLive());
    }

    @Test
    @DisplayName("LIM-3 topics: 404 for unknown, 409 for an existing queue or topic name, exists, delete")
    void errorsExistsDelete() {
        admin.createTopic("events");
        admin.createQueue("orders");
        ResourceExistsException exists = assertThrows(ResourceExistsException.class, () -> admin.createTopic("events"));
        assertTrue(exists.getMessage().contains("'events' already exists"), exists.getMessage());
        assertThrows(ResourceExistsException.class, () -> admin.createTopic("orders"));
        ResourceNotFoundException missing = assertThrows(ResourceNotFoundException.class, () -> admin.getTopic("nope"));
        assertTrue(missing.getMessage().contains("'nope' could not be found"), missing.getMessage());
        assertTrue(admin.getTopicExists("events"));
        assertFalse(admin.getTopicExists("nope"));
        admin.deleteTopic("events");
        assertFalse(admin.getTopicExists("events"));
        assertThrows(ResourceNotFoundException.class, () -> admin.deleteTopic("events"));
    }

    @Test
    @DisplayName("ADI-2 and LIM-2 apply to topics")
    void validation() {
        assertBadRequest(
                () -> admin.createTopic("t", new CreateTopicOptions().setAutoDeleteOnIdle(Duration.ofMinutes(1))),
                "autoDeleteOnIdle",
                "PT5M");
        assertBadRequest(() -> admin.createTopic("t!"), "topic name");
        assertBadRequest(() -> admin.createTopic("t".repeat(261)), "topic name", "260");
    }
}
