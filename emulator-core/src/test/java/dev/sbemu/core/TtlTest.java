package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.T0;
import static dev.sbemu.core.CoreFixtures.events;
import static dev.sbemu.core.CoreFixtures.ids;
import static dev.sbemu.core.CoreFixtures.lazyNamespace;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.minutes;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static dev.sbemu.core.CoreFixtures.receiveOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TtlTest {
    private static final EntityPath DLQ = Q.deadLetter();

    private static QueueOptions deadLettering() {
        return QueueOptions.builder().deadLetteringOnMessageExpiration(true).build();
    }

    private static QueueOptions deadLettering(Duration lock) {
        return QueueOptions.builder()
                .deadLetteringOnMessageExpiration(true)
                .lockDuration(lock)
                .build();
    }

    @Test
    @DisplayName("TTL-1 expiresAt = enqueuedTime + timeToLive, fixed when the message is enqueued")
    void expiryBecomesAbsoluteAtEnqueue() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.clock().advance(Duration.ofMinutes(3));

        ns.send("q", msg("m1", Duration.ofMinutes(10)));
        ns.clock().advance(Duration.ofMinutes(2));
        BrokeredMessage m = lockOne(ns, Q);

        assertEquals(minutes(3), m.enqueuedTime());
        assertEquals(Duration.ofMinutes(10), m.timeToLive());
        assertEquals(minutes(13), m.expiresAt());
    }

    @Test
    @DisplayName("TTL-2 from expiresAt on, neither peek-lock nor receive-and-delete returns the message")
    void expiredMessageCannotBeReceived() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", List.of(msg("a", Duration.ofMinutes(10)), msg("b", Duration.ofMinutes(10))));

        ns.clock().advance(Duration.ofMinutes(10).minusMillis(1));
        assertEquals(2, ns.peek(Q, 0, 10).size(), "1 ms before expiry both are still there");

        ns.clock().advance(Duration.ofMillis(1));
        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 10));
        assertEquals(List.of(), ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 10));
        assertEquals(0, ns.runtimeInfo(Q).activeMessageCount());
        List<JournalEvent> expired = events(ns, JournalEvent.Type.EXPIRED);
        assertEquals(2, expired.size());
        assertEquals(minutes(10), expired.get(0).at());
        assertEquals("dropped", expired.get(0).detail());
    }

    @Test
    @DisplayName("TTL-2 a message received 1 ms before its expiry is delivered with its expiry")
    void messageJustBeforeExpiryIsDelivered() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("a", Duration.ofSeconds(30)));
        ns.clock().advance(Duration.ofSeconds(30).minusMillis(1));

        BrokeredMessage m = receiveOne(ns, Q, ReceiveMode.RECEIVE_AND_DELETE);

        assertEquals("a", m.message().messageId());
        assertEquals(T0.plusSeconds(30), m.expiresAt());
    }

    @Test
    @DisplayName("TTL-3 a locked message outlives its TTL: its lock can be renewed and it can be completed, "
            + "then it is gone and not dead-lettered")
    void lockedMessageOutlivesTtlAndCompletes() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering(Duration.ofMinutes(5)));
        ns.send("q", msg("m1", Duration.ofMinutes(1)));
        BrokeredMessage m = lockOne(ns, Q);

        ns.clock().advance(Duration.ofMinutes(2));
        assertEquals(minutes(7), ns.renewLock(Q, m.lockToken()));
        ns.clock().advance(Duration.ofMinutes(4));
        ns.complete(Q, m.lockToken());
        ns.clock().advance(Duration.ofMinutes(10));

        EntityRuntimeInfo info = ns.runtimeInfo(Q);
        assertEquals(0, info.totalMessageCount());
        assertEquals(0, info.deadLetterMessageCount());
        assertEquals(List.of(), events(ns, JournalEvent.Type.EXPIRED));
        assertEquals(List.of(), events(ns, JournalEvent.Type.DEAD_LETTERED));
        assertEquals(minutes(6), events(ns, JournalEvent.Type.COMPLETED).get(0).at());
    }

    @Test
    @DisplayName("TTL-3 a locked expired message can be dead-lettered with its own reason or deferred")
    void lockedExpiredMessageCanBeDeadLetteredOrDeferred() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering(Duration.ofMinutes(5)));
        ns.send("q", List.of(msg("dead", Duration.ofMinutes(1)), msg("later", Duration.ofMinutes(1))));
        List<BrokeredMessage> locked = ns.receive(Q, ReceiveMode.PEEK_LOCK, 2);
        ns.clock().advance(Duration.ofMinutes(3));

        ns.deadLetter(Q, locked.get(0).lockToken(), "Poison", "cannot parse", Map.of());
        ns.defer(Q, locked.get(1).lockToken());

        BrokeredMessage dead = receiveOne(ns, DLQ, ReceiveMode.RECEIVE_AND_DELETE);
        assertEquals("dead", dead.message().messageId());
        assertEquals("Poison", dead.deadLetterReason());
        assertEquals(1, ns.runtimeInfo(Q).deferredMessageCount());
    }

    @Test
    @DisplayName("TTL-4 TTL-10 abandoning an expired locked message dead-letters it at that instant")
    void abandonOfExpiredMessageDeadLettersIt() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering(Duration.ofMinutes(5)));
        ns.send("q", msg("m1", Duration.ofMinutes(1)));
        BrokeredMessage m = lockOne(ns, Q);
        ns.clock().advance(Duration.ofMinutes(2));
        assertEquals(List.of(), events(ns, JournalEvent.Type.EXPIRED), "not expired while locked");

        ns.abandon(Q, m.lockToken());

        JournalEvent dead = events(ns, JournalEvent.Type.DEAD_LETTERED).get(0);
        assertEquals(minutes(2), dead.at());
        assertEquals("TTLExpiredException", dead.detail());
        assertEquals(List.of(), ns.receive(Q, ReceiveMode.PEEK_LOCK, 1));
        BrokeredMessage fromDlq = receiveOne(ns, DLQ, ReceiveMode.RECEIVE_AND_DELETE);
        assertEquals("m1", fromDlq.message().messageId());
        assertEquals("TTLExpiredException", fromDlq.deadLetterReason());
        assertEquals("The message expired and was dead lettered.", fromDlq.deadLetterErrorDescription());
    }

    @Test
    @DisplayName("TTL-4 TTL-10 when the lock of an expired message times out, it is dead-lettered at the lock's end")
    void lockExpiryOfExpiredMessageDeadLettersIt() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering(Duration.ofMinutes(5)));
        ns.send("q", msg("m1", Duration.ofMinutes(1)));
        BrokeredMessage m = lockOne(ns, Q);
        assertEquals(minutes(5), m.lockedUntil());

        ns.clock().advance(Duration.ofMinutes(20));

        JournalEvent lockExpired = events(ns, JournalEvent.Type.LOCK_EXPIRED).get(0);
        JournalEvent expired = events(ns, JournalEvent.Type.EXPIRED).get(0);
        JournalEvent dead = events(ns, JournalEvent.Type.DEAD_LETTERED).get(0);
        assertEquals(minutes(5), lockExpired.at());
        assertEquals(minutes(5), expired.at());
        assertEquals(minutes(5), dead.at());
        assertEquals(1, ns.runtimeInfo(Q).deadLetterMessageCount());
        assertEquals(0, ns.runtimeInfo(Q).activeMessageCount());
        BrokerException lost = assertThrows(BrokerException.MessageLockLost.class, () -> ns.complete(Q, m.lockToken()));
        assertEquals(ErrorReason.MESSAGE_LOCK_LOST, lost.reason());
    }

    @Test
    @DisplayName("TTL-4 without dead-lettering, an expired message whose lock times out is dropped at the lock's end")
    void lockExpiryOfExpiredMessageDropsItWithoutDeadLettering() {
        Namespace ns = namespace();
        ns.createQueue(
                "q", QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        ns.send("q", msg("m1", Duration.ofSeconds(10)));
        lockOne(ns, Q);

        ns.clock().advance(Duration.ofMinutes(1));

        JournalEvent expired = events(ns, JournalEvent.Type.EXPIRED).get(0);
        assertEquals(T0.plusSeconds(30), expired.at());
        assertEquals("dropped", expired.detail());
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
    }

    @Test
    @DisplayName("TTL-5 a scheduled message's TTL runs from its activation: +5 min with TTL 10 expires at +15")
    void scheduledTtlRunsFromActivation() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.schedule("q", msg("m1", Duration.ofMinutes(10)), minutes(5));

        ns.clock().advanceTo(minutes(15).minusMillis(1));
        BrokeredMessage m = ns.peek(Q, 0, 10).get(0);
        assertEquals(minutes(5), m.enqueuedTime());
        assertEquals(minutes(15), m.expiresAt());

        ns.clock().advanceTo(minutes(15));
        assertEquals(List.of(), ns.peek(Q, 0, 10));
        assertEquals(minutes(15), events(ns, JournalEvent.Type.EXPIRED).get(0).at());
    }

    @Test
    @DisplayName("TTL-6 the entity default TTL applies to messages without one and caps longer ones")
    void entityDefaultAppliesAndCaps() {
        Namespace ns = namespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .build());

        ns.send("q", List.of(msg("none"), msg("longer", Duration.ofHours(1)), msg("shorter", Duration.ofMinutes(2))));
        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.PEEK_LOCK, 3);

        assertEquals(List.of("none", "longer", "shorter"), ids(got));
        assertEquals(Duration.ofMinutes(10), got.get(0).timeToLive());
        assertEquals(minutes(10), got.get(0).expiresAt());
        assertEquals(Duration.ofMinutes(10), got.get(1).timeToLive());
        assertEquals(minutes(10), got.get(1).expiresAt());
        assertEquals(Duration.ofMinutes(2), got.get(2).timeToLive());
        assertEquals(minutes(2), got.get(2).expiresAt());
    }

    @Test
    @DisplayName("TTL-7 unset TTLs mean never: entity default is TimeSpan.MaxValue and messages never expire")
    void unsetTtlMeansNever() {
        Namespace ns = namespace();
        QueueOptions created = ns.createQueue("q");
        ns.createTopic("t");

        ns.send("q", msg("m1"));
        ns.clock().advance(Duration.ofDays(3650));
        BrokeredMessage m = lockOne(ns, Q);

        assertEquals(Durations.MAX, created.defaultMessageTimeToLive());
        assertEquals(Durations.MAX, ns.getTopic("t").defaultMessageTimeToLive());
        assertEquals(
                Duration.parse("P10675199DT2H48M5.4775807S"), ns.getQueue("q").defaultMessageTimeToLive());
        assertNull(m.timeToLive());
        assertNull(m.expiresAt());
        assertEquals(T0, m.enqueuedTime());
    }

    @Test
    @DisplayName("TTL-7 a Basic namespace caps the default TTL at 14 days")
    void basicTierCapsDefaultTtl() {
        Namespace ns = Namespace.builder().startingAt(T0).tier(Tier.BASIC).build();

        ns.createQueue("q");
        ns.createQueue(
                "q30",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofDays(30))
                        .build());
        ns.createQueue(
                "q1",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofDays(1))
                        .build());
        ns.send("q", msg("m1"));

        assertEquals(Duration.ofDays(14), ns.getQueue("q").defaultMessageTimeToLive());
        assertEquals(Duration.ofDays(14), ns.getQueue("q30").defaultMessageTimeToLive());
        assertEquals(Duration.ofDays(1), ns.getQueue("q1").defaultMessageTimeToLive());
        assertEquals(T0.plus(Duration.ofDays(14)), ns.peek(Q, 0, 1).get(0).expiresAt());
        assertEquals(
                Durations.MAX,
                Namespace.builder().startingAt(T0).build().createQueue("s").defaultMessageTimeToLive(),
                "Standard keeps never");
    }

    @Test
    @DisplayName("TTL-8 a subscription's effective default TTL is the smaller of the topic's and its own")
    void subscriptionTakesSmallerDefault() {
        Namespace ns = namespace();
        ns.createTopic(
                "t",
                TopicOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .build());
        ns.createSubscription(
                "t",
                "short",
                SubscriptionOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(5))
                        .build());
        ns.createSubscription(
                "t",
                "long",
                SubscriptionOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(20))
                        .build());
        ns.createSubscription("t", "unset");

        ns.send("t", msg("m1"));

        assertEquals(
                minutes(5),
                ns.peek(EntityPath.subscription("t", "short"), 0, 1).get(0).expiresAt());
        assertEquals(
                minutes(10),
                ns.peek(EntityPath.subscription("t", "long"), 0, 1).get(0).expiresAt());
        assertEquals(
                minutes(10),
                ns.peek(EntityPath.subscription("t", "unset"), 0, 1).get(0).expiresAt());
        ns.clock().advance(Duration.ofMinutes(5));
        assertEquals(List.of(), ns.receive(EntityPath.subscription("t", "short"), ReceiveMode.PEEK_LOCK, 1));
        assertEquals(
                1,
                ns.receive(EntityPath.subscription("t", "long"), ReceiveMode.PEEK_LOCK, 1)
                        .size());
    }

    @Test
    @DisplayName("TTL-9 with deadLetteringOnMessageExpiration the expired message goes to the DLQ with the "
            + "TTLExpiredException reason and description, body and properties kept")
    void expiredMessageIsDeadLettered() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering());
        ns.send(
                "q",
                Message.builder()
                        .messageId("m1")
                        .body("payload")
                        .subject("order")
                        .applicationProperty("customer", 42L)
                        .timeToLive(Duration.ofMinutes(1))
                        .build());

        ns.clock().advance(Duration.ofMinutes(1));

        EntityRuntimeInfo info = ns.runtimeInfo(Q);
        assertEquals(0, info.activeMessageCount());
        assertEquals(1, info.deadLetterMessageCount());
        BrokeredMessage dead = receiveOne(ns, DLQ, ReceiveMode.PEEK_LOCK);
        assertEquals("TTLExpiredException", dead.deadLetterReason());
        assertEquals("The message expired and was dead lettered.", dead.deadLetterErrorDescription());
        assertEquals("payload", dead.bodyAsString());
        assertEquals("order", dead.message().subject());
        assertEquals(42L, dead.message().applicationProperties().get("customer"));
        assertEquals(
                minutes(1), events(ns, JournalEvent.Type.DEAD_LETTERED).get(0).at());
    }

    @Test
    @DisplayName("TTL-9 without deadLetteringOnMessageExpiration the expired message is dropped")
    void expiredMessageIsDroppedWithoutFlag() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("m1", Duration.ofMinutes(1)));

        ns.clock().advance(Duration.ofMinutes(1));

        EntityRuntimeInfo info = ns.runtimeInfo(Q);
        assertEquals(0, info.totalMessageCount());
        assertEquals(0, info.sizeInBytes());
        assertEquals(List.of(), ns.peek(DLQ, 0, 10));
        assertEquals("dropped", events(ns, JournalEvent.Type.EXPIRED).get(0).detail());
        assertEquals(List.of(), events(ns, JournalEvent.Type.DEAD_LETTERED));
    }

    @Test
    @DisplayName("TTL-10 an expired message completed under its lock is never dead-lettered, even after its lock "
            + "would have ended")
    void completedExpiredMessageNeverDeadLettered() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering(Duration.ofSeconds(30)));
        ns.send("q", msg("m1", Duration.ofSeconds(10)));
        BrokeredMessage m = lockOne(ns, Q);
        ns.clock().advance(Duration.ofSeconds(20));

        ns.complete(Q, m.lockToken());
        ns.clock().advance(Duration.ofHours(1));

        assertEquals(0, ns.runtimeInfo(Q).deadLetterMessageCount());
        assertEquals(List.of(), events(ns, JournalEvent.Type.LOCK_EXPIRED));
        assertEquals(List.of(), events(ns, JournalEvent.Type.DEAD_LETTERED));
    }

    @Test
    @DisplayName("TTL-11 EAGER (default): expiry happens exactly at expiresAt, counts and peek drop it at once")
    void eagerModeExpiresOnTheClock() {
        Namespace ns = namespace();
        assertEquals(ExpiryMode.EAGER, ns.expiryMode());
        ns.createQueue("q", deadLettering());
        ns.send("q", msg("m1", Duration.ofMinutes(1)));

        ns.clock().advance(Duration.ofMinutes(2));

        assertEquals(List.of(), ns.peek(Q, 0, 10));
        assertEquals(0, ns.runtimeInfo(Q).activeMessageCount());
        assertEquals(1, ns.runtimeInfo(Q).deadLetterMessageCount());
        assertEquals(minutes(1), events(ns, JournalEvent.Type.EXPIRED).get(0).at());
    }

    @Test
    @DisplayName("TTL-11 LAZY: expired messages stay visible to peek and counts until a receive touches the "
            + "entity, and receive never returns them")
    void lazyModeKeepsExpiredUntilReceive() {
        Namespace ns = lazyNamespace();
        ns.createQueue("q", deadLettering());
        ns.send("q", List.of(msg("old", Duration.ofMinutes(1)), msg("fresh", Duration.ofHours(1))));
        ns.clock().advance(Duration.ofMinutes(2));

        assertEquals(List.of("old", "fresh"), ids(ns.peek(Q, 0, 10)));
        assertEquals(2, ns.runtimeInfo(Q).activeMessageCount());
        assertEquals(0, ns.runtimeInfo(Q).deadLetterMessageCount());
        assertEquals(List.of(), events(ns, JournalEvent.Type.EXPIRED));

        List<BrokeredMessage> got = ns.receive(Q, ReceiveMode.PEEK_LOCK, 10);

        assertEquals(List.of("fresh"), ids(got));
        assertEquals(List.of("fresh"), ids(ns.peek(Q, 0, 10)));
        assertEquals(1, ns.runtimeInfo(Q).activeMessageCount());
        assertEquals(1, ns.runtimeInfo(Q).deadLetterMessageCount());
        assertEquals(minutes(2), events(ns, JournalEvent.Type.EXPIRED).get(0).at());
    }

    @Test
    @DisplayName("TTL-11 LAZY: a receive finds the expired message first in line and skips it")
    void lazyModeReceiveSkipsExpired() {
        Namespace ns = lazyNamespace();
        ns.createQueue("q");
        ns.send("q", msg("old", Duration.ofMinutes(1)));
        ns.clock().advance(Duration.ofMinutes(1));

        assertEquals(List.of(), ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 1));
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
    }

    @Test
    @DisplayName("TTL-12 LAZY: peek of a message without own TTL on an entity with a default TTL reports no "
            + "expiresAt; one with its own TTL does; receive computes both")
    void lazyPeekHidesComputedDefaultExpiry() {
        Namespace ns = lazyNamespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .build());
        ns.send("q", List.of(msg("noTtl"), msg("ownTtl", Duration.ofMinutes(5))));

        List<BrokeredMessage> peeked = ns.peek(Q, 0, 10);
        assertNull(peeked.get(0).expiresAt());
        assertNull(peeked.get(0).timeToLive());
        assertEquals(minutes(5), peeked.get(1).expiresAt());
        assertEquals(Duration.ofMinutes(5), peeked.get(1).timeToLive());

        List<BrokeredMessage> received = ns.receive(Q, ReceiveMode.PEEK_LOCK, 10);
        assertEquals(minutes(10), received.get(0).expiresAt());
        assertEquals(Duration.ofMinutes(10), received.get(0).timeToLive());
        assertEquals(minutes(5), received.get(1).expiresAt());
    }

    @Test
    @DisplayName("TTL-12 EAGER: peek reports the expiry computed from the entity default")
    void eagerPeekReportsComputedDefaultExpiry() {
        Namespace ns = namespace();
        ns.createQueue(
                "q",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .build());
        ns.send("q", msg("noTtl"));

        assertEquals(minutes(10), ns.peek(Q, 0, 10).get(0).expiresAt());
    }

    @Test
    @DisplayName("TTL-14 dead-lettered messages do not expire in the DLQ and cannot be dead-lettered again")
    void noTtlInDeadLetterQueue() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering());
        ns.send("q", msg("m1", Duration.ofMinutes(1)));
        ns.clock().advance(Duration.ofMinutes(1));

        ns.clock().advance(Duration.ofDays(30));
        assertEquals(1, ns.runtimeInfo(Q).deadLetterMessageCount());
        BrokeredMessage dead = lockOne(ns, DLQ);
        assertEquals("m1", dead.message().messageId());

        BrokerException e = assertThrows(
                BrokerException.InvalidOperation.class,
                () -> ns.deadLetter(DLQ, dead.lockToken(), "again", "again", Map.of()));
        assertEquals(ErrorReason.INVALID_OPERATION, e.reason());
        ns.complete(DLQ, dead.lockToken());
        assertEquals(0, ns.runtimeInfo(Q).deadLetterMessageCount());
    }

    @Test
    @DisplayName("TTL-15 a deferred message is not expired by the clock; fetched after its expiry it is not "
            + "returned but dead-lettered at that moment")
    void expiredDeferredMessageIsDeadLetteredWhenFetched() {
        Namespace ns = namespace();
        ns.createQueue("q", deadLettering());
        ns.send("q", msg("m1", Duration.ofMinutes(1)));
        BrokeredMessage m = lockOne(ns, Q);
        ns.defer(Q, m.lockToken());

        ns.clock().advance(Duration.ofMinutes(5));
        assertEquals(1, ns.runtimeInfo(Q).deferredMessageCount());
        assertEquals(0, ns.runtimeInfo(Q).deadLetterMessageCount());
        assertEquals(List.of(), events(ns, JournalEvent.Type.EXPIRED));

        assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(m.sequenceNumber())),
                "DLQ-7: gone, so not found");

        assertEquals(0, ns.runtimeInfo(Q).deferredMessageCount());
        assertEquals(1, ns.runtimeInfo(Q).deadLetterMessageCount());
        JournalEvent dead = events(ns, JournalEvent.Type.DEAD_LETTERED).get(0);
        assertEquals(minutes(5), dead.at());
        assertEquals(m.sequenceNumber(), dead.sequenceNumber());
        assertEquals(
                "TTLExpiredException",
                receiveOne(ns, DLQ, ReceiveMode.RECEIVE_AND_DELETE).deadLetterReason());
    }

    @ParameterizedTest(
            name = "TTL-15 PEEK-1 a deferred message past its expiry stays visible to peek as DEFERRED, "
                    + "and runtime counts agree ({0})")
    @EnumSource(ExpiryMode.class)
    void expiredDeferredMessageStaysVisible(ExpiryMode mode) {
        Namespace ns = Namespace.builder().startingAt(T0).expiryMode(mode).build();
        ns.createQueue("q", deadLettering());
        ns.send("q", msg("m1", Duration.ofMinutes(1)));
        ns.send("q", msg("m2", Duration.ofMinutes(1)));
        BrokeredMessage m = lockOne(ns, Q);
        ns.defer(Q, m.lockToken());

        ns.clock().advance(Duration.ofMinutes(5));

        List<BrokeredMessage> peeked = ns.peek(Q, 0, 10);
        assertEquals(
                List.of("m1"),
                ids(peeked.stream()
                        .filter(p -> p.state() == MessageState.DEFERRED)
                        .toList()));
        EntityRuntimeInfo info = ns.runtimeInfo(Q);
        assertEquals(1, info.deferredMessageCount());
        assertEquals(
                peeked.size(),
                info.activeMessageCount() + info.deferredMessageCount() + info.scheduledMessageCount(),
                "peek shows what the counts count: " + ids(peeked));
    }

    @Test
    @DisplayName("TTL-15 without dead-lettering an expired deferred message fetched by sequence number is dropped")
    void expiredDeferredMessageIsDroppedWhenFetched() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("m1", Duration.ofMinutes(1)));
        BrokeredMessage m = lockOne(ns, Q);
        ns.defer(Q, m.lockToken());
        ns.clock().advance(Duration.ofMinutes(5));

        assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.receiveDeferred(Q, ReceiveMode.RECEIVE_AND_DELETE, List.of(m.sequenceNumber())),
                "DLQ-7: gone, so not found");

        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
        JournalEvent expired = events(ns, JournalEvent.Type.EXPIRED).get(0);
        assertEquals(minutes(5), expired.at());
        assertEquals("dropped", expired.detail());
    }

    @Test
    @DisplayName("TTL-9 a subscription with deadLetteringOnMessageExpiration dead-letters its expired copy; one "
            + "without drops it")
    void subscriptionExpiry() {
        Namespace ns = namespace();
        ns.createTopic("t");
        ns.createSubscription(
                "t",
                "dl",
                SubscriptionOptions.builder()
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        ns.createSubscription("t", "drop");
        EntityPath dl = EntityPath.subscription("t", "dl");
        EntityPath drop = EntityPath.subscription("t", "drop");
        ns.send("t", msg("m1", Duration.ofMinutes(1)));

        ns.clock().advance(Duration.ofMinutes(1));

        assertEquals(1, ns.runtimeInfo(dl).deadLetterMessageCount());
        assertEquals(0, ns.runtimeInfo(dl).activeMessageCount());
        assertEquals(0, ns.runtimeInfo(drop).totalMessageCount());
        BrokeredMessage dead = receiveOne(ns, dl.deadLetter(), ReceiveMode.RECEIVE_AND_DELETE);
        assertEquals("TTLExpiredException", dead.deadLetterReason());
        assertEquals(1, dead.sequenceNumber());
    }

    @Test
    @DisplayName("TTL-11 LAZY: a receive does not scan every message for expiry (30,000 single receives in "
            + "seconds, not minutes)")
    void lazyReceiveDoesNotScanAllMessages() {
        Namespace ns = Namespace.builder()
                .startingAt(T0)
                .expiryMode(ExpiryMode.LAZY)
                .journalCapacity(1)
                .build();
        ns.createQueue("q");
        int count = 30_000;
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(msg("m" + i, i % 100 == 0 ? Duration.ofMinutes(1) : Duration.ofHours(1)));
        }
        for (int from = 0; from < count; from += 1000) {
            ns.send("q", batch.subList(from, from + 1000));
        }
        ns.clock().advance(Duration.ofMinutes(1));
        assertEquals(count, ns.runtimeInfo(Q).activeMessageCount(), "LAZY: the expired ones are still counted");

        // seconds, not minutes: a bound (a correct run takes well under a second), not a guess of the machine's speed
        int received = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int n = 0;
            while (!ns.receive(Q, ReceiveMode.RECEIVE_AND_DELETE, 1).isEmpty()) {
                n++;
            }
            return n;
        });

        assertEquals(count - count / 100, received);
        assertEquals(0, ns.runtimeInfo(Q).totalMessageCount());
    }
}
