package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import dev.sbemu.core.filter.TrueFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Topics and subscriptions: RUL-1, RUL-5, TTL-8, SCH-7 (topics), ADI-3 (topics, subscriptions), ADI-4. */
class TopicSubscriptionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private final Namespace ns = Namespace.builder().startingAt(T0).build();

    private List<BrokeredMessage> drain(String topic, String subscription) {
        return ns.receive(EntityPath.subscription(topic, subscription), ReceiveMode.RECEIVE_AND_DELETE, 100);
    }

    private static List<String> ids(List<BrokeredMessage> messages) {
        return messages.stream().map(m -> m.message().messageId()).toList();
    }

    private static List<Long> sequenceNumbers(List<BrokeredMessage> messages) {
        return messages.stream().map(BrokeredMessage::sequenceNumber).toList();
    }

    private static Message msg(String id) {
        return Message.builder().messageId(id).body(id).build();
    }

    private static Message colored(String id, String color, int n) {
        return Message.builder()
                .messageId(id)
                .applicationProperty("color", color)
                .applicationProperty("n", n)
                .build();
    }

    private void advanceMinutes(long minutes) {
        ns.clock().advance(Duration.ofMinutes(minutes));
    }

    private Instant autoDeletedAt(String entity) {
        return ns.journal().events().stream()
                .filter(e ->
                        e.type() == JournalEvent.Type.AUTO_DELETED && e.entity().equals(entity))
                .map(JournalEvent::at)
                .findFirst()
                .orElse(null);
    }

    // ---- RUL-1 --------------------------------------------------------------------------------

    @Test
    @DisplayName("RUL-1 a new subscription has exactly the rule $Default: a true filter without action")
    void defaultRule() {
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        List<RuleDescription> rules = ns.listRules("t", "s");
        assertEquals(1, rules.size());
        assertEquals("$Default", rules.get(0).name());
        assertInstanceOf(TrueFilter.class, rules.get(0).filter());
        assertNull(rules.get(0).action());
        assertEquals(rules.get(0), ns.getRule("t", "s", "$Default"));

        ns.createSubscription(
                "t",
                "explicit",
                SubscriptionOptions.defaults(),
                List.of(new RuleDescription("only-red", SqlFilter.parse("color = 'red'"), null)));
        assertEquals(
                List.of("only-red"),
                ns.listRules("t", "explicit").stream()
                        .map(RuleDescription::name)
                        .toList());
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.getRule("t", "explicit", "$Default"));
    }

    @Test
    @DisplayName("RUL-1 matching rules without actions combine with OR into one copy; no match, no copy")
    void plainRulesCombineIntoOneCopy() {
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.defaults(),
                List.of(
                        new RuleDescription("red", SqlFilter.parse("color = 'red'"), null),
                        new RuleDescription("big", SqlFilter.parse("n > 10"), null),
                        new RuleDescription("never", new FalseFilter(), null)));

        ns.send("t", colored("red-big", "red", 20)); // both rules match: still one copy
        ns.send("t", colored("red-small", "red", 1));
        ns.send("t", colored("blue-big", "blue", 20));
        ns.send("t", colored("blue-small", "blue", 1)); // no rule matches

        List<BrokeredMessage> got = drain("t", "s");
        assertEquals(List.of("red-big", "red-small", "blue-big"), ids(got));
        assertEquals(List.of(1L, 2L, 3L), sequenceNumbers(got));
        got.forEach(m -> assertFalse(m.message().applicationProperties().containsKey("RuleName")));
    }

    @Test
    @DisplayName(
            "RUL-1 each matching rule with an action yields its own copy with RuleName; the plain copy comes first")
    void actionRulesYieldOwnCopies() {
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.defaults(),
                List.of(
                        new RuleDescription("double", SqlFilter.parse("n > 0"), SqlRuleAction.parse("SET n = n * 2")),
                        new RuleDescription("plain", SqlFilter.parse("color = 'red'"), null),
                        new RuleDescription(
                                "tag",
                                new CorrelationFilter(
                                        null, null, null, null, null, null, null, null, Map.of("color", "red")),
                                SqlRuleAction.parse("SET tagged = 'yes'; REMOVE color"))));

        ns.send("t", colored("m1", "red", 5));

        EntityPath s = EntityPath.subscription("t", "s");
        List<BrokeredMessage> peeked = ns.peek(s, 0, 10);
        assertEquals(3, peeked.size());
        assertEquals(List.of(1L, 1L, 1L), sequenceNumbers(peeked), "all copies keep the topic's number");

        List<BrokeredMessage> got = ns.receive(s, ReceiveMode.PEEK_LOCK, 10);
        assertEquals(3, got.size());
        Map<String, Object> plain = got.get(0).message().applicationProperties();
        assertEquals(Map.of("color", "red", "n", 5), plain);
        Map<String, Object> doubled = got.get(1).message().applicationProperties();
        assertEquals(10, doubled.get("n"));
        assertEquals("double", doubled.get("RuleName"));
        Map<String, Object> tagged = got.get(2).message().applicationProperties();
        assertEquals("yes", tagged.get("tagged"));
        assertFalse(tagged.containsKey("color"));
        assertEquals("tag", tagged.get("RuleName"));
        assertEquals(3, got.stream().map(BrokeredMessage::lockToken).distinct().count());

        // each copy is settled on its own
        ns.complete(s, got.get(1).lockToken());
        ns.abandon(s, got.get(0).lockToken());
        assertEquals(2, ns.runtimeInfo(s).activeMessageCount());
    }

    @Test
    @DisplayName("RUL-1 rule changes apply to messages sent afterwards; a subscription without rules gets nothing")
    void ruleChangesApplyToLaterMessages() {
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        ns.send("t", colored("before", "blue", 1));
        ns.deleteRule("t", "s", "$Default");
        ns.send("t", colored("no-rules", "red", 1));
        ns.createRule("t", "s", "red", SqlFilter.parse("color = 'red'"), null);
        ns.send("t", colored("red", "red", 2));
        ns.send("t", colored("blue", "blue", 2));
        ns.updateRule("t", "s", "red", SqlFilter.parse("color = 'blue'"), null);
        ns.send("t", colored("red-after-update", "red", 3));
        ns.send("t", colored("blue-after-update", "blue", 3));

        List<BrokeredMessage> got = drain("t", "s");
        assertEquals(List.of("before", "red", "blue-after-update"), ids(got));
        assertEquals(List.of(1L, 3L, 6L), sequenceNumbers(got));
        assertEquals(
                List.of("red"),
                ns.listRules("t", "s").stream().map(RuleDescription::name).toList());
    }

    // ---- RUL-5 --------------------------------------------------------------------------------

    @Test
    @DisplayName("RUL-5 the topic assigns sequence numbers; every subscription's copy keeps the topic's number")
    void topicAssignsSequenceNumbers() {
        ns.createTopic("t");
        ns.createSubscription("t", "early");
        ns.send("t", msg("m1"));
        ns.send("t", msg("m2"));
        ns.createSubscription("t", "late");
        ns.createSubscription(
                "t",
                "odd",
                SubscriptionOptions.defaults(),
                List.of(new RuleDescription("odd", SqlFilter.parse("n % 2 = 1"), null)));
        for (int n = 3; n <= 6; n++) {
            ns.clock().advance(Duration.ofSeconds(1));
            ns.send(
                    "t",
                    Message.builder()
                            .messageId("m" + n)
                            .applicationProperty("n", n)
                            .build());
        }

        List<BrokeredMessage> early = drain("t", "early");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), sequenceNumbers(early));
        List<BrokeredMessage> late = drain("t", "late");
        assertEquals(List.of(3L, 4L, 5L, 6L), sequenceNumbers(late), "only messages sent after it was created");
        assertEquals(
                List.of(T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3), T0.plusSeconds(4)),
                late.stream().map(BrokeredMessage::enqueuedTime).toList());
        assertEquals(List.of(3L, 5L), sequenceNumbers(drain("t", "odd")));
    }

    @Test
    @DisplayName("RUL-5 deferred copies are fetched from a subscription by the topic's sequence number")
    void deferredByTopicNumber() {
        ns.createTopic("t");
        ns.createSubscription("t", "a");
        ns.createSubscription("t", "b");
        ns.send("t", msg("m1"));
        ns.send("t", msg("m2"));
        EntityPath b = EntityPath.subscription("t", "b");
        drain("t", "a");
        List<BrokeredMessage> got = ns.receive(b, ReceiveMode.PEEK_LOCK, 2);
        ns.defer(b, got.get(1).lockToken());
        List<BrokeredMessage> deferred = ns.receiveDeferred(b, ReceiveMode.RECEIVE_AND_DELETE, List.of(2L));
        assertEquals(List.of("m2"), ids(deferred));
    }

    // ---- TTL-8 --------------------------------------------------------------------------------

    @Test
    @DisplayName("TTL-8 a subscription's effective default TTL is the smaller of the topic's and its own; it caps "
            + "message TTLs and expires there")
    void subscriptionEffectiveTtl() {
        ns.createTopic(
                "t",
                TopicOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(5))
                        .build());
        SubscriptionOptions dlq = SubscriptionOptions.builder()
                .deadLetteringOnMessageExpiration(true)
                .build();
        ns.createSubscription(
                "t",
                "topic-wins",
                dlq.toBuilder().defaultMessageTimeToLive(Duration.ofMinutes(30)).build());
        ns.createSubscription(
                "t",
                "sub-wins",
                dlq.toBuilder().defaultMessageTimeToLive(Duration.ofMinutes(2)).build());
        ns.createSubscription("t", "unset", dlq);

        ns.send(
                "t",
                Message.builder()
                        .messageId("own-10")
                        .timeToLive(Duration.ofMinutes(10))
                        .build());
        ns.send(
                "t",
                Message.builder()
                        .messageId("own-1")
                        .timeToLive(Duration.ofMinutes(1))
                        .build());
        ns.send("t", msg("none"));

        assertEquals(
                List.of(T0.plusSeconds(300), T0.plusSeconds(60), T0.plusSeconds(300)),
                ns.peek(EntityPath.subscription("t", "topic-wins"), 0, 10).stream()
                        .map(BrokeredMessage::expiresAt)
                        .toList());
        assertEquals(
                List.of(T0.plusSeconds(120), T0.plusSeconds(60), T0.plusSeconds(120)),
                ns.peek(EntityPath.subscription("t", "sub-wins"), 0, 10).stream()
                        .map(BrokeredMessage::expiresAt)
                        .toList());
        assertEquals(
                List.of(Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMinutes(5)),
                ns.peek(EntityPath.subscription("t", "unset"), 0, 10).stream()
                        .map(BrokeredMessage::timeToLive)
                        .toList());

        advanceMinutes(2);
        assertEquals(
                List.of("own-10", "own-1", "none"),
                ids(ns.peek(EntityPath.subscription("t", "sub-wins").deadLetter(), 0, 10)));
        assertEquals(List.of("own-10", "none"), ids(ns.peek(EntityPath.subscription("t", "topic-wins"), 0, 10)));
        advanceMinutes(3);
        assertEquals(List.of(), drain("t", "topic-wins"));
        List<BrokeredMessage> dead =
                ns.receive(EntityPath.subscription("t", "topic-wins").deadLetter(), ReceiveMode.RECEIVE_AND_DELETE, 10);
        assertEquals(List.of("own-10", "own-1", "none"), ids(dead));
        dead.forEach(m -> assertEquals("TTLExpiredException", m.deadLetterReason()));
        assertEquals(T0.plusSeconds(300), dead.get(2).expiresAt());
    }

    @Test
    @DisplayName("TTL-8 with no topic default the subscription's own default applies")
    void onlySubscriptionDefault() {
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "s",
                SubscriptionOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(3))
                        .build());
        ns.send("t", msg("m"));
        assertEquals(
                T0.plusSeconds(180),
                ns.peek(EntityPath.subscription("t", "s"), 0, 1).get(0).expiresAt());
        advanceMinutes(3);
        assertEquals(0, ns.runtimeInfo(EntityPath.subscription("t", "s")).totalMessageCount(), "dropped");
    }

    // ---- SCH-7 (topics) -----------------------------------------------------------------------

    @Test
    @DisplayName("SCH-7 a message scheduled on a topic is not peekable on its subscriptions until it activates")
    void scheduledOnTopicNotPeekedOnSubscriptions() {
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        EntityPath s = EntityPath.subscription("t", "s");
        long scheduledAs = ns.schedule("t", msg("later"), T0.plus(Duration.ofMinutes(5)));
        ns.send("t", msg("now"));
        assertEquals(1, scheduledAs);

        assertEquals(List.of("now"), ids(ns.peek(s, 0, 10)));
        assertEquals(1, ns.runtimeInfo(EntityPath.queue("t")).scheduledMessageCount());
        assertEquals(0, ns.runtimeInfo(s).scheduledMessageCount());

        advanceMinutes(5);
        List<BrokeredMessage> got = drain("t", "s");
        assertEquals(List.of("now", "later"), ids(got));
        assertEquals(3, got.get(1).sequenceNumber(), "a new topic number on activation (SCH-4)");
        assertEquals(T0.plus(Duration.ofMinutes(5)), got.get(1).enqueuedTime());
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("t")).scheduledMessageCount());
    }

    @Test
    @DisplayName("SCH-7 a message scheduled on a topic can be cancelled by its number; no subscription ever sees it")
    void cancelScheduledOnTopic() {
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        long seq = ns.schedule("t", msg("later"), T0.plus(Duration.ofMinutes(5)));
        ns.cancelScheduled("t", seq);
        assertThrows(BrokerException.MessageNotFound.class, () -> ns.cancelScheduled("t", seq));
        advanceMinutes(10);
        assertEquals(List.of(), drain("t", "s"));
    }

    // ---- ADI-3 topics -------------------------------------------------------------------------

    private void idleTopic(String name) {
        ns.createTopic(
                name,
                TopicOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(10)).build());
    }

    @Test
    @DisplayName("ADI-3 an idle topic is deleted with its subscriptions at exactly autoDeleteOnIdle")
    void idleTopicIsDeleted() {
        idleTopic("t");
        ns.createSubscription("t", "s");
        ns.send("t", msg("m"));
        advanceMinutes(9);
        assertTrue(ns.topicExists("t"));
        advanceMinutes(1);
        assertFalse(ns.topicExists("t"));
        assertEquals(T0.plus(Duration.ofMinutes(10)), autoDeletedAt("t"));
        assertThrows(BrokerException.EntityNotFound.class, () -> ns.send("t", msg("x")));
        assertThrows(
                BrokerException.EntityNotFound.class,
                () -> ns.receive(EntityPath.subscription("t", "s"), ReceiveMode.PEEK_LOCK, 1));
        assertFalse(ns.subscriptionExists("t", "s"));
    }

    @Test
    @DisplayName("ADI-3 a send to a topic resets its idle timer")
    void sendResetsTopic() {
        idleTopic("t");
        advanceMinutes(6);
        ns.send("t", msg("m")); // no subscriptions: the message goes nowhere, but it is a send
        advanceMinutes(9);
        assertTrue(ns.topicExists("t"));
        advanceMinutes(1);
        assertFalse(ns.topicExists("t"));
        assertEquals(T0.plus(Duration.ofMinutes(16)), autoDeletedAt("t"));
    }

    @Test
    @DisplayName("ADI-3 receive and peek on a subscription reset its topic's idle timer")
    void subscriptionOperationsResetTopic() {
        idleTopic("t");
        ns.createSubscription("t", "s");
        advanceMinutes(6);
        ns.receive(EntityPath.subscription("t", "s"), ReceiveMode.PEEK_LOCK, 1); // nothing there: still an operation
        advanceMinutes(6);
        ns.peek(EntityPath.subscription("t", "s"), 0, 1);
        advanceMinutes(9);
        assertTrue(ns.topicExists("t"));
        advanceMinutes(1);
        assertEquals(T0.plus(Duration.ofMinutes(22)), autoDeletedAt("t"));
    }

    @Test
    @DisplayName("ADI-3 an update of a topic, a new subscription and a pending scheduled message keep a topic alive")
    void updateSubscriptionAndScheduleResetTopic() {
        idleTopic("t");
        advanceMinutes(5);
        ns.updateTopic("t", ns.getTopic("t").toBuilder().userMetadata("touched").build());
        advanceMinutes(5);
        ns.createSubscription("t", "s");
        advanceMinutes(9);
        assertTrue(ns.topicExists("t"), "T0+19: 9 minutes after the subscription was created");
        ns.schedule("t", msg("far"), T0.plus(Duration.ofMinutes(60)));
        advanceMinutes(40);
        assertTrue(ns.topicExists("t"), "T0+59: a scheduled message is pending");
        advanceMinutes(1); // activation at T0+60 is activity too
        advanceMinutes(9);
        assertTrue(ns.topicExists("t"));
        advanceMinutes(1);
        assertFalse(ns.topicExists("t"));
        assertEquals(T0.plus(Duration.ofMinutes(70)), autoDeletedAt("t"));
    }

    // ---- ADI-3 subscriptions ------------------------------------------------------------------

    private void idleSubscription(String topic, String name) {
        ns.createSubscription(
                topic,
                name,
                SubscriptionOptions.builder()
                        .autoDeleteOnIdle(Duration.ofMinutes(10))
                        .build());
    }

    @Test
    @DisplayName("ADI-3 an idle subscription is deleted; messages arriving from its topic do not count as activity")
    void idleSubscriptionIsDeleted() {
        ns.createTopic("t");
        idleSubscription("t", "s");
        ns.createSubscription("t", "keep");
        advanceMinutes(5);
        ns.send("t", msg("m"));
        advanceMinutes(5);
        assertFalse(ns.subscriptionExists("t", "s"));
        assertEquals(T0.plus(Duration.ofMinutes(10)), autoDeletedAt("t/Subscriptions/s"));
        assertThrows(
                BrokerException.EntityNotFound.class,
                () -> ns.receive(EntityPath.subscription("t", "s"), ReceiveMode.PEEK_LOCK, 1));
        assertTrue(ns.topicExists("t"));
        assertEquals(List.of("keep"), ns.subscriptionNames("t"));
        ns.send("t", msg("after"));
        assertEquals(List.of("m", "after"), ids(drain("t", "keep")));
    }

    @Test
    @DisplayName("ADI-3 receive, peek, a new rule and an update each reset a subscription's idle timer")
    void subscriptionActivityResets() {
        ns.createTopic("t");
        idleSubscription("t", "s");
        EntityPath s = EntityPath.subscription("t", "s");
        advanceMinutes(6);
        ns.receive(s, ReceiveMode.PEEK_LOCK, 1); // T0+6
        advanceMinutes(6);
        ns.peek(s, 0, 1); // T0+12
        advanceMinutes(6);
        ns.createRule("t", "s", "extra", SqlFilter.parse("1=1"), null); // T0+18
        advanceMinutes(6);
        ns.updateSubscription(
                "t",
                "s",
                ns.getSubscription("t", "s").toBuilder().maxDeliveryCount(3).build()); // T0+24
        advanceMinutes(9);
        assertTrue(ns.subscriptionExists("t", "s"));
        advanceMinutes(1);
        assertFalse(ns.subscriptionExists("t", "s"));
        assertEquals(T0.plus(Duration.ofMinutes(34)), autoDeletedAt("t/Subscriptions/s"));
    }

    // ---- ADI-4 --------------------------------------------------------------------------------

    @Test
    @DisplayName("ADI-4 a queue with auto-forwarding is never idle, an idle non-forwarding queue is deleted")
    void forwardingQueueNeverAutoDeleted() {
        ns.createQueue("dst");
        ns.createQueue(
                "fwd",
                QueueOptions.builder()
                        .forwardTo("dst")
                        .autoDeleteOnIdle(Duration.ofMinutes(5))
                        .build());
        ns.createQueue(
                "idle",
                QueueOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(5)).build());
        ns.clock().advance(Duration.ofDays(2));
        assertTrue(ns.queueExists("fwd"));
        assertFalse(ns.queueExists("idle"));
        assertEquals(T0.plus(Duration.ofMinutes(5)), autoDeletedAt("idle"));
        ns.send("fwd", msg("still-forwards"));
        assertEquals(
                List.of("still-forwards"),
                ids(ns.receive(EntityPath.queue("dst"), ReceiveMode.RECEIVE_AND_DELETE, 10)));
    }

    @Test
    @DisplayName("ADI-4 a subscription with auto-forwarding is never idle; without forwarding it is deleted when idle")
    void forwardingSubscriptionNeverAutoDeleted() {
        ns.createQueue("dst");
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "fwd",
                SubscriptionOptions.builder()
                        .forwardTo("dst")
                        .autoDeleteOnIdle(Duration.ofMinutes(5))
                        .build());
        ns.createSubscription(
                "t",
                "plain",
                SubscriptionOptions.builder()
                        .autoDeleteOnIdle(Duration.ofMinutes(5))
                        .build());
        ns.clock().advance(Duration.ofDays(2));
        assertTrue(ns.subscriptionExists("t", "fwd"));
        assertFalse(ns.subscriptionExists("t", "plain"));

        // forwarding switched off: idle from then on
        ns.updateSubscription(
                "t",
                "fwd",
                ns.getSubscription("t", "fwd").toBuilder().forwardTo(null).build());
        Instant switchedOff = ns.clock().instant();
        advanceMinutes(5);
        assertFalse(ns.subscriptionExists("t", "fwd"));
        assertEquals(switchedOff.plus(Duration.ofMinutes(5)), autoDeletedAt("t/Subscriptions/fwd"));
        assertNotEquals(null, autoDeletedAt("t/Subscriptions/plain"));
    }

    @Test
    @DisplayName(
            "ADI-4 ADI-3 a topic with a forwarding subscription is not idle: that subscription is always receiving")
    void topicWithForwardingSubscriptionStays() {
        ns.createQueue("dst");
        ns.createTopic(
                "t",
                TopicOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(5)).build());
        ns.createSubscription(
                "t", "fwd", SubscriptionOptions.builder().forwardTo("dst").build());
        ns.createTopic(
                "quiet",
                TopicOptions.builder().autoDeleteOnIdle(Duration.ofMinutes(5)).build());
        ns.createSubscription("quiet", "plain");

        ns.clock().advance(Duration.ofHours(1));

        assertTrue(ns.topicExists("t"));
        assertFalse(ns.topicExists("quiet"));
    }
}
