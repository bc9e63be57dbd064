package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.config.NamespaceSettings;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The service's quotas (issue 32, item 6): an entity's MaxSizeInMegabytes and the namespace's count of entities. */
class QuotaTest {
    private static Message big(String id) {
        return Message.builder().messageId(id).body(new byte[200 * 1024]).build();
    }

    @Test
    @DisplayName("RES-5 a queue holds at most its MaxSizeInMegabytes (its dead-letter queue included): a send beyond "
            + "is refused with QUOTA_EXCEEDED and nothing of it taken; a receive makes room")
    void queueSize() {
        try (Namespace ns = Namespace.create()) {
            ns.createQueue("q", QueueOptions.builder().maxSizeInMegabytes(1).build());
            for (int i = 0; i < 5; i++) {
                ns.send("q", big("m" + i));
            }
            BrokerException.QuotaExceeded full =
                    assertThrows(BrokerException.QuotaExceeded.class, () -> ns.send("q", big("m5")));
            assertEquals(ErrorReason.QUOTA_EXCEEDED, full.reason());
            assertTrue(
                    full.getMessage().startsWith("The maximum entity size has been reached or exceeded for 'q'"),
                    full.getMessage());
            assertThrows(
                    BrokerException.QuotaExceeded.class,
                    () -> ns.schedule("q", List.of(big("s")), Instant.parse("2100-01-01T00:00:00Z")));
            assertEquals(5, ns.runtimeInfo(EntityPath.queue("q")).totalMessageCount());

            // a dead-lettered message still counts; a completed one does not
            BrokeredMessage first =
                    ns.receive(EntityPath.queue("q"), ReceiveMode.PEEK_LOCK, 1).get(0);
            ns.deadLetter(EntityPath.queue("q"), first.lockToken());
            assertThrows(BrokerException.QuotaExceeded.class, () -> ns.send("q", big("m5")));
            ns.receive(EntityPath.queue("q"), ReceiveMode.RECEIVE_AND_DELETE, 1);
            ns.send("q", big("m5"));
        }
    }

    @Test
    @DisplayName("RES-5 a topic's size is its subscriptions' messages: a send that would take it past its "
            + "MaxSizeInMegabytes is refused with QUOTA_EXCEEDED")
    void topicSize() {
        try (Namespace ns = Namespace.create()) {
            ns.createTopic("t", TopicOptions.builder().maxSizeInMegabytes(1).build());
            ns.createSubscription("t", "a");
            ns.createSubscription("t", "b");
            ns.send("t", big("m0"));
            ns.send("t", big("m1"));
            ns.send("t", big("m2")); // the subscriptions hold 4 x 200 KB: room for one more copy
            // now 6 x 200 KB held: full
            assertThrows(BrokerException.QuotaExceeded.class, () -> ns.send("t", big("m3")));
            assertEquals(3, ns.runtimeInfo(EntityPath.subscription("t", "a")).totalMessageCount());
        }
    }

    @Test
    @DisplayName("RES-6 a namespace holds at most the tier's queues and topics (Premium: 1,000 per messaging unit; "
            + "Basic and Standard: 10,000); one more is refused with QUOTA_EXCEEDED, and a deletion makes room")
    void entityCount() {
        assertEquals(10_000, Tier.STANDARD.maxQueuesAndTopics());
        assertEquals(10_000, Tier.BASIC.maxQueuesAndTopics());
        try (Namespace ns = Namespace.builder().tier(Tier.PREMIUM).build()) {
            for (int i = 0; i < 500; i++) {
                ns.createQueue("q" + i);
                ns.createTopic("t" + i);
            }
            assertThrows(BrokerException.QuotaExceeded.class, () -> ns.createQueue("one-more"));
            assertThrows(BrokerException.QuotaExceeded.class, () -> ns.createTopic("one-more"));
            // an existing name is still refused as existing
            assertThrows(BrokerException.EntityAlreadyExists.class, () -> ns.createQueue("q0"));
            ns.createSubscription("t0", "subscriptions-do-not-count");
            ns.deleteQueue("q0");
            ns.createQueue("one-more");
        }
    }

    @Test
    @DisplayName("NS-9 RES-6 a namespace given its own most queues and topics holds that many, whatever its tier; "
            + "its settings keep it, so a reset (NamespaceSettings.of, then start) keeps it too")
    void ownEntityCount() {
        try (Namespace ns =
                NamespaceSettings.defaults().withMaxQueuesAndTopics(2).start()) {
            assertEquals(2, ns.maxQueuesAndTopics());
            ns.createQueue("a");
            ns.createTopic("b");
            BrokerException.QuotaExceeded e =
                    assertThrows(BrokerException.QuotaExceeded.class, () -> ns.createQueue("c"));
            assertTrue(e.getMessage().contains("(2 set for this namespace)"), e.getMessage());
            assertEquals(2, NamespaceSettings.of(ns).maxQueuesAndTopics());
            try (Namespace again = NamespaceSettings.of(ns).start()) {
                assertEquals(2, again.maxQueuesAndTopics());
                assertThrows(BrokerException.QuotaExceeded.class, () -> again.createQueue("c"));
            }
        }
        try (Namespace ns = Namespace.builder().tier(Tier.PREMIUM).build()) {
            assertEquals(1_000, ns.maxQueuesAndTopics());
            assertEquals(0, NamespaceSettings.of(ns).maxQueuesAndTopics());
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> NamespaceSettings.defaults().withMaxQueuesAndTopics(-1));
    }
}
