package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.ResourceNotFoundException;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import com.azure.messaging.servicebus.administration.models.QueueRuntimeProperties;
import com.azure.messaging.servicebus.administration.models.SubscriptionRuntimeProperties;
import com.azure.messaging.servicebus.administration.models.TopicRuntimeProperties;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.ReceiveMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Runtime properties report the core's counts and virtual timestamps. */
class RuntimePropertiesTest extends AdminFixture {

    @Test
    @DisplayName("queue counts: active, scheduled, dead-lettered, total, size")
    void queueCounts() {
        admin.createQueue("orders");
        QueueRuntimeProperties empty = admin.getQueueRuntimeProperties("orders");
        assertEquals(0, empty.getTotalMessageCount());
        assertEquals(0, empty.getSizeInBytes());

        for (int i = 0; i < 3; i++) {
            namespace.send("orders", Message.ofText("order-" + i));
        }
        namespace.schedule(
                "orders", Message.ofText("later"), namespace.clock().instant().plusSeconds(600));
        EntityPath queue = EntityPath.queue("orders");
        List<BrokeredMessage> received = namespace.receive(queue, ReceiveMode.PEEK_LOCK, 1);
        namespace.deadLetter(queue, received.get(0).lockToken());

        QueueRuntimeProperties r = admin.getQueueRuntimeProperties("orders");
        assertEquals("orders", r.getName());
        assertEquals(2, r.getActiveMessageCount());
        assertEquals(1, r.getScheduledMessageCount());
        assertEquals(1, r.getDeadLetterMessageCount());
        assertEquals(0, r.getTransferDeadLetterMessageCount());
        assertEquals(0, r.getTransferMessageCount());
        assertEquals(4, r.getTotalMessageCount());
        assertTrue(r.getSizeInBytes() > 0, "size " + r.getSizeInBytes());
        assertEquals(namespace.runtimeInfo(queue).sizeInBytes(), r.getSizeInBytes());
    }

    @Test
    @DisplayName("timestamps are virtual: created at the clock's instant, updated when the queue is updated")
    void timestamps() {
        Instant created = namespace.clock().instant();
        QueueProperties q = admin.createQueue("orders");
        namespace.clock().advance(Duration.ofHours(2));
        admin.updateQueue(q.setUserMetadata("v2"));

        QueueRuntimeProperties r = admin.getQueueRuntimeProperties("orders");
        assertEquals(created, r.getCreatedAt().toInstant());
        assertEquals(created.plus(Duration.ofHours(2)), r.getUpdatedAt().toInstant());
        assertEquals(
                namespace.runtimeInfo(EntityPath.queue("orders")).accessedAt(),
                r.getAccessedAt().toInstant());
    }

    @Test
    @DisplayName("RUL-1 topic and subscription counts: fan-out to every subscription, subscription count")
    void topicAndSubscriptionCounts() {
        admin.createTopic("events");
        admin.createSubscription("events", "a");
        admin.createSubscription("events", "b");
        namespace.send("events", Message.ofText("one"));
        namespace.send("events", Message.ofText("two"));
        namespace.schedule(
                "events", Message.ofText("later"), namespace.clock().instant().plusSeconds(60));

        TopicRuntimeProperties topic = admin.getTopicRuntimeProperties("events");
        assertEquals("events", topic.getName());
        assertEquals(2, topic.getSubscriptionCount());
        assertEquals(1, topic.getScheduledMessageCount());
        assertEquals(namespace.runtimeInfo(EntityPath.queue("events")).sizeInBytes(), topic.getSizeInBytes());

        SubscriptionRuntimeProperties a = admin.getSubscriptionRuntimeProperties("events", "a");
        assertEquals("events", a.getTopicName());
        assertEquals("a", a.getSubscriptionName());
        assertEquals(2, a.getActiveMessageCount());
        assertEquals(2, a.getTotalMessageCount());
        assertEquals(0, a.getDeadLetterMessageCount());

        EntityPath b = EntityPath.subscription("events", "b");
        namespace.deadLetter(
                b, namespace.receive(b, ReceiveMode.PEEK_LOCK, 1).get(0).lockToken());
        SubscriptionRuntimeProperties afterDeadLetter = admin.getSubscriptionRuntimeProperties("events", "b");
        assertEquals(1, afterDeadLetter.getActiveMessageCount());
        assertEquals(1, afterDeadLetter.getDeadLetterMessageCount());
        assertEquals(2, afterDeadLetter.getTotalMessageCount());
    }

    @Test
    @DisplayName("LIM-3 runtime properties of unknown entities: ResourceNotFoundException")
    void unknown() {
        assertThrows(ResourceNotFoundException.class, () -> admin.getQueueRuntimeProperties("nope"));
        assertThrows(ResourceNotFoundException.class, () -> admin.getTopicRuntimeProperties("nope"));
        admin.createTopic("events");
        assertThrows(ResourceNotFoundException.class, () -> admin.getSubscriptionRuntimeProperties("events", "x"));
    }
}
