package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.ResourceExistsException;
import com.azure.core.exception.ResourceNotFoundException;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.EntityStatus;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class QueueAdministrationTest extends AdminFixture {

    @Test
    @DisplayName("TTL-7 a default queue reports the service's defaults, unset durations as TimeSpan.MaxValue")
    void defaults() {
        QueueProperties q = admin.createQueue("orders");
        assertEquals("orders", q.getName());
        assertEquals(Duration.ofMinutes(1), q.getLockDuration());
        assertEquals(10, q.getMaxDeliveryCount());
        assertEquals(MAX, q.getDefaultMessageTimeToLive());
        assertEquals(MAX, q.getAutoDeleteOnIdle());
        assertEquals(Duration.ofMinutes(1), q.getDuplicateDetectionHistoryTimeWindow());
        assertEquals(1024, q.getMaxSizeInMegabytes());
        assertEquals(256, q.getMaxMessageSizeInKilobytes());
        assertEquals(EntityStatus.ACTIVE, q.getStatus());
        assertFalse(q.isSessionRequired());
        assertFalse(q.isDuplicateDetectionRequired());
        assertFalse(q.isDeadLetteringOnMessageExpiration());
        assertFalse(q.isPartitioningEnabled());
        assertTrue(q.isBatchedOperationsEnabled());
        assertNull(q.getForwardTo());
        assertNull(q.getForwardDeadLetteredMessagesTo());
        assertNull(q.getUserMetadata());
        assertEquals(QueueOptions.defaults(), namespace.getQueue("orders"));
        assertEquals(q.getDefaultMessageTimeToLive(), admin.getQueue("orders").getDefaultMessageTimeToLive());
    }

    @Test
    @DisplayName("every CreateQueueOptions property reaches the core and comes back")
    void everyPropertyRoundTrips() {
        admin.createQueue("target");
        admin.createQueue("dead-target");
        CreateQueueOptions options = new CreateQueueOptions()
                .setLockDuration(Duration.ofSeconds(45))
                .setMaxDeliveryCount(3)
                .setDefaultMessageTimeToLive(Duration.ofDays(2).plusHours(3))
                .setDeadLetteringOnMessageExpiration(true)
                .setAutoDeleteOnIdle(Duration.ofMinutes(30))
                .setDuplicateDetectionRequired(true)
                .setDuplicateDetectionHistoryTimeWindow(Duration.ofMinutes(2))
                .setForwardTo("target")
                .setForwardDeadLetteredMessagesTo("dead-target")
                .setMaxSizeInMegabytes(2048)
                .setStatus(EntityStatus.SEND_DISABLED)
                .setPartitioningEnabled(true)
                .setBatchedOperationsEnabled(false)
                .setUserMetadata("owner=team-a");

        QueueProperties created = admin.createQueue("orders", options);
        for (QueueProperties q : new QueueProperties[] {created, admin.getQueue("orders")}) {
            assertEquals(Duration.ofSeconds(45), q.getLockDuration());
            assertEquals(3, q.getMaxDeliveryCount());
            assertEquals(Duration.ofDays(2).plusHours(3), q.getDefaultMessageTimeToLive());
            assertTrue(q.isDeadLetteringOnMessageExpiration());
            assertEquals(Duration.ofMinutes(30), q.getAutoDeleteOnIdle());
            assertTrue(q.isDuplicateDetectionRequired());
            assertEquals(Duration.ofMinutes(2), q.getDuplicateDetectionHistoryTimeWindow());
            assertEquals("https://sbemu.servicebus.windows.net/target", q.getForwardTo());
            assertEquals("https://sbemu.servicebus.windows.net/dead-target", q.getForwardDeadLetteredMessagesTo());
            assertEquals(16 * 2048, q.getMaxSizeInMegabytes(), "LIM-6: the 16 partitions together");
            assertEquals(EntityStatus.SEND_DISABLED, q.getStatus());
            assertTrue(q.isPartitioningEnabled());
            assertFalse(q.isBatchedOperationsEnabled());
            assertEquals("owner=team-a", q.getUserMetadata());
        }
        QueueOptions core = namespace.getQueue("orders");
        assertEquals("target", core.forwardTo());
        assertEquals("dead-target", core.forwardDeadLetteredMessagesTo());
        assertEquals(dev.sbemu.core.EntityStatus.SEND_DISABLED, core.status());
        assertEquals(Duration.ofMinutes(30), core.autoDeleteOnIdle());
    }

    @Test
    @DisplayName("a session queue round-trips requiresSession")
    void sessions() {
        assertTrue(admin.createQueue("s", new CreateQueueOptions().setSessionRequired(true))
                .isSessionRequired());
        assertTrue(namespace.getQueue("s").requiresSession());
    }

    @Test
    @DisplayName("updates through QueueProperties setters replace the description")
    void updateThroughSetters() {
        admin.createQueue("target");
        QueueProperties q = admin.createQueue("orders");
        q.setLockDuration(Duration.ofSeconds(20))
                .setMaxDeliveryCount(4)
                .setDefaultMessageTimeToLive(Duration.ofHours(1))
                .setDeadLetteringOnMessageExpiration(true)
                .setAutoDeleteOnIdle(Duration.ofHours(2))
                .setDuplicateDetectionHistoryTimeWindow(Duration.ofMinutes(5))
                .setForwardTo("target")
                .setMaxSizeInMegabytes(4096)
                .setStatus(EntityStatus.DISABLED)
                .setBatchedOperationsEnabled(false)
                .setUserMetadata("v2");

        QueueProperties updated = admin.updateQueue(q);

        assertEquals(Duration.ofSeconds(20), updated.getLockDuration());
        assertEquals(4, updated.getMaxDeliveryCount());
        assertEquals(Duration.ofHours(1), updated.getDefaultMessageTimeToLive());
        assertTrue(updated.isDeadLetteringOnMessageExpiration());
        assertEquals(Duration.ofHours(2), updated.getAutoDeleteOnIdle());
        assertEquals(Duration.ofMinutes(5), updated.getDuplicateDetectionHistoryTimeWindow());
        assertEquals("https://sbemu.servicebus.windows.net/target", updated.getForwardTo());
        assertEquals(4096, updated.getMaxSizeInMegabytes());
        assertEquals(EntityStatus.DISABLED, updated.getStatus());
        assertFalse(updated.isBatchedOperationsEnabled());
        assertEquals("v2", updated.getUserMetadata());
        assertEquals(Duration.ofSeconds(20), namespace.getQueue("orders").lockDuration());
        assertEquals("target", namespace.getQueue("orders").forwardTo());

        updated.setForwardTo(null).setUserMetadata(null);
        QueueProperties cleared = admin.updateQueue(updated);
        assertNull(cleared.getForwardTo());
        assertNull(cleared.getUserMetadata());
        assertNull(namespace.getQueue("orders").forwardTo());
    }

    @Test
    @DisplayName("LIM-3 updating a queue that does not exist is ResourceNotFoundException")
    void updateMissing() {
        QueueProperties q = admin.createQueue("orders");
        admin.deleteQueue("orders");
        ResourceNotFoundException e = assertThrows(ResourceNotFoundException.class, () -> admin.updateQueue(q));
        assertTrue(e.getMessage().contains("'orders' could not be found"), e.getMessage());
    }

    @Test
    @DisplayName("get, exists, delete; the WithResponse variants carry the HTTP status")
    void getExistsDelete() {
        Response<QueueProperties> created =
                admin.createQueueWithResponse("orders", new CreateQueueOptions(), Context.NONE);
        assertEquals(201, created.getStatusCode());
        assertEquals(200, admin.getQueueWithResponse("orders", Context.NONE).getStatusCode());
        assertTrue(admin.getQueueExists("orders"));
        assertFalse(admin.getQueueExists("other"));
        assertEquals(200, admin.deleteQueueWithResponse("orders", Context.NONE).getStatusCode());
        assertFalse(admin.getQueueExists("orders"));
        assertFalse(namespace.queueExists("orders"));
    }

    @Test
    @DisplayName("LIM-3 unknown queue: ResourceNotFoundException naming it, on get and delete")
    void notFound() {
        ResourceNotFoundException get = assertThrows(ResourceNotFoundException.class, () -> admin.getQueue("nope"));
        assertTrue(get.getMessage().contains("'nope' could not be found"), get.getMessage());
        assertEquals(404, get.getResponse().getStatusCode());
        ResourceNotFoundException delete =
                assertThrows(ResourceNotFoundException.class, () -> admin.deleteQueue("nope"));
        assertTrue(delete.getMessage().contains("'nope'"), delete.getMessage());
    }

    @Test
    @DisplayName("LIM-3 existing name: ResourceExistsException, for a queue or a topic of that name")
    void alreadyExists() {
        admin.createQueue("orders");
        admin.createTopic("events");
        ResourceExistsException queue = assertThrows(ResourceExistsException.class, () -> admin.createQueue("orders"));
        assertTrue(queue.getMessage().contains("'orders' already exists"), queue.getMessage());
        assertEquals(409, queue.getResponse().getStatusCode());
        assertThrows(ResourceExistsException.class, () -> admin.createQueue("events"));
    }

    @Test
    @DisplayName("GET of a topic's name answers the topic, as the service does; SDK 7.17's getQueue then fails")
    void queueGetOnTopicName() {
        admin.createTopic("events");
        // The service's entity endpoint is shared by queues and topics. The SDK reads the TopicDescription
        // entry as a queue entry without description and fails inside EntityHelper.toModel.
        NullPointerException e = assertThrows(NullPointerException.class, () -> admin.getQueue("events"));
        assertTrue(e.getMessage().contains("description"), e.getMessage());
        assertEquals("events", admin.getTopic("events").getName());
    }

    @Test
    @DisplayName("LIM-2 queue names: up to 260 characters, letters, digits, '.', '-', '_', '/'")
    void names() {
        assertNotNull(admin.createQueue("orders/eu-west.v1_a"));
        assertEquals(
                "orders/eu-west.v1_a", admin.getQueue("orders/eu-west.v1_a").getName());
        assertNotNull(admin.createQueue("q".repeat(260)));
        assertBadRequest(() -> admin.createQueue("q".repeat(261)), "queue name", "at most 260");
        assertBadRequest(() -> admin.createQueue("bad name"), "queue name", "bad name");
        assertBadRequest(() -> admin.createQueue("-leading"), "queue name");
        assertBadRequest(() -> admin.createQueue("trailing."), "queue name");
    }

    @Test
    @DisplayName(
            "LIM-2 a queue or topic name cannot hold a 'Subscriptions' segment: that path addresses a subscription")
    void subscriptionsSegmentRefused() {
        assertBadRequest(() -> admin.createQueue("t/subscriptions/s"), "queue name", "Subscriptions");
        assertBadRequest(() -> admin.createTopic("a/Subscriptions"), "topic name", "Subscriptions");
        assertTrue(namespace.queueNames().isEmpty());
        assertTrue(namespace.topicNames().isEmpty());
        assertNotNull(admin.createQueue("t/subscriptionsx/s"));
    }

    @Test
    @DisplayName("LOCK-1 lock duration between 5 seconds and 5 minutes, else 400 naming the range")
    void lockDurationRange() {
        assertEquals(
                Duration.ofSeconds(5),
                admin.createQueue("a", new CreateQueueOptions().setLockDuration(Duration.ofSeconds(5)))
                        .getLockDuration());
        assertEquals(
                Duration.ofMinutes(5),
                admin.createQueue("b", new CreateQueueOptions().setLockDuration(Duration.ofMinutes(5)))
                        .getLockDuration());
        assertBadRequest(
                () -> admin.createQueue("c", new CreateQueueOptions().setLockDuration(Duration.ofSeconds(4))),
                "lockDuration",
                "PT4S",
                "PT5S and PT5M");
        assertBadRequest(
                () -> admin.createQueue("d", new CreateQueueOptions().setLockDuration(Duration.ofMinutes(6))),
                "lockDuration",
                "PT6M");
        assertFalse(namespace.queueExists("c"));
    }

    @Test
    @DisplayName("ADI-2 autoDeleteOnIdle at least 5 minutes, else 400 naming the minimum")
    void autoDeleteMinimum() {
        assertEquals(
                Duration.ofMinutes(5),
                admin.createQueue("a", new CreateQueueOptions().setAutoDeleteOnIdle(Duration.ofMinutes(5)))
                        .getAutoDeleteOnIdle());
        assertBadRequest(
                () -> admin.createQueue("b", new CreateQueueOptions().setAutoDeleteOnIdle(Duration.ofMinutes(4))),
                "autoDeleteOnIdle",
                "PT5M");
    }

    @Test
    @DisplayName("DLQ-2 maxDeliveryCount at least 1")
    void maxDeliveryCountMinimum() {
        assertEquals(
                1,
                admin.createQueue("a", new CreateQueueOptions().setMaxDeliveryCount(1))
                        .getMaxDeliveryCount());
        assertBadRequest(
                () -> admin.createQueue("b", new CreateQueueOptions().setMaxDeliveryCount(0)),
                "maxDeliveryCount",
                "at least 1");
    }

    @Test
    @DisplayName("DUP-1 duplicate detection window between 20 seconds and 7 days")
    void duplicateWindowRange() {
        assertBadRequest(
                () -> admin.createQueue(
                        "a", new CreateQueueOptions().setDuplicateDetectionHistoryTimeWindow(Duration.ofSeconds(10))),
                "duplicateDetectionHistoryTimeWindow");
        assertBadRequest(
                () -> admin.createQueue(
                        "b", new CreateQueueOptions().setDuplicateDetectionHistoryTimeWindow(Duration.ofDays(8))),
                "duplicateDetectionHistoryTimeWindow");
    }

    @Test
    @DisplayName("FWD-1 a forwarding target must exist: 400 naming it")
    void forwardTargetMustExist() {
        assertBadRequest(
                () -> admin.createQueue("a", new CreateQueueOptions().setForwardTo("missing")),
                "forwardTo",
                "missing",
                "existing queue or topic");
        assertBadRequest(
                () -> admin.createQueue(
                        "b", new CreateQueueOptions().setForwardTo("https://elsewhere.servicebus.windows.net/x")),
                "outside this namespace");
    }

    @Test
    @DisplayName("LIM-1 maxMessageSizeInKilobytes can be set on Premium only")
    void maxMessageSizeStandard() {
        assertBadRequest(
                () -> admin.createQueue("a", new CreateQueueOptions().setMaxMessageSizeInKilobytes(2048)),
                "maxMessageSizeInKilobytes",
                "Premium");
    }
}
