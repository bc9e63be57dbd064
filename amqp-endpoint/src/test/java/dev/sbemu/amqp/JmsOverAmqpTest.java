package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.models.AmqpMessageBody;
import com.azure.core.amqp.models.AmqpMessageBodyType;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.Tier;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Plain Apache Qpid JMS against the endpoint: SASL PLAIN, queues, acknowledgement modes, outcomes, drain. */
class JmsOverAmqpTest extends EndpointFixture {
    private static final long WAIT_MILLIS = 10_000;
    /**
     * Bound for an answer to a drain: a client whose drain went unanswered would wait out Qpid JMS's drain timeout
     * (60 s), so a bound well under it tells the two apart on a loaded machine too.
     */
    private static final Duration DRAIN_BOUND = Duration.ofSeconds(30);

    private Connection connection;

    /** JMS 2.0 (browsers, temporary queues, topic consumers) is Premium's (JMS-26). */
    @Override
    Tier tier() {
        return Tier.PREMIUM;
    }

    @AfterEach
    void closeConnection() throws JMSException {
        if (connection != null) {
            connection.close();
        }
    }

    private String key() {
        String cs = server.getConnectionString();
        int at = cs.indexOf("SharedAccessKey=") + "SharedAccessKey=".length();
        return cs.substring(at, cs.indexOf(';', at));
    }

    private String uri(String options) {
        return "amqp://127.0.0.1:" + server.port() + (options.isEmpty() ? "" : "?" + options);
    }

    /** A started connection authenticated with SASL PLAIN: the key name and the key. */
    private Connection connect() throws JMSException {
        return connect("");
    }

    private Connection connect(String options) throws JMSException {
        connection =
                new JmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(), uri(options)).createConnection();
        connection.start();
        return connection;
    }

    @Test
    @DisplayName("JMS-1 SASL PLAIN with the key name and key authenticates the connection: no $cbs token follows")
    void saslPlainWithKey() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        session.createProducer(queue).send(session.createTextMessage("hello"));
        TextMessage got = (TextMessage) session.createConsumer(queue).receive(WAIT_MILLIS);
        assertNotNull(got, "received");
        assertEquals("hello", got.getText());
    }

    @Test
    @DisplayName("JMS-1 SASL PLAIN with a shared access signature token as password authenticates the connection")
    void saslPlainWithToken() throws Exception {
        namespace.createQueue("orders");
        String resource = URLEncoder.encode("sb://127.0.0.1/orders", StandardCharsets.UTF_8);
        long expiry = System.currentTimeMillis() / 1000 + 3600;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String sig = Base64.getEncoder()
                .encodeToString(mac.doFinal((resource + "\n" + expiry).getBytes(StandardCharsets.UTF_8)));
        String token = "SharedAccessSignature sr=" + resource + "&sig=" + URLEncoder.encode(sig, StandardCharsets.UTF_8)
                + "&se=" + expiry + "&skn=" + ServiceBusEmulatorServer.KEY_NAME;
        connection = new JmsConnectionFactory("$jwt", token, uri("")).createConnection();
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createProducer(session.createQueue("orders")).send(session.createTextMessage("hello"));
        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }

    @Test
    @DisplayName(
            "JMS-1 SASL PLAIN with a wrong key or key name fails the connection with a SASL authentication failure")
    void saslPlainWrongKey() {
        JmsConnectionFactory wrongKey = new JmsConnectionFactory(
                ServiceBusEmulatorServer.KEY_NAME, "not-the-key", uri("jms.connectTimeout=5000"));
        assertThrows(
                JMSSecurityException.class, () -> wrongKey.createConnection().start());
        JmsConnectionFactory wrongName = new JmsConnectionFactory("someone", key(), uri("jms.connectTimeout=5000"));
        assertThrows(
                JMSSecurityException.class, () -> wrongName.createConnection().start());
    }

    @Test
    @DisplayName("JMS-1 without credentials Qpid JMS picks ANONYMOUS; its links are refused as unauthorized")
    void anonymousIsNotAuthorized() throws JMSException {
        namespace.createQueue("orders");
        connection = new JmsConnectionFactory(uri("")).createConnection();
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        assertThrows(JMSSecurityException.class, () -> session.createConsumer(queue));
    }

    @Test
    @DisplayName(
            "JMS-2 TextMessage and BytesMessage bodies, headers and properties round-trip; the JMS annotations are kept")
    void textAndBytesRoundTrip() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        MessageProducer producer = session.createProducer(queue);
        TextMessage text = session.createTextMessage("order-42");
        text.setJMSCorrelationID("c-1");
        text.setJMSType("order");
        text.setStringProperty("region", "eu");
        text.setIntProperty("count", 7);
        text.setLongProperty("total", 1234567890123L);
        text.setBooleanProperty("urgent", true);
        text.setDoubleProperty("ratio", 0.5);
        producer.send(text);
        BytesMessage bytes = session.createBytesMessage();
        bytes.writeBytes(new byte[] {1, 2, 3});
        bytes.setStringProperty("kind", "raw");
        producer.send(bytes);

        List<BrokeredMessage> stored = namespace.peek(EntityPath.queue("orders"), 0, 10);
        assertEquals(2, stored.size());
        // Qpid JMS's annotations: the message type (5 = text, 3 = bytes) and the destination type (0 = queue)
        assertEquals((byte) 5, stored.get(0).message().messageAnnotations().get("x-opt-jms-msg-type"));
        assertEquals((byte) 0, stored.get(0).message().messageAnnotations().get("x-opt-jms-dest"));
        assertEquals((byte) 3, stored.get(1).message().messageAnnotations().get("x-opt-jms-msg-type"));

        MessageConsumer consumer = session.createConsumer(queue);
        TextMessage gotText = assertInstanceOf(TextMessage.class, consumer.receive(WAIT_MILLIS));
        assertEquals("order-42", gotText.getText());
        assertEquals(text.getJMSMessageID(), gotText.getJMSMessageID());
        assertEquals("c-1", gotText.getJMSCorrelationID());
        assertEquals("order", gotText.getJMSType());
        assertEquals("eu", gotText.getStringProperty("region"));
        assertEquals(7, gotText.getIntProperty("count"));
        assertEquals(1234567890123L, gotText.getLongProperty("total"));
        assertTrue(gotText.getBooleanProperty("urgent"));
        assertEquals(0.5, gotText.getDoubleProperty("ratio"));
        assertEquals(1, gotText.getIntProperty("JMSXDeliveryCount"));
        assertFalse(gotText.getJMSRedelivered());
        assertEquals("orders", ((Queue) gotText.getJMSDestination()).getQueueName());
        BytesMessage gotBytes = assertInstanceOf(BytesMessage.class, consumer.receive(WAIT_MILLIS));
        byte[] body = new byte[(int) gotBytes.getBodyLength()];
        gotBytes.readBytes(body);
        assertArrayEquals(new byte[] {1, 2, 3}, body);
        assertEquals("raw", gotBytes.getStringProperty("kind"));
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName("JMS-3 CLIENT_ACKNOWLEDGE: received messages stay locked until acknowledge(), which completes them")
    void clientAcknowledge() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect().createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        MessageProducer producer = session.createProducer(queue);
        producer.send(session.createTextMessage("a"));
        producer.send(session.createTextMessage("b"));
        MessageConsumer consumer = session.createConsumer(queue);
        assertNotNull(consumer.receive(WAIT_MILLIS));
        Message second = consumer.receive(WAIT_MILLIS);
        assertNotNull(second);
        assertEquals(2, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        assertTrue(
                namespace
                        .receive(EntityPath.queue("orders"), ReceiveMode.PEEK_LOCK, 2, Duration.ZERO)
                        .isEmpty(),
                "both are locked by the JMS consumer");
        second.acknowledge();
        awaitActive("orders", 0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {Session.AUTO_ACKNOWLEDGE, Session.DUPS_OK_ACKNOWLEDGE})
    @DisplayName(
            "JMS-3 AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE: each received message is completed without acknowledge()")
    void automaticAcknowledgement(int mode) throws JMSException {
        namespace.createQueue("orders");
        Session session = connect("jms.prefetchPolicy.all=0").createSession(false, mode);
        Queue queue = session.createQueue("orders");
        MessageProducer producer = session.createProducer(queue);
        producer.send(session.createTextMessage("a"));
        producer.send(session.createTextMessage("b"));
        MessageConsumer consumer = session.createConsumer(queue);
        assertEquals("a", ((TextMessage) consumer.receive(WAIT_MILLIS)).getText());
        awaitActive("orders", 1);
        assertEquals("b", ((TextMessage) consumer.receive(WAIT_MILLIS)).getText());
        awaitActive("orders", 0);
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).deadLetterMessageCount());
    }

    @Test
    @DisplayName(
            "JMS-3 Qpid JMS's INDIVIDUAL_ACKNOWLEDGE (101): acknowledge() completes that message only, the others stay locked")
    void individualAcknowledge() throws JMSException {
        namespace.createQueue(
                "orders",
                QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        Session session = connect().createSession(false, 101); // JmsSession's INDIVIDUAL_ACKNOWLEDGE
        Queue queue = session.createQueue("orders");
        MessageProducer producer = session.createProducer(queue);
        producer.send(session.createTextMessage("a"));
        producer.send(session.createTextMessage("b"));
        MessageConsumer consumer = session.createConsumer(queue);
        Message first = consumer.receive(WAIT_MILLIS);
        Message second = consumer.receive(WAIT_MILLIS);
        assertEquals("b", ((TextMessage) second).getText());
        second.acknowledge();
        awaitActive("orders", 1);
        assertTrue(
                namespace
                        .receive(EntityPath.queue("orders"), ReceiveMode.PEEK_LOCK, 1, Duration.ZERO)
                        .isEmpty(),
                "\"a\" is still locked by the consumer");
        first.acknowledge();
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName("JMS-3 Qpid JMS's NO_ACKNOWLEDGE (100): a pre-settled consumer receives and deletes")
    void noAcknowledge() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect("jms.prefetchPolicy.all=0").createSession(false, 100); // NO_ACKNOWLEDGE
        Queue queue = session.createQueue("orders");
        session.createProducer(queue).send(session.createTextMessage("a"));
        MessageConsumer consumer = session.createConsumer(queue);
        Message got = consumer.receive(WAIT_MILLIS);
        assertEquals("a", ((TextMessage) got).getText());
        // gone as the service's receive-and-delete mode takes it: nothing locked, nothing to settle
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        got.acknowledge();
        assertNull(consumer.receive(100));
    }

    @Test
    @DisplayName("JMS-2 JMSXDeliveryCount is the header's delivery count plus one: deliveries the SDK abandoned count")
    void deliveryCountFromTheHeader() throws JMSException {
        namespace.createQueue(
                "orders", QueueOptions.builder().maxDeliveryCount(10).build());
        try (ServiceBusSenderClient sender =
                        clients().sender().queueName("orders").buildClient();
                ServiceBusReceiverClient receiver =
                        clients().receiver().queueName("orders").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("twice abandoned").setContentType("text/plain"));
            for (int i = 0; i < 2; i++) {
                ServiceBusReceivedMessage got = receiver.receiveMessages(1, Duration.ofSeconds(10)).stream()
                        .findFirst()
                        .orElseThrow();
                receiver.abandon(got);
            }
        }
        assertEquals(2, namespace.peek(EntityPath.queue("orders"), 0, 1).get(0).deliveryCount());
        Session session = connect("jms.prefetchPolicy.all=0").createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Message got = session.createConsumer(session.createQueue("orders")).receive(WAIT_MILLIS);
        assertEquals("twice abandoned", ((TextMessage) got).getText());
        assertEquals(3, got.getIntProperty("JMSXDeliveryCount"));
        assertTrue(got.getJMSRedelivered());
        got.acknowledge();
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName(
            "JMS-4 outcomes: rejected dead-letters, released unlocks, modified failed abandons, undeliverable-here defers")
    void outcomes() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect("jms.prefetchPolicy.all=1").createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        MessageConsumer consumer = session.createConsumer(queue);
        MessageProducer producer = session.createProducer(queue);
        EntityPath orders = EntityPath.queue("orders");

        producer.send(session.createTextMessage("reject"));
        Message got = consumer.receive(WAIT_MILLIS);
        got.setIntProperty("JMS_AMQP_ACK_TYPE", 2); // REJECTED
        got.acknowledge();
        awaitDeadLettered("orders", 1);

        producer.send(session.createTextMessage("release"));
        got = consumer.receive(WAIT_MILLIS);
        got.setIntProperty("JMS_AMQP_ACK_TYPE", 3); // RELEASED: back without a delivery counted
        got.acknowledge();
        got = consumer.receive(WAIT_MILLIS);
        assertEquals("release", ((TextMessage) got).getText());
        assertEquals(1, got.getIntProperty("JMSXDeliveryCount"));

        got.setIntProperty("JMS_AMQP_ACK_TYPE", 4); // MODIFIED_FAILED: abandon, the delivery counts
        got.acknowledge();
        got = consumer.receive(WAIT_MILLIS);
        assertEquals("release", ((TextMessage) got).getText());
        assertEquals(2, got.getIntProperty("JMSXDeliveryCount"));
        assertTrue(got.getJMSRedelivered());

        got.setIntProperty("JMS_AMQP_ACK_TYPE", 5); // MODIFIED_FAILED_UNDELIVERABLE: defer
        got.acknowledge();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> namespace.runtimeInfo(orders).deferredMessageCount() == 1);
        assertNull(consumer.receiveNoWait());
    }

    @Test
    @DisplayName(
            "JMS-5 session.recover() redelivers locally with JMSXDeliveryCount raised; the acknowledgement then completes")
    void recover() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect().createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        session.createProducer(queue).send(session.createTextMessage("a"));
        MessageConsumer consumer = session.createConsumer(queue);
        assertEquals(1, consumer.receive(WAIT_MILLIS).getIntProperty("JMSXDeliveryCount"));
        session.recover();
        Message again = consumer.receive(WAIT_MILLIS);
        assertEquals(2, again.getIntProperty("JMSXDeliveryCount"));
        assertTrue(again.getJMSRedelivered());
        again.acknowledge();
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName(
            "JMS-6 drain: with prefetch 0 receiveNoWait and receive(timeout) on an empty queue return null at once")
    void drainAnsweredAtOnce() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect("jms.prefetchPolicy.all=0").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        MessageConsumer consumer = session.createConsumer(queue);
        Assertions.assertTimeoutPreemptively(DRAIN_BOUND, () -> {
            assertNull(consumer.receiveNoWait());
            assertNull(consumer.receive(100));
            assertNull(consumer.receiveNoWait());
        });
        session.createProducer(queue).send(session.createTextMessage("a"));
        Message got = Assertions.assertTimeoutPreemptively(DRAIN_BOUND, () -> consumer.receiveNoWait());
        assertEquals("a", ((TextMessage) got).getText());
        assertNull(consumer.receive(100));
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName(
            "JMS-7 a message sent with a time to live is dead-lettered once the virtual clock passes it, and read from <queue>/$DeadLetterQueue")
    void timeToLiveDeadLetters() throws JMSException {
        namespace.createQueue(
                "orders",
                QueueOptions.builder().deadLetteringOnMessageExpiration(true).build());
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue("orders"));
        producer.setTimeToLive(30_000);
        TextMessage sent = session.createTextMessage("stale");
        producer.send(sent);
        assertEquals(
                Duration.ofSeconds(30),
                namespace.peek(EntityPath.queue("orders"), 0, 1).get(0).timeToLive());
        namespace.clock().advance(Duration.ofSeconds(31));
        awaitDeadLettered("orders", 1);

        MessageConsumer dlq = session.createConsumer(session.createQueue("orders/$DeadLetterQueue"));
        TextMessage got = assertInstanceOf(TextMessage.class, dlq.receive(WAIT_MILLIS));
        assertEquals("stale", got.getText());
        assertEquals(sent.getJMSMessageID(), got.getJMSMessageID());
        assertEquals("TTLExpiredException", got.getStringProperty("DeadLetterReason"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> namespace.runtimeInfo(EntityPath.queue("orders")).deadLetterMessageCount() == 0);
    }

    @Test
    @DisplayName(
            "JMS-8 a transacted session: sends and acknowledgements across entities take effect on commit, none on rollback")
    void transactedSession() throws JMSException {
        namespace.createQueue("in");
        namespace.createQueue("out");
        Connection c = connect();
        Session plain = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        plain.createProducer(plain.createQueue("in")).send(plain.createTextMessage("work"));

        Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer consumer = tx.createConsumer(tx.createQueue("in"));
        MessageProducer producer = tx.createProducer(tx.createQueue("out"));

        Message got = consumer.receive(WAIT_MILLIS);
        assertEquals("work", ((TextMessage) got).getText());
        producer.send(tx.createTextMessage("result"));
        tx.rollback();
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("out")).activeMessageCount(), "send rolled back");
        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("in")).activeMessageCount(), "ack rolled back");

        Message again = consumer.receive(WAIT_MILLIS);
        assertEquals("work", ((TextMessage) again).getText());
        assertTrue(again.getJMSRedelivered());
        producer.send(tx.createTextMessage("result"));
        tx.commit();
        awaitActive("in", 0);
        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("out")).activeMessageCount(), "send committed");

        // the session declares a new transaction after each discharge: a second round commits too
        producer.send(tx.createTextMessage("second"));
        tx.commit();
        assertEquals(2, namespace.runtimeInfo(EntityPath.queue("out")).activeMessageCount());
    }

    @Test
    @DisplayName(
            "JMS-9 interop: a JMS TextMessage reaches the Java SDK as an AmqpValue string body with its properties")
    void jmsToSdk() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        TextMessage text = session.createTextMessage("from-jms");
        text.setStringProperty("region", "eu");
        text.setJMSCorrelationID("c-1");
        session.createProducer(session.createQueue("orders")).send(text);
        try (ServiceBusReceiverClient receiver =
                clients().receiver().queueName("orders").buildClient()) {
            ServiceBusReceivedMessage got = receiver.receiveMessages(1, Duration.ofSeconds(10)).stream()
                    .findFirst()
                    .orElseThrow();
            AmqpMessageBody body = got.getRawAmqpMessage().getBody();
            assertEquals(AmqpMessageBodyType.VALUE, body.getBodyType());
            assertEquals("from-jms", body.getValue());
            assertEquals("eu", got.getApplicationProperties().get("region"));
            assertEquals("c-1", got.getCorrelationId());
            // Qpid JMS puts its "ID:..." message id on the wire as it is
            assertEquals(text.getJMSMessageID(), got.getMessageId());
            assertEquals(
                    (byte) 5, got.getRawAmqpMessage().getMessageAnnotations().get("x-opt-jms-msg-type"));
            receiver.complete(got);
        }
    }

    @Test
    @DisplayName(
            "JMS-9 interop: an SDK message reaches Qpid JMS as a BytesMessage, or as a TextMessage with a text/* content type")
    void sdkToJms() throws JMSException {
        namespace.createQueue("orders");
        try (ServiceBusSenderClient sender =
                clients().sender().queueName("orders").buildClient()) {
            ServiceBusMessage bytes = new ServiceBusMessage(new byte[] {1, 2, 3}).setMessageId("m-1");
            bytes.getApplicationProperties().put("region", "eu");
            sender.sendMessage(bytes);
            sender.sendMessage(
                    new ServiceBusMessage("hello").setContentType("text/plain").setMessageId("m-2"));
        }
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue("orders"));
        BytesMessage first = assertInstanceOf(BytesMessage.class, consumer.receive(WAIT_MILLIS));
        byte[] body = new byte[(int) first.getBodyLength()];
        first.readBytes(body);
        assertArrayEquals(new byte[] {1, 2, 3}, body);
        assertEquals("eu", first.getStringProperty("region"));
        // Qpid JMS marks a message id that lacks its "ID:" prefix
        assertEquals("ID:AMQP_NO_PREFIX:m-1", first.getJMSMessageID());
        TextMessage second = assertInstanceOf(TextMessage.class, consumer.receive(WAIT_MILLIS));
        assertEquals("hello", second.getText());
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName(
            "JMS-9 interop: JMS BytesMessage, MapMessage, StreamMessage and ObjectMessage reach the Java SDK as the AMQP bodies Qpid JMS writes")
    void jmsBodiesToSdk() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue("orders"));
        BytesMessage bytes = session.createBytesMessage();
        bytes.writeBytes(new byte[] {1, 2, 3});
        bytes.setStringProperty("kind", "bytes");
        producer.send(bytes);
        MapMessage map = session.createMapMessage();
        map.setString("sku", "A-1");
        map.setInt("qty", 3);
        producer.send(map);
        StreamMessage stream = session.createStreamMessage();
        stream.writeString("x");
        stream.writeLong(7L);
        producer.send(stream);
        producer.send(session.createObjectMessage(new ArrayList<>(List.of("o"))));
        try (ServiceBusReceiverClient receiver =
                clients().receiver().queueName("orders").buildClient()) {
            List<ServiceBusReceivedMessage> got = new ArrayList<>();
            while (got.size() < 4) {
                receiver.receiveMessages(4 - got.size(), Duration.ofSeconds(10)).forEach(m -> {
                    got.add(m);
                    receiver.complete(m);
                });
            }
            // BytesMessage: a Data body, read with getBody(); Qpid JMS marks it application/octet-stream
            assertArrayEquals(new byte[] {1, 2, 3}, got.get(0).getBody().toBytes());
            assertEquals("application/octet-stream", got.get(0).getContentType());
            assertEquals("bytes", got.get(0).getApplicationProperties().get("kind"));
            assertEquals(
                    (byte) 3,
                    got.get(0).getRawAmqpMessage().getMessageAnnotations().get("x-opt-jms-msg-type"));
            // MapMessage: an AmqpValue map
            AmqpMessageBody mapBody = got.get(1).getRawAmqpMessage().getBody();
            assertEquals(AmqpMessageBodyType.VALUE, mapBody.getBodyType());
            assertEquals(Map.of("sku", "A-1", "qty", 3), mapBody.getValue());
            assertEquals(
                    (byte) 2,
                    got.get(1).getRawAmqpMessage().getMessageAnnotations().get("x-opt-jms-msg-type"));
            // StreamMessage: an AmqpSequence
            AmqpMessageBody streamBody = got.get(2).getRawAmqpMessage().getBody();
            assertEquals(AmqpMessageBodyType.SEQUENCE, streamBody.getBodyType());
            assertEquals(List.of("x", 7L), streamBody.getSequence());
            assertEquals(
                    (byte) 4,
                    got.get(2).getRawAmqpMessage().getMessageAnnotations().get("x-opt-jms-msg-type"));
            // ObjectMessage: Java serialization in a Data body, marked with its content type
            assertEquals("application/x-java-serialized-object", got.get(3).getContentType());
            assertEquals(
                    (byte) 1,
                    got.get(3).getRawAmqpMessage().getMessageAnnotations().get("x-opt-jms-msg-type"));
        }
    }

    @Test
    @DisplayName(
            "JMS-9 interop: SDK value and sequence bodies reach Qpid JMS as an ObjectMessage holding the map or list, a string value as a TextMessage")
    void sdkBodiesToJms() throws JMSException {
        namespace.createQueue("orders");
        try (ServiceBusSenderClient sender =
                clients().sender().queueName("orders").buildClient()) {
            ServiceBusMessage map = new ServiceBusMessage(AmqpMessageBody.fromValue(Map.of("sku", "A-1")));
            // the Java SDK sends none of a message's own annotations (only its scheduled time and partition
            // key), so Qpid JMS's x-opt-jms-msg-type cannot come from it: the body alone decides the type
            map.getRawAmqpMessage().getMessageAnnotations().put("x-opt-jms-msg-type", (byte) 2);
            sender.sendMessage(map);
            sender.sendMessage(new ServiceBusMessage(AmqpMessageBody.fromSequence(List.of("x", 7L))));
            sender.sendMessage(new ServiceBusMessage(AmqpMessageBody.fromValue("plain string")));
        }
        assertTrue(namespace
                .peek(EntityPath.queue("orders"), 0, 1)
                .get(0)
                .message()
                .messageAnnotations()
                .isEmpty());
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue("orders"));
        ObjectMessage map = assertInstanceOf(ObjectMessage.class, consumer.receive(WAIT_MILLIS));
        assertEquals(Map.of("sku", "A-1"), map.getObject());
        ObjectMessage list = assertInstanceOf(ObjectMessage.class, consumer.receive(WAIT_MILLIS));
        assertEquals(List.of("x", 7L), list.getObject());
        assertEquals(
                "plain string",
                assertInstanceOf(TextMessage.class, consumer.receive(WAIT_MILLIS))
                        .getText());
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName(
            "JMS-10 messages a closed consumer had prefetched stay locked until their lock expires on the virtual clock, then come again")
    void prefetchedKeepTheirLock() throws JMSException {
        namespace.createQueue(
                "orders",
                QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        MessageProducer producer = session.createProducer(queue);
        producer.send(session.createTextMessage("a"));
        producer.send(session.createTextMessage("b"));
        MessageConsumer first = session.createConsumer(queue);
        assertEquals("a", ((TextMessage) first.receive(WAIT_MILLIS)).getText());
        // "b" came with "a": the consumer's credit (Qpid JMS's default prefetch, 1000) took both at once
        first.close();
        MessageConsumer second = session.createConsumer(queue);
        assertNull(second.receive(200), "still locked by the closed consumer");
        namespace.clock().advance(Duration.ofSeconds(31));
        Message again = second.receive(WAIT_MILLIS);
        assertEquals("b", ((TextMessage) again).getText());
        assertEquals(2, again.getIntProperty("JMSXDeliveryCount"));
        awaitActive("orders", 0);
    }

    @Test
    @DisplayName(
            "JMS-11 a QueueBrowser (copy distribution mode) peeks: it enumerates the messages in order and leaves them in place")
    void browser() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        MessageProducer producer = session.createProducer(queue);
        for (String text : List.of("a", "b", "c")) {
            producer.send(session.createTextMessage(text));
        }
        for (int round = 0; round < 2; round++) {
            QueueBrowser browser = session.createBrowser(queue);
            Enumeration<?> messages = browser.getEnumeration();
            List<String> seen = new ArrayList<>();
            while (messages.hasMoreElements()) {
                seen.add(((TextMessage) messages.nextElement()).getText());
            }
            browser.close();
            assertEquals(List.of("a", "b", "c"), seen, "round " + round);
        }
        assertEquals(3, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        MessageConsumer consumer = session.createConsumer(queue);
        assertEquals("a", ((TextMessage) consumer.receive(WAIT_MILLIS)).getText());
        assertEquals(1, consumer.receive(WAIT_MILLIS).getIntProperty("JMSXDeliveryCount"));
    }

    @Test
    @DisplayName(
            "JMS-12 a delivery delay (x-opt-delivery-time) schedules the message; it comes once the virtual clock reaches it")
    void deliveryDelay() throws JMSException {
        namespace.createQueue("orders");
        Session session = connect("jms.prefetchPolicy.all=0").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("orders");
        MessageProducer producer = session.createProducer(queue);
        producer.setDeliveryDelay(60_000);
        TextMessage sent = session.createTextMessage("later");
        producer.send(sent);
        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).scheduledMessageCount());
        MessageConsumer consumer = session.createConsumer(queue);
        assertNull(consumer.receiveNoWait());
        // Qpid JMS computes the delivery time on the wall clock; the namespace's clock started at the wall clock's now
        namespace
                .clock()
                .advanceTo(Instant.ofEpochMilli(sent.getJMSDeliveryTime()).plusSeconds(1));
        TextMessage got = assertInstanceOf(TextMessage.class, consumer.receive(WAIT_MILLIS));
        assertEquals("later", got.getText());
        assertEquals(sent.getJMSDeliveryTime(), got.getJMSDeliveryTime());
    }

    @Test
    @DisplayName(
            "JMS-13 a temporary queue (dynamic node) serves request/reply through JMSReplyTo and is deleted with its owner")
    void temporaryQueueRequestReply() throws JMSException {
        namespace.createQueue("requests");
        Connection c = connect();
        Session requester = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        TemporaryQueue replies = requester.createTemporaryQueue();
        assertTrue(namespace.queueExists(replies.getQueueName()), replies.getQueueName());
        TextMessage request = requester.createTextMessage("ping");
        request.setJMSReplyTo(replies);
        requester.createProducer(requester.createQueue("requests")).send(request);

        Session responder = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Message got =
                responder.createConsumer(responder.createQueue("requests")).receive(WAIT_MILLIS);
        Destination replyTo = got.getJMSReplyTo();
        assertInstanceOf(TemporaryQueue.class, replyTo, "x-opt-jms-reply-to kept");
        TextMessage reply = responder.createTextMessage("pong");
        reply.setJMSCorrelationID(got.getJMSMessageID());
        responder.createProducer(replyTo).send(reply);

        MessageConsumer replyConsumer = requester.createConsumer(replies);
        TextMessage answer = assertInstanceOf(TextMessage.class, replyConsumer.receive(WAIT_MILLIS));
        assertEquals("pong", answer.getText());
        assertEquals(request.getJMSMessageID(), answer.getJMSCorrelationID());
        replyConsumer.close();
        replies.delete();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !namespace.queueExists(replies.getQueueName()));

        TemporaryQueue another = requester.createTemporaryQueue();
        assertTrue(namespace.queueExists(another.getQueueName()));
        c.close();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !namespace.queueExists(another.getQueueName()));
    }

    @Test
    @DisplayName(
            "JMS-14 a non-durable topic consumer gets a subscription of its own (its selector the SQL filter), deleted when it closes")
    void nonDurableTopicConsumers() throws JMSException {
        namespace.createTopic("events");
        Session session = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic topic = session.createTopic("events");
        MessageConsumer all = session.createConsumer(topic);
        MessageConsumer eu = session.createConsumer(topic, "region = 'eu'");
        assertEquals(2, namespace.subscriptionNames("events").size());
        MessageProducer producer = session.createProducer(topic);
        for (String region : List.of("us", "eu")) {
            TextMessage m = session.createTextMessage(region);
            m.setStringProperty("region", region);
            producer.send(m);
        }
        assertEquals("us", ((TextMessage) all.receive(WAIT_MILLIS)).getText());
        assertEquals("eu", ((TextMessage) all.receive(WAIT_MILLIS)).getText());
        TextMessage got = assertInstanceOf(TextMessage.class, eu.receive(WAIT_MILLIS));
        assertEquals("eu", got.getText());
        assertEquals("events", ((Topic) got.getJMSDestination()).getTopicName());
        assertNull(eu.receive(100));
        all.close();
        eu.close();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> namespace.subscriptionNames("events").isEmpty());
    }

    @Test
    @DisplayName(
            "JMS-15 the JMS 2.0 simplified API: JMSContext's anonymous JMSProducer sends, JMSConsumer receives bodies")
    void simplifiedApi() {
        namespace.createQueue("orders");
        JmsConnectionFactory factory = new JmsConnectionFactory(ServiceBusEmulatorServer.KEY_NAME, key(), uri(""));
        try (JMSContext context = factory.createContext()) {
            Queue queue = context.createQueue("orders");
            context.createProducer().setProperty("region", "eu").send(queue, "hello");
            context.createProducer().send(queue, new byte[] {4, 5});
            JMSConsumer consumer = context.createConsumer(queue);
            assertEquals("hello", consumer.receiveBody(String.class, WAIT_MILLIS));
            assertArrayEquals(new byte[] {4, 5}, consumer.receiveBody(byte[].class, WAIT_MILLIS));
        }
        awaitActive("orders", 0);
    }

    private void awaitActive(String queue, long count) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> namespace.runtimeInfo(EntityPath.queue(queue)).activeMessageCount() == count);
    }

    private void awaitDeadLettered(String queue, long count) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> namespace.runtimeInfo(EntityPath.queue(queue)).deadLetterMessageCount() == count);
    }
}
