package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Tier;
import dev.sbemu.core.filter.SqlFilter;
import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.qpid.jms.JmsConnectionExtensions;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Qpid JMS topic subscriptions as Service Bus Premium makes them (durable, shared, non-durable, named
 * {@code <name>$<client id>$D|ND}), unsubscribe, selectors with JMS header names, the anonymous relay, temporary
 * topics, and Standard's refusals.
 */
class JmsTopicsTest extends EndpointFixture {
    private static final long WAIT_MILLIS = 10_000;
    private final List<Connection> connections = new ArrayList<>();
    private Tier tier = Tier.PREMIUM;

    @Override
    Tier tier() {
        return tier;
    }

    @AfterEach
    void closeConnections() throws JMSException {
        for (Connection c : connections) {
            c.close();
        }
    }

    private String key() {
        String cs = server.getConnectionString();
        int at = cs.indexOf("SharedAccessKey=") + "SharedAccessKey=".length();
        return cs.substring(at, cs.indexOf(';', at));
    }

    private JmsConnectionFactory factory() {
        // a small prefetch: messages are handed out as consumers ask (JMS-10)
        return new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME,
                key(),
                "amqp://127.0.0.1:" + server.port() + "?jms.prefetchPolicy.all=1");
    }

    /** A started connection, with {@code clientId} when not null. */
    private Connection connect(String clientId) throws JMSException {
        Connection c = factory().createConnection();
        connections.add(c);
        if (clientId != null) {
            c.setClientID(clientId);
        }
        c.start();
        return c;
    }

    private static void await(BooleanSupplier condition) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(condition::getAsBoolean);
    }

    private void publish(String topic, String... texts) throws JMSException {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = s.createProducer(s.createTopic(topic));
            for (String text : texts) {
                producer.send(s.createTextMessage(text));
            }
        }
    }

    @Test
    @DisplayName(
            "JMS-17 a durable subscription is <name>$<client id>$D and survives a reconnect with the messages published meanwhile")
    void durableSubscriptionSurvivesReconnect() throws JMSException {
        namespace.createTopic("events");
        Connection first = connect("billing");
        Session session = first.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic topic = session.createTopic("events");
        MessageConsumer consumer = session.createDurableSubscriber(topic, "audit");
        assertEquals(List.of("audit$billing$D"), namespace.subscriptionNames("events"));
        publish("events", "one");
        assertEquals("one", ((TextMessage) consumer.receive(WAIT_MILLIS)).getText());
        first.close();
        publish("events", "two", "three");
        assertEquals(
                2,
                namespace
                        .runtimeInfo(EntityPath.subscription("events", "audit$billing$D"))
                        .activeMessageCount());

        Session again = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer resumed = again.createDurableSubscriber(again.createTopic("events"), "audit");
        assertEquals("two", ((TextMessage) resumed.receive(WAIT_MILLIS)).getText());
        assertEquals("three", ((TextMessage) resumed.receive(WAIT_MILLIS)).getText());
        assertEquals(List.of("audit$billing$D"), namespace.subscriptionNames("events"));
    }

    @Test
    @DisplayName(
            "JMS-17 an unshared durable subscription takes one consumer: a second, from another connection, on the same or another topic, is refused")
    void unsharedDurableSubscriptionIsExclusive() throws JMSException {
        namespace.createTopic("events");
        Session session = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createDurableSubscriber(session.createTopic("events"), "audit");
        Session other = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        namespace.createTopic("other-events");
        for (String topic : List.of("events", "other-events")) {
            JMSException refused = assertThrows(
                    JMSException.class, () -> other.createDurableSubscriber(other.createTopic(topic), "audit"));
            assertTrue(refused.getMessage().contains("already a subscriber using the same name"), refused.getMessage());
        }
    }

    @Test
    @DisplayName(
            "JMS-17 a shared and an unshared durable consumer cannot hold one <name>$<client id>$D at once: each is refused while the other is active, from another connection")
    void sharedAndUnsharedDurableConsumersExcludeEachOther() throws JMSException {
        namespace.createTopic("events");
        Session holder = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer unshared = holder.createDurableConsumer(holder.createTopic("events"), "audit");
        Session other = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        JMSException sharedRefused = assertThrows(
                JMSException.class, () -> other.createSharedDurableConsumer(other.createTopic("events"), "audit"));
        assertTrue(
                sharedRefused.getMessage().contains("already a subscriber using the same name"),
                sharedRefused.getMessage());
        publish("events", "one");
        assertEquals("one", ((TextMessage) unshared.receive(WAIT_MILLIS)).getText());
        unshared.close();

        // once the unshared consumer is gone, the subscription takes a shared one; then an unshared one is refused
        MessageConsumer shared = other.createSharedDurableConsumer(other.createTopic("events"), "audit");
        JMSException unsharedRefused = assertThrows(
                JMSException.class, () -> holder.createDurableConsumer(holder.createTopic("events"), "audit"));
        assertTrue(
                unsharedRefused.getMessage().contains("already a subscriber using the same name"),
                unsharedRefused.getMessage());
        publish("events", "two");
        assertEquals("two", ((TextMessage) shared.receive(WAIT_MILLIS)).getText());
        assertEquals(List.of("audit$billing$D"), namespace.subscriptionNames("events"));
    }

    @Test
    @DisplayName(
            "JMS-17 a durable subscription resumed with another selector or topic is replaced by a new one, as JMS requires")
    void durableSubscriptionWithAnotherSelectorIsReplaced() throws JMSException {
        namespace.createTopic("events");
        namespace.createTopic("other-events");
        Connection first = connect("billing");
        Session session = first.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createDurableSubscriber(session.createTopic("events"), "audit").close();
        publish("events", "kept while the selector stays");
        Session same = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer resumed = same.createDurableSubscriber(same.createTopic("events"), "audit");
        assertEquals("kept while the selector stays", ((TextMessage) resumed.receive(WAIT_MILLIS)).getText());
        resumed.close();
        publish("events", "dropped with the old subscription");

        MessageConsumer filtered =
                same.createDurableSubscriber(same.createTopic("events"), "audit", "region = 'eu'", false);
        assertNull(filtered.receive(200));
        assertEquals(1, namespace.listRules("events", "audit$billing$D").size());
        filtered.close();
        same.createDurableSubscriber(same.createTopic("other-events"), "audit").close();
        assertEquals(List.of(), namespace.subscriptionNames("events"));
        assertEquals(List.of("audit$billing$D"), namespace.subscriptionNames("other-events"));
    }

    @Test
    @DisplayName(
            "JMS-17 noLocal is ignored, as the service ignores it: a consumer gets what its own connection publishes")
    void noLocalIgnored() throws JMSException {
        namespace.createTopic("events");
        Session session = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic topic = session.createTopic("events");
        MessageConsumer consumer = session.createDurableSubscriber(topic, "own", null, true);
        session.createProducer(topic).send(session.createTextMessage("mine"));
        assertEquals("mine", ((TextMessage) consumer.receive(WAIT_MILLIS)).getText());
    }

    @Test
    @DisplayName(
            "JMS-18 unsubscribe deletes the durable subscription; an unknown name and an active one are refused (JMS-19)")
    void unsubscribeDeletesTheSubscription() throws JMSException {
        namespace.createTopic("events");
        Session session = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createDurableSubscriber(session.createTopic("events"), "audit");
        assertTrue(namespace.subscriptionExists("events", "audit$billing$D"));

        Session other = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        JMSException active = assertThrows(JMSException.class, () -> other.unsubscribe("audit"));
        assertTrue(active.getMessage().contains("active consumer"), active.getMessage());
        assertTrue(namespace.subscriptionExists("events", "audit$billing$D"));

        consumer.close();
        session.unsubscribe("audit");
        await(() -> !namespace.subscriptionExists("events", "audit$billing$D"));
        assertThrows(InvalidDestinationException.class, () -> session.unsubscribe("audit"));
    }

    @Test
    @DisplayName(
            "JMS-16 a shared durable subscription without client id is <name>$$D: its consumers share the messages (another selector is refused), and it stays when they close")
    void sharedDurableSubscription() throws JMSException {
        namespace.createTopic("orders");
        Session a = connect(null).createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Session b = connect(null).createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer first = a.createSharedDurableConsumer(a.createTopic("orders"), "fulfilment");
        MessageConsumer second = b.createSharedDurableConsumer(b.createTopic("orders"), "fulfilment");
        assertEquals(List.of("fulfilment$$D"), namespace.subscriptionNames("orders"));
        publish("orders", "1", "2", "3", "4");
        Set<String> seen = new HashSet<>();
        int[] share = new int[2];
        List<MessageConsumer> both = List.of(first, second);
        for (int round = 0; round < 50 && seen.size() < 4; round++) {
            for (int i = 0; i < 2; i++) {
                Message m = both.get(i).receive(200);
                if (m != null) {
                    m.acknowledge();
                    share[i]++;
                    assertTrue(seen.add(((TextMessage) m).getText()), "no message twice");
                }
            }
        }
        assertEquals(Set.of("1", "2", "3", "4"), seen);
        assertTrue(share[0] > 0 && share[1] > 0, "each consumer gets its share: " + share[0] + ", " + share[1]);
        Session c = connect(null).createSession(false, Session.CLIENT_ACKNOWLEDGE);
        JMSException otherSelector = assertThrows(
                JMSException.class,
                () -> c.createSharedDurableConsumer(c.createTopic("orders"), "fulfilment", "region = 'eu'"));
        assertTrue(otherSelector.getMessage().contains("another selector"), otherSelector.getMessage());
        first.close();
        second.close();
        assertTrue(namespace.subscriptionExists("orders", "fulfilment$$D"));
    }

    @Test
    @DisplayName(
            "JMS-16 a shared non-durable subscription is <name>$<client id>$ND and is deleted when its last consumer goes")
    void sharedNonDurableSubscription() throws JMSException {
        namespace.createTopic("prices");
        Session a = connect("desk").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Session b = connect("desk").createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer first = a.createSharedConsumer(a.createTopic("prices"), "live");
        MessageConsumer second = b.createSharedConsumer(b.createTopic("prices"), "live");
        assertEquals(List.of("live$desk$ND"), namespace.subscriptionNames("prices"));
        publish("prices", "42");
        Message got = first.receive(500);
        if (got == null) {
            got = second.receive(WAIT_MILLIS);
        }
        assertEquals("42", ((TextMessage) got).getText());
        first.close();
        assertTrue(namespace.subscriptionExists("prices", "live$desk$ND"));
        second.close();
        await(() -> namespace.subscriptionNames("prices").isEmpty());
    }

    @Test
    @DisplayName(
            "JMS-20 a selector with JMS header names (JMSCorrelationID, JMSType) and user properties becomes the subscription's SQL filter")
    void selectorsWithJmsHeaderNames() throws JMSException {
        namespace.createTopic("events");
        Session session = connect("app").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic topic = session.createTopic("events");
        MessageConsumer byCorrelation = session.createConsumer(topic, "JMSCorrelationID = 'x'");
        MessageConsumer byTypeAndProperty = session.createDurableSubscriber(
                topic, "eu", "JMSType = 'order' AND region = 'eu' AND note <> 'JMSType'", false);
        MessageProducer producer = session.createProducer(topic);
        for (String[] m : new String[][] {
            {"a", "y", "order", "eu"}, {"b", "x", "order", "us"}, {"c", "x", "invoice", "eu"}, {"d", "z", "order", "eu"}
        }) {
            TextMessage message = session.createTextMessage(m[0]);
            message.setJMSCorrelationID(m[1]);
            message.setJMSType(m[2]);
            message.setStringProperty("region", m[3]);
            message.setStringProperty("note", "n");
            producer.send(message);
        }
        assertEquals("b", ((TextMessage) byCorrelation.receive(WAIT_MILLIS)).getText());
        assertEquals("c", ((TextMessage) byCorrelation.receive(WAIT_MILLIS)).getText());
        assertNull(byCorrelation.receiveNoWait());
        assertEquals("a", ((TextMessage) byTypeAndProperty.receive(WAIT_MILLIS)).getText());
        assertEquals("d", ((TextMessage) byTypeAndProperty.receive(WAIT_MILLIS)).getText());
        assertEquals(
                "sys.Label = 'order' AND region = 'eu' AND note <> 'JMSType'",
                ((SqlFilter) namespace.listRules("events", "eu$app$D").get(0).filter()).expression());
    }

    @Test
    @DisplayName("JMS-21 a selector on a queue receiver is refused with amqp:not-implemented")
    void selectorOnQueueReceiverRefused() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect(null).createSession(false, Session.AUTO_ACKNOWLEDGE);
        JMSException refused = assertThrows(
                JMSException.class, () -> session.createConsumer(session.createQueue("orders"), "region = 'eu'"));
        assertTrue(refused.getMessage().contains("not on queue receivers"), refused.getMessage());
    }

    @Test
    @DisplayName(
            "JMS-22 a queue browser with a selector (a JMS header name and a property) shows only the messages it matches")
    void browserWithSelector() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect(null).createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue orders = session.createQueue("orders");
        MessageProducer producer = session.createProducer(orders);
        for (String[] m : new String[][] {{"a", "x", "eu"}, {"b", "y", "eu"}, {"c", "x", "us"}}) {
            TextMessage message = session.createTextMessage(m[0]);
            message.setJMSCorrelationID(m[1]);
            message.setStringProperty("region", m[2]);
            producer.send(message);
        }
        Enumeration<?> shown = session.createBrowser(orders, "JMSCorrelationID = 'x' AND region = 'eu'")
                .getEnumeration();
        List<String> texts = new ArrayList<>();
        while (shown.hasMoreElements()) {
            texts.add(((TextMessage) shown.nextElement()).getText());
        }
        assertEquals(List.of("a"), texts);
        assertEquals(3, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }

    @Test
    @DisplayName(
            "JMS-23 the connection offers ANONYMOUS-RELAY: an anonymous producer sends through one link, each message to its destination")
    void anonymousRelay() throws JMSException {
        namespace.createQueue("orders");
        namespace.createTopic("events");
        namespace.createSubscription("events", "all");
        try (JMSContext context = factory().createContext()) {
            Queue orders = context.createQueue("orders");
            Topic events = context.createTopic("events");
            JMSProducer producer = context.createProducer();
            producer.send(orders, "to the queue");
            producer.send(events, "to the topic");
            JMSConsumer consumer = context.createConsumer(orders);
            assertEquals("to the queue", consumer.receiveBody(String.class, WAIT_MILLIS));
            assertEquals(
                    1,
                    namespace
                            .runtimeInfo(EntityPath.subscription("events", "all"))
                            .activeMessageCount());
            assertThrows(JMSRuntimeException.class, () -> producer.send(context.createQueue("missing"), "nowhere"));
        }
    }

    @Test
    @DisplayName(
            "JMS-24 a temporary topic (dynamic node) serves request/reply through JMSReplyTo for its connection's lifetime")
    void temporaryTopic() throws JMSException {
        namespace.createQueue("requests");
        Connection c = connect(null);
        Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        TemporaryTopic topic = session.createTemporaryTopic();
        assertTrue(namespace.topicExists(topic.getTopicName()));
        MessageConsumer consumer = session.createConsumer(topic);
        TextMessage request = session.createTextMessage("ping");
        request.setJMSReplyTo(topic);
        session.createProducer(session.createQueue("requests")).send(request);

        Session responder = connect(null).createSession(false, Session.AUTO_ACKNOWLEDGE);
        Message received =
                responder.createConsumer(responder.createQueue("requests")).receive(WAIT_MILLIS);
        TemporaryTopic replyTo = assertInstanceOf(TemporaryTopic.class, received.getJMSReplyTo());
        responder.createProducer(replyTo).send(responder.createTextMessage("pong"));
        assertEquals("pong", ((TextMessage) consumer.receive(WAIT_MILLIS)).getText());
        consumer.close();
        String name = topic.getTopicName();
        topic.delete();
        await(() -> !namespace.topicExists(name));
        String another = session.createTemporaryTopic().getTopicName();
        c.close();
        await(() -> !namespace.topicExists(another));
    }

    @Test
    @DisplayName("JMS-25 a JMS durable subscription is an ordinary subscription to the Java SDK")
    void durableSubscriptionSeenBySdk() throws JMSException {
        namespace.createTopic("events");
        Session session = connect("billing").createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createDurableSubscriber(session.createTopic("events"), "audit").close();
        publish("events", "for the sdk");
        try (ServiceBusReceiverClient receiver = clients()
                .receiver()
                .topicName("events")
                .subscriptionName("audit$billing$D")
                .buildClient()) {
            ServiceBusReceivedMessage m = receiver.receiveMessages(1, Duration.ofSeconds(10))
                    .iterator()
                    .next();
            assertEquals("for the sdk", m.getRawAmqpMessage().getBody().getValue());
            receiver.complete(m);
        }
    }

    @Test
    @DisplayName(
            "JMS-27 the auto-delete-on-idle ServiceBusJmsConnectionFactory puts in the open properties applies to the subscriptions and temporary entities made for the connection")
    void autoDeleteOnIdleFromOpenProperties() throws JMSException {
        namespace.createTopic("events");
        JmsConnectionFactory factory = factory();
        factory.setExtension(
                JmsConnectionExtensions.AMQP_OPEN_PROPERTIES.toString(),
                (connection, uri) -> Map.of(
                        "com.microsoft:subscriber-auto-delete-on-idle-duration-in-seconds", 600L,
                        "com.microsoft:queue-auto-delete-on-idle-duration-in-seconds", 900L));
        Connection c = factory.createConnection();
        connections.add(c);
        c.setClientID("billing");
        c.start();
        Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createDurableSubscriber(session.createTopic("events"), "audit");
        assertEquals(
                Duration.ofMinutes(10),
                namespace.getSubscription("events", "audit$billing$D").autoDeleteOnIdle());
        String temporary = session.createTemporaryQueue().getQueueName();
        assertEquals(Duration.ofMinutes(15), namespace.getQueue(temporary).autoDeleteOnIdle());
    }

    @Test
    @DisplayName(
            "JMS-26 a Standard namespace refuses JMS 2.0: topic consumers, unsubscribe, temporary destinations, browsers, with the service's message")
    void standardRefusesJms20() throws JMSException {
        tier = Tier.STANDARD;
        restartEndpoint();
        namespace.createTopic("events");
        namespace.createQueue("orders");
        namespace.createSubscription("events", "all");
        Session session = connect("app").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic topic = session.createTopic("events");
        for (Executable refused : List.<Executable>of(
                () -> session.createDurableSubscriber(topic, "audit"),
                () -> session.createSharedConsumer(topic, "live"),
                () -> session.createConsumer(topic),
                () -> session.unsubscribe("audit"),
                () -> session.createTemporaryQueue(),
                () -> session.createTemporaryTopic(),
                () -> session.createBrowser(session.createQueue("orders")).getEnumeration())) {
            JMSException e = assertThrows(JMSException.class, refused);
            assertTrue(e.getMessage().contains("supported only by a Premium Messaging namespace"), e.getMessage());
        }
        assertEquals(List.of("all"), namespace.subscriptionNames("events"));
        // what Standard keeps: queues, topics to send to, and subscriptions addressed as queues
        MessageProducer producer = session.createProducer(topic);
        producer.send(session.createTextMessage("hello"));
        MessageConsumer fromSubscription = session.createConsumer(session.createQueue("events/Subscriptions/all"));
        assertInstanceOf(TextMessage.class, fromSubscription.receive(WAIT_MILLIS));
    }

    @Test
    @DisplayName(
            "JMS-26 JMSContext on a Standard namespace: queue send and receive work, a topic consumer is refused as Standard refuses JMS 2.0")
    void jmsContextOnStandard() {
        tier = Tier.STANDARD;
        restartEndpoint();
        namespace.createQueue("orders");
        namespace.createTopic("events");
        try (JMSContext context = factory().createContext(JMSContext.AUTO_ACKNOWLEDGE)) {
            context.setClientID("app");
            Queue orders = context.createQueue("orders");
            context.createProducer().send(orders, "hello");
            try (JMSConsumer consumer = context.createConsumer(orders)) {
                assertEquals("hello", consumer.receiveBody(String.class, WAIT_MILLIS));
            }
            Topic topic = context.createTopic("events");
            for (Executable refused : List.<Executable>of(
                    () -> context.createConsumer(topic),
                    () -> context.createDurableConsumer(topic, "audit"),
                    () -> context.createSharedConsumer(topic, "live"))) {
                JMSRuntimeException e = assertThrows(JMSRuntimeException.class, refused);
                assertTrue(e.getMessage().contains("supported only by a Premium Messaging namespace"), e.getMessage());
            }
        }
        assertEquals(List.of(), namespace.subscriptionNames("events"));
    }
}
