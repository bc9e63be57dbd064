package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.minutes;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RuntimeInfoTest {

    @Test
    @DisplayName("runtime counts of a queue: active (locked included), deferred, scheduled, dead-letter, total, size")
    void queueCounts() {
        Namespace ns = namespace();
        ns.createQueue("q");
        Message big = Message.builder().messageId("big").body(new byte[1000]).build();
        List<Message> sent = List.of(msg("active"), msg("locked"), msg("deferred"), msg("dead"), big);
        Message scheduled = msg("scheduled");
        ns.send("q", sent);
        ns.schedule("q", scheduled, minutes(10));
        List<BrokeredMessage> taken = ns.receive(Q, ReceiveMode.PEEK_LOCK, 4);
        ns.abandon(Q, taken.get(0).lockToken());
        ns.defer(Q, taken.get(2).lockToken());
        ns.deadLetter(Q, taken.get(3).lockToken(), "R", "D", Map.of());

        EntityRuntimeInfo info = ns.runtimeInfo(Q);

        assertEquals(2 + 1, info.activeMessageCount(), "active, locked and big");
        assertEquals(1, info.deferredMessageCount());
        assertEquals(1, info.scheduledMessageCount());
        assertEquals(1, info.deadLetterMessageCount());
        assertEquals(0, info.transferDeadLetterMessageCount());
        assertEquals(6, info.totalMessageCount());
        long size = sent.stream().mapToLong(Message::sizeInBytes).sum() + scheduled.sizeInBytes();
        assertEquals(size, info.sizeInBytes());
        assertEquals(0, info.subscriptionCount());

        ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10);
        ns.complete(Q, taken.get(1).lockToken());
        EntityRuntimeInfo after = ns.runtimeInfo(Q);
        assertEquals(0, after.activeMessageCount());
        assertEquals(3, after.totalMessageCount());
        assertEquals(
                msg("deferred").sizeInBytes() + msg("dead").sizeInBytes() + scheduled.sizeInBytes(),
                after.sizeInBytes());
    }

    @Test
    @DisplayName("runtime timestamps: createdAt, updatedAt on update, accessedAt on use")
    void timestamps() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.clock().advance(Duration.ofMinutes(1));
        ns.send("q", msg("m"));
        ns.clock().advance(Duration.ofMinutes(1));
        ns.updateQueue("q", ns.getQueue("q").toBuilder().maxDeliveryCount(5).build());
        ns.clock().advance(Duration.ofMinutes(1));
        ns.peek(Q, 0, 1);
        ns.clock().advance(Duration.ofMinutes(1));

        EntityRuntimeInfo info = ns.runtimeInfo(Q);

        assertEquals(T0, info.createdAt());
        assertEquals(minutes(2), info.updatedAt());
        assertEquals(minutes(3), info.accessedAt());
    }

    @Test
    @DisplayName("runtime counts of a topic and its subscriptions: the topic holds only scheduled messages")
    void topicCounts() {
        Namespace ns = namespace();
        ns.createTopic("t");
        ns.createSubscription("t", "a");
        ns.createSubscription("t", "b");
        Message scheduled = msg("later");
        ns.send("t", List.of(msg("x"), msg("y")));
        ns.schedule("t", scheduled, minutes(5));
        EntityPath a = EntityPath.subscription("t", "a");
        ns.defer(a, ns.receive(a, ReceiveMode.PEEK_LOCK, 1).get(0).lockToken());

        EntityRuntimeInfo topic = ns.runtimeInfo(EntityPath.queue("t"));
        EntityRuntimeInfo subA = ns.runtimeInfo(a);
        EntityRuntimeInfo subB = ns.runtimeInfo(EntityPath.subscription("t", "b"));

        assertEquals(2, topic.subscriptionCount());
        assertEquals(1, topic.scheduledMessageCount());
        assertEquals(scheduled.sizeInBytes(), topic.sizeInBytes());
        assertEquals(1, subA.activeMessageCount());
        assertEquals(1, subA.deferredMessageCount());
        assertEquals(2, subA.totalMessageCount());
        assertEquals(2, subB.activeMessageCount());
        assertEquals(0, subB.scheduledMessageCount());
        assertEquals(msg("x").sizeInBytes() + msg("y").sizeInBytes(), subB.sizeInBytes());
    }
}
