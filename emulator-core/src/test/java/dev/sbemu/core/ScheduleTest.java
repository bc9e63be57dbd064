package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.minutes;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ScheduleTest {

    @Test
    @DisplayName("SCH-1 the schedule API returns the scheduled message's sequence number")
    void scheduleReturnsSequenceNumber() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("before"));

        long seq = ns.schedule("q", msg("later"), minutes(5));
        long[] batch = ns.schedule("q", List.of(msg("x"), msg("y")), minutes(6));

        assertEquals(2, seq);
        assertEquals(3, batch[0]);
        assertEquals(4, batch[1]);
        BrokeredMessage peeked = ns.peek(Q, seq, 1).get(0);
        assertEquals("later", peeked.message().messageId());
        assertEquals(MessageState.SCHEDULED, peeked.state());
        assertEquals(minutes(5), peeked.scheduledEnqueueTime());
        assertEquals(3, ns.runtimeInfo(Q).scheduledMessageCount());
    }

    @Test
    @DisplayName("SCH-1 SCH-2 a message sent with a future scheduledEnqueueTime appears exactly at that instant")
    void sendWithScheduledEnqueueTime() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send(
                "q",
                Message.builder()
                        .messageId("m1")
                        .body("x")
                        .scheduledEnqueueTime(minutes(5))
                        .build());

        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 1));
        assertEquals(1, ns.runtimeInfo(Q).scheduledMessageCount());
        assertEquals(0, ns.runtimeInfo(Q).activeMessageCount());
        ns.clock().advanceTo(minutes(5).minusMillis(1));
        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 1));

        ns.clock().advanceTo(minutes(5));
        BrokeredMessage m = lockOne(ns, Q);

        assertEquals("m1", m.message().messageId());
        assertEquals(minutes(5), m.enqueuedTime());
        assertEquals(MessageState.ACTIVE, m.state());
        assertEquals(0, ns.runtimeInfo(Q).scheduledMessageCount());
    }

    @Test
    @DisplayName("SCH-2 cancelling a scheduled message deletes it: it never appears")
    void cancelDeletes() {
        Namespace ns = namespace();
        ns.createQueue("q");
        long keep = ns.schedule("q", msg("keep"), minutes(5));
        long drop = ns.schedule("q", msg("drop"), minutes(5));

        ns.cancelScheduled("q", drop);
        ns.clock().advance(Duration.ofMinutes(10));

        assertEquals(List.of("keep"), ids(ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10)));
        JournalEvent cancelled = events(ns, JournalEvent.Type.CANCELLED).get(0);
        assertEquals(drop, cancelled.sequenceNumber());
        assertEquals(T0, cancelled.at());
        assertEquals(1, events(ns, JournalEvent.Type.ACTIVATED).size());
        assertEquals(1, keep);
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
    }

    @Test
    @DisplayName("SCH-2 cancelling an unknown, already cancelled or activated sequence number fails with "
            + "MESSAGE_NOT_FOUND")
    void cancelUnknownFails() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("active"));
        long seq = ns.schedule("q", msg("s"), minutes(5));
        long activated = ns.schedule("q", msg("a"), minutes(1));
        ns.cancelScheduled("q", seq);
        ns.clock().advance(Duration.ofMinutes(2));

        BrokerException unknown =
                assertThrows(BrokerException.MessageNotFound.class, () -> ns.cancelScheduled("q", 999));
        assertEquals(ErrorReason.MESSAGE_NOT_FOUND, unknown.reason());
        assertThrows(BrokerException.MessageNotFound.class, () -> ns.cancelScheduled("q", seq));
        assertThrows(BrokerException.MessageNotFound.class, () -> ns.cancelScheduled("q", activated));
        assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.cancelScheduled("q", 1),
                "an active message is not a scheduled one");
        assertEquals(List.of("active", "a"), ids(ns.peek(Q, 0, 10)));
    }

    @Test
    @DisplayName("SCH-3 peek shows scheduled messages with state SCHEDULED in sequence-number order among the rest")
    void peekShowsScheduled() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("a"));
        ns.schedule("q", msg("s"), minutes(5));
        ns.send("q", msg("b"));

        List<BrokeredMessage> peeked = ns.peek(Q, 0, 10);

        assertEquals(List.of("a", "s", "b"), ids(peeked));
        assertEquals(
                List.of(1L, 2L, 3L),
                peeked.stream().map(BrokeredMessage::sequenceNumber).toList());
        assertEquals(
                List.of(MessageState.ACTIVE, MessageState.SCHEDULED, MessageState.ACTIVE),
                peeked.stream().map(BrokeredMessage::state).toList());
        assertEquals(List.of("a", "b"), ids(ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10)));
    }

    @Test
    @DisplayName("SCH-4 on activation the message gets a new sequence number and enqueuedTime = activation instant")
    void activationRenumbers() {
        Namespace ns = namespace();
        ns.createQueue("q");
        long scheduledAs = ns.schedule("q", msg("s"), minutes(5));
        ns.send("q", msg("a"));

        ns.clock().advance(Duration.ofMinutes(7));
        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10);

        assertEquals(1, scheduledAs);
        assertEquals(List.of("a", "s"), ids(got));
        assertEquals(2, got.get(0).sequenceNumber());
        assertEquals(3, got.get(1).sequenceNumber());
        assertEquals(minutes(5), got.get(1).enqueuedTime());
        JournalEvent activated = events(ns, JournalEvent.Type.ACTIVATED).get(0);
        assertEquals(minutes(5), activated.at());
        assertEquals(3, activated.sequenceNumber());
        assertEquals("scheduled as #1", activated.detail());
    }

    @Test
    @DisplayName("SCH-5 there are no recurring schedules: a scheduled message activates once")
    void noRecurrence() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.schedule("q", msg("once"), minutes(1));

        ns.clock().advance(Duration.ofMinutes(2));
        assertEquals(List.of("once"), ids(ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10)));
        ns.clock().advance(Duration.ofDays(2));

        assertEquals(List.of(), ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10));
        assertEquals(1, events(ns, JournalEvent.Type.ACTIVATED).size());
        assertEquals(0, ns.runtimeInfo(Q).scheduledMessageCount());
    }

    @Test
    @DisplayName("SCH-6 a scheduled time at or before now enqueues the message at once")
    void pastScheduleEnqueuesAtOnce() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.clock().advance(Duration.ofMinutes(10));

        long past = ns.schedule("q", msg("past"), minutes(3));
        long now = ns.schedule("q", msg("now"), minutes(10));
        ns.send(
                "q",
                Message.builder()
                        .messageId("sent")
                        .body("x")
                        .scheduledEnqueueTime(T0)
                        .build());

        assertEquals(0, ns.runtimeInfo(Q).scheduledMessageCount());
        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.PEEK_LOCK, 10);
        assertEquals(List.of("past", "now", "sent"), ids(got));
        assertEquals(past, got.get(0).sequenceNumber());
        assertEquals(now, got.get(1).sequenceNumber());
        assertEquals(minutes(10), got.get(0).enqueuedTime());
        assertEquals(MessageState.ACTIVE, got.get(2).state());
        assertEquals(List.of(), events(ns, JournalEvent.Type.SCHEDULED));
    }

    @Test
    @DisplayName("SCH-7 scheduled messages take part in duplicate detection")
    void scheduledMessagesAreDeduplicated() {
        Namespace ns = namespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .requiresDuplicateDetection(true)
                        .duplicateDetectionHistoryTimeWindow(Duration.ofMinutes(10))
                        .build());

        ns.schedule("q", msg("dup"), minutes(1));
        ns.send("q", msg("dup"));
        ns.schedule("q", msg("dup"), minutes(2));
        ns.clock().advance(Duration.ofMinutes(3));

        assertEquals(List.of("dup"), ids(ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10)));
        assertEquals(2, events(ns, JournalEvent.Type.DUPLICATE_DROPPED).size());
    }

    @Test
    @DisplayName("SCH-7 on a topic, scheduled messages are not peeked on subscriptions; the topic counts them; "
            + "they arrive with a new sequence number on activation")
    void topicScheduledMessagesInvisibleOnSubscriptions() {
        Namespace ns = namespace();
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        EntityPath sub = EntityPath.subscription("t", "s");

        long scheduledAs = ns.schedule("t", msg("later"), minutes(5));
        long cancelled = ns.schedule("t", msg("never"), minutes(5));
        ns.send("t", msg("now"));

        assertEquals(List.of("now"), ids(ns.peek(sub, 0, 10)));
        assertEquals(2, ns.runtimeInfo(EntityPath.queue("t")).scheduledMessageCount());
        assertEquals(0, ns.runtimeInfo(sub).scheduledMessageCount());
        ns.cancelScheduled("t", cancelled);
        assertThrows(BrokerException.MessageNotFound.class, () -> ns.cancelScheduled("t", cancelled));

        ns.clock().advance(Duration.ofMinutes(5));

        List<BrokeredMessage> got = ns.receive(sub, ReceiveMode.RECEIVE_AND_DELETE, 10);
        assertEquals(List.of("now", "later"), ids(got));
        assertEquals(1, scheduledAs);
        assertEquals(3, got.get(0).sequenceNumber());
        assertEquals(4, got.get(1).sequenceNumber());
        assertEquals(minutes(5), got.get(1).enqueuedTime());
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("t")).scheduledMessageCount());
    }
}
