package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.CompleteOptions;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every link, outcome and management operation through the real SDK's clients built from a connection string. */
class MessagingOverAmqpTest extends EndpointFixture {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static ServiceBusReceivedMessage one(ServiceBusReceiverClient receiver) {
        List<ServiceBusReceivedMessage> got =
                receiver.receiveMessages(1, WAIT).stream().toList();
        assertEquals(1, got.size(), "messages received");
        return got.get(0);
    }

    @Test
    @DisplayName("AMQP-1 send, receive and complete; the message carries the broker's properties")
    void sendReceiveComplete() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("orders").buildClient()) {
            ServiceBusMessage sent = new ServiceBusMessage("order-42")
                    .setMessageId("m-1")
                    .setSubject("order")
                    .setCorrelationId("c-1")
                    .setContentType("text/plain");
            sent.getApplicationProperties().put("region", "eu");
            sent.getApplicationProperties().put("count", 7);
            sent.getApplicationProperties().put("at", OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC));
            sender.sendMessage(sent);
            ServiceBusReceivedMessage got = one(receiver);
            assertEquals("order-42", got.getBody().toString());
            assertEquals("m-1", got.getMessageId());
            assertEquals("order", got.getSubject());
            assertEquals("c-1", got.getCorrelationId());
            assertEquals("text/plain", got.getContentType());
            assertEquals("eu", got.getApplicationProperties().get("region"));
            assertEquals(7, got.getApplicationProperties().get("count"));
            assertEquals(
                    OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC),
                    got.getApplicationProperties().get("at"));
            assertEquals(1, got.getSequenceNumber());
            assertEquals(0, got.getDeliveryCount());
            assertEquals(start, got.getEnqueuedTime().toInstant());
            // AMQP-17: start is the wall-clock now, so the SDK does not renew this lock back to back
            assertEquals(start.plusSeconds(60), got.getLockedUntil().toInstant());
            assertNotNull(got.getLockToken());
            receiver.complete(got);
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            // The SDK itself refuses to settle a message twice, before anything reaches the wire.
            assertThrows(IllegalArgumentException.class, () -> receiver.complete(got));
        }
    }

    @Test
    @DisplayName(
            "AMQP-2 abandon with modified properties, defer and receive by sequence number, dead-letter with reason")
    void outcomes() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("orders").buildClient();
                ServiceBusReceiverClient deadLetters = clients.receiver()
                        .queueName("orders")
                        .subQueue(SubQueue.DEAD_LETTER_QUEUE)
                        .buildClient()) {
            sender.sendMessage(new ServiceBusMessage("a"));
            ServiceBusReceivedMessage first = one(receiver);
            receiver.abandon(first, new AbandonOptions().setPropertiesToModify(Map.of("attempt", 1)));
            ServiceBusReceivedMessage again = one(receiver);
            assertEquals(1, again.getDeliveryCount());
            assertEquals(1, again.getApplicationProperties().get("attempt"));

            receiver.defer(again);
            ServiceBusReceivedMessage deferred = receiver.receiveDeferredMessage(again.getSequenceNumber());
            assertEquals("a", deferred.getBody().toString());

            receiver.deadLetter(
                    deferred,
                    new DeadLetterOptions()
                            .setDeadLetterReason("bad")
                            .setDeadLetterErrorDescription("not an order")
                            .setPropertiesToModify(Map.of("why", "test")));
            ServiceBusReceivedMessage dead = one(deadLetters);
            assertEquals("bad", dead.getDeadLetterReason());
            assertEquals("not an order", dead.getDeadLetterErrorDescription());
            assertEquals("test", dead.getApplicationProperties().get("why"));
            deadLetters.complete(dead);
        }
    }

    @Test
    @DisplayName("AMQP-3 receive-and-delete, peek, renew lock, batches")
    void receiveAndDeletePeekRenewBatch() {
        namespace.createQueue("orders");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient peekLock =
                        clients.receiver().queueName("orders").buildClient();
                ServiceBusReceiverClient deleting = clients.receiver()
                        .queueName("orders")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            ServiceBusMessageBatch batch = sender.createMessageBatch();
            for (int i = 0; i < 5; i++) {
                assertTrue(batch.tryAddMessage(new ServiceBusMessage("m" + i)));
            }
            sender.sendMessages(batch);
            assertEquals(5, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            List<ServiceBusReceivedMessage> peeked =
                    peekLock.peekMessages(10).stream().toList();
            assertEquals(5, peeked.size());
            assertEquals("m0", peeked.get(0).getBody().toString());

            ServiceBusReceivedMessage locked = one(peekLock);
            namespace.clock().advance(Duration.ofSeconds(30));
            OffsetDateTime renewed = peekLock.renewMessageLock(locked);
            assertEquals(start.plusSeconds(90), renewed.toInstant());
            peekLock.complete(locked);

            List<ServiceBusReceivedMessage> rest =
                    deleting.receiveMessages(4, WAIT).stream().toList();
            assertTrue(rest.size() >= 1);
            int total = rest.size();
            while (total < 4) {
                total += deleting.receiveMessages(4 - total, WAIT).stream()
                        .toList()
                        .size();
            }
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        }
    }

    @Test
    @DisplayName("AMQP-4 schedule and cancel; the virtual clock activates scheduled messages; TTL expiry dead-letters")
    void scheduleAndExpire() {
        namespace.createQueue(
                "orders",
                QueueOptions.builder().deadLetteringOnMessageExpiration(true).build());
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("orders").buildClient();
                ServiceBusReceiverClient deadLetters = clients.receiver()
                        .queueName("orders")
                        .subQueue(SubQueue.DEAD_LETTER_QUEUE)
                        .buildClient()) {
            OffsetDateTime inTenMinutes = start.plus(Duration.ofMinutes(10)).atOffset(ZoneOffset.UTC);
            long kept = sender.scheduleMessage(new ServiceBusMessage("reminder"), inTenMinutes);
            long cancelled = sender.scheduleMessage(new ServiceBusMessage("cancelled"), inTenMinutes);
            sender.cancelScheduledMessage(cancelled);
            assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).scheduledMessageCount());
            namespace.clock().advance(Duration.ofMinutes(10));
            ServiceBusReceivedMessage reminder = one(receiver);
            assertEquals("reminder", reminder.getBody().toString());
            assertTrue(reminder.getSequenceNumber() > kept, "a new sequence number on activation (SCH-4)");
            receiver.complete(reminder);

            sender.sendMessage(new ServiceBusMessage("perishable").setTimeToLive(Duration.ofMinutes(5)));
            namespace.clock().advance(Duration.ofMinutes(6));
            assertEquals(
                    0,
                    receiver.receiveMessages(1, Duration.ofMillis(300)).stream().count());
            ServiceBusReceivedMessage dead = one(deadLetters);
            assertEquals("TTLExpiredException", dead.getDeadLetterReason());
        }
    }

    @Test
    @DisplayName("AMQP-5 topic subscriptions with SQL filters through the rule manager")
    void topicWithRules() {
        namespace.createTopic("events");
        namespace.createSubscription("events", "red");
        namespace.createSubscription("events", "all");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusRuleManagerClient rules = clients.ruleManager()
                        .topicName("events")
                        .subscriptionName("red")
                        .buildClient();
                ServiceBusSenderClient sender =
                        clients.sender().topicName("events").buildClient();
                ServiceBusReceiverClient red = clients.receiver()
                        .topicName("events")
                        .subscriptionName("red")
                        .buildClient();
                ServiceBusReceiverClient all = clients.receiver()
                        .topicName("events")
                        .subscriptionName("all")
                        .buildClient()) {
            rules.deleteRule("$Default");
            rules.createRule("red", new CreateRuleOptions(new SqlRuleFilter("color = 'red'")));
            List<RuleProperties> listed = rules.listRules().stream().toList();
            assertEquals(1, listed.size());
            assertEquals("red", listed.get(0).getName());
            assertEquals("color = 'red'", ((SqlRuleFilter) listed.get(0).getFilter()).getSqlExpression());

            ServiceBusMessage blue = new ServiceBusMessage("blue");
            blue.getApplicationProperties().put("color", "blue");
            ServiceBusMessage redOne = new ServiceBusMessage("red");
            redOne.getApplicationProperties().put("color", "red");
            sender.sendMessages(List.of(blue, redOne));
            assertEquals("red", one(red).getBody().toString());
            assertEquals(
                    2,
                    namespace
                            .runtimeInfo(EntityPath.subscription("events", "all"))
                            .activeMessageCount());
            ServiceBusException bad = assertThrows(
                    ServiceBusException.class,
                    () -> rules.createRule("broken", new CreateRuleOptions(new SqlRuleFilter("color = "))));
            assertEquals(ServiceBusFailureReason.GENERAL_ERROR, bad.getReason());
        }
    }

    @Test
    @DisplayName("AMQP-6 sessions: accept a named and the next available session, session state, renew session lock")
    void sessions() {
        namespace.createQueue(
                "carts", QueueOptions.builder().requiresSession(true).build());
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender = clients.sender().queueName("carts").buildClient();
                ServiceBusSessionReceiverClient sessions =
                        clients.sessionReceiver().queueName("carts").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("a1").setSessionId("a"));
            sender.sendMessage(new ServiceBusMessage("b1").setSessionId("b"));
            sender.sendMessage(new ServiceBusMessage("a2").setSessionId("a"));
            try (ServiceBusReceiverClient a = sessions.acceptSession("a")) {
                assertEquals("a", a.getSessionId());
                ServiceBusReceivedMessage a1 = one(a);
                assertEquals("a1", a1.getBody().toString());
                a.complete(a1);
                assertEquals("a2", one(a).getBody().toString());
                assertNull(a.getSessionState());
                a.setSessionState(new byte[] {1, 2, 3});
                assertArrayEquals(new byte[] {1, 2, 3}, a.getSessionState());
                namespace.clock().advance(Duration.ofSeconds(20));
                assertEquals(start.plusSeconds(80), a.renewSessionLock().toInstant());
                assertEquals(1, a.peekMessages(10).stream().count());
            }
            try (ServiceBusReceiverClient next = sessions.acceptNextSession()) {
                assertEquals("b", next.getSessionId());
                next.complete(one(next));
            }
        }
    }

    @Test
    @DisplayName("AMQP-7 transactions: a send and a completion commit together or roll back together")
    void transactions() {
        namespace.createQueue("in");
        namespace.createQueue("out");
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient in = clients.sender().queueName("in").buildClient();
                ServiceBusSenderClient out = clients.sender().queueName("out").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("in").buildClient()) {
            in.sendMessage(new ServiceBusMessage("work"));
            ServiceBusReceivedMessage work = one(receiver);

            ServiceBusTransactionContext rolledBack = out.createTransaction();
            out.sendMessage(new ServiceBusMessage("result"), rolledBack);
            receiver.complete(work, new CompleteOptions().setTransactionContext(rolledBack));
            out.rollbackTransaction(rolledBack);
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("out")).activeMessageCount());
            // The SDK took the message for settled; after the rollback it is still locked: wait out the lock.
            namespace.clock().advance(Duration.ofSeconds(61));
            work = one(receiver);

            ServiceBusTransactionContext committed = out.createTransaction();
            out.sendMessage(new ServiceBusMessage("result"), committed);
            receiver.complete(work, new CompleteOptions().setTransactionContext(committed));
            out.commitTransaction(committed);
            assertEquals(1, namespace.runtimeInfo(EntityPath.queue("out")).activeMessageCount());
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("in")).activeMessageCount());
        }
    }

    @Test
    @DisplayName("AMQP-9 createTransaction on a fresh client: the coordinator link attaches without a $cbs token")
    void transactionFirstOnFreshClients() {
        namespace.createQueue("in");
        namespace.createQueue("out");
        namespace.send("in", Message.ofText("work"));
        // Two builders, so two connections on which nothing has been done before createTransaction().
        try (ServiceBusSenderClient out = clients().sender().queueName("out").buildClient();
                ServiceBusReceiverClient receiver =
                        clients().receiver().queueName("in").buildClient()) {
            ServiceBusTransactionContext sending = out.createTransaction();
            out.sendMessage(new ServiceBusMessage("result"), sending);
            out.commitTransaction(sending);
            assertEquals(1, namespace.runtimeInfo(EntityPath.queue("out")).activeMessageCount());

            ServiceBusTransactionContext completing = receiver.createTransaction();
            ServiceBusReceivedMessage work = one(receiver);
            receiver.complete(work, new CompleteOptions().setTransactionContext(completing));
            receiver.commitTransaction(completing);
            assertEquals(0, namespace.runtimeInfo(EntityPath.queue("in")).activeMessageCount());
        }
    }

    @Test
    @DisplayName("AMQP-8 a subscription's dead-letter queue and max delivery count")
    void subscriptionDeadLetters() {
        namespace.createTopic("events");
        namespace.createSubscription(
                "events",
                "audit",
                SubscriptionOptions.builder().maxDeliveryCount(2).build());
        ServiceBusClientBuilder clients = clients();
        try (ServiceBusSenderClient sender =
                        clients.sender().topicName("events").buildClient();
                ServiceBusReceiverClient audit = clients.receiver()
                        .topicName("events")
                        .subscriptionName("audit")
                        .buildClient();
                ServiceBusReceiverClient dead = clients.receiver()
                        .topicName("events")
                        .subscriptionName("audit")
                        .subQueue(SubQueue.DEAD_LETTER_QUEUE)
                        .buildClient()) {
            sender.sendMessage(new ServiceBusMessage("poison"));
            audit.abandon(one(audit));
            audit.abandon(one(audit));
            ServiceBusReceivedMessage poison = one(dead);
            assertEquals("MaxDeliveryCountExceeded", poison.getDeadLetterReason());
        }
    }
}
