package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.azure.core.credential.TokenRequestContext;
import com.azure.messaging.servicebus.implementation.ServiceBusSharedKeyCredential;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.UnsignedLong;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.messaging.AmqpSequence;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.amqp.messaging.Data;
import org.apache.qpid.proton.amqp.messaging.DeliveryAnnotations;
import org.apache.qpid.proton.amqp.messaging.Footer;
import org.apache.qpid.proton.amqp.messaging.MessageAnnotations;
import org.apache.qpid.proton.amqp.messaging.Properties;
import org.apache.qpid.proton.amqp.messaging.Rejected;
import org.apache.qpid.proton.amqp.messaging.Source;
import org.apache.qpid.proton.amqp.messaging.Target;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.amqp.transport.ReceiverSettleMode;
import org.apache.qpid.proton.amqp.transport.SenderSettleMode;
import org.apache.qpid.proton.codec.AMQPDefinedTypes;
import org.apache.qpid.proton.codec.DecoderImpl;
import org.apache.qpid.proton.codec.EncoderImpl;
import org.apache.qpid.proton.engine.Connection;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.engine.Sender;
import org.apache.qpid.proton.engine.Session;
import org.apache.qpid.proton.engine.Transport;
import org.apache.qpid.proton.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What clients other than the Java SDK put on the wire, sent frame by frame with proton-j's engine: the
 * shapes the JavaScript SDK (rhea) uses where the Java SDK differs (see {@link NodeClientTest}).
 */
class RawAmqpClientTest {
    private static final String KEY = "raw-client-key";
    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.sharedAccessKey(KEY));

    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private RawClient client;

    @BeforeEach
    void connect() throws IOException {
        namespace = endpoint.namespace();
        server = endpoint.server();
        namespace.createQueue("raw");
        client = new RawClient(server.port());
    }

    @AfterEach
    void close() throws IOException {
        if (client != null) {
            client.close();
        }
    }

    @Test
    @DisplayName("AMQP-15 a $cbs reply link without a target address gets the answers addressed to its name (rhea)")
    void replyLinkAddressedByName() throws IOException {
        Message answer = putToken(null);
        assertEquals(200, answer.getApplicationProperties().getValue().get("statusCode"));
    }

    @Test
    @DisplayName("AMQP-10 a put-token for an entity that does not exist is answered 404 with the not-found wording")
    void putTokenForMissingEntity() throws IOException {
        Map<String, Object> answer = putToken("cbs-replies", "amqp://127.0.0.1/nope")
                .getApplicationProperties()
                .getValue();
        assertEquals(404, answer.get("statusCode"));
        assertEquals("amqp:not-found", String.valueOf(answer.get("errorCondition")));
        assertEquals(
                "The messaging entity 'amqp://127.0.0.1/nope' could not be found.", answer.get("statusDescription"));
    }

    @Test
    @DisplayName("AMQP-10 a put-token for an existing entity's $management is accepted")
    void putTokenForManagement() throws IOException {
        assertEquals(
                200,
                putToken("cbs-replies", "amqp://127.0.0.1/raw/$management")
                        .getApplicationProperties()
                        .getValue()
                        .get("statusCode"));
    }

    @Test
    @DisplayName("SES-8 a non-session receiver's attach to a session queue is refused with amqp:not-allowed (Go SDK)")
    void nonSessionReceiverRefused() throws IOException {
        namespace.createQueue(
                "sessions", QueueOptions.builder().requiresSession(true).build());
        putToken("cbs-replies", "amqp://127.0.0.1/sessions");
        Receiver receiver = client.receiver("plain", "sessions", "plain");
        client.pump(() -> receiver.getRemoteCondition().getCondition() != null, "the refusal");
        assertNull(receiver.getRemoteSource(), "the attach's answer has no source");
        assertEquals(
                "amqp:not-allowed", receiver.getRemoteCondition().getCondition().toString());
        assertTrue(receiver.getRemoteCondition()
                .getDescription()
                .startsWith("It is not possible for an entity that requires sessions to create a non-sessionful"
                        + " message receiver."));
        Receiver deadLetters = client.receiver("dlq", "sessions/$DeadLetterQueue", "dlq");
        client.pump(() -> deadLetters.getRemoteSource() != null, "the dead-letter queue's attach");
        assertNull(deadLetters.getRemoteCondition().getCondition());
    }

    @Test
    @DisplayName("AMQP-23 a second $cbs sender or receiver on a connection is refused with amqp:not-allowed")
    void secondCbsPairRefused() throws IOException {
        putToken("cbs-replies");
        Sender second = client.sender("cbs-requests-2", "$cbs");
        Receiver secondReplies = client.receiver("cbs-replies-2", "$cbs", "cbs-replies-2");
        client.pump(
                () -> second.getRemoteCondition().getCondition() != null
                        && secondReplies.getRemoteCondition().getCondition() != null,
                "the refusals");
        assertEquals(
                "amqp:not-allowed", second.getRemoteCondition().getCondition().toString());
        assertEquals(
                "amqp:not-allowed",
                secondReplies.getRemoteCondition().getCondition().toString());
        assertNull(second.getRemoteTarget(), "the attach's answer has no target");
    }

    @Test
    @DisplayName("AMQP-24 a batch the Go SDK fills to the link's limit (243 messages of 1,000 bytes) is accepted")
    void batchFilledToTheLimit() throws IOException {
        putToken("cbs-replies");
        Sender toQueue = client.sender("to-raw", "raw");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        List<Object> sections = new ArrayList<>();
        int size = 0;
        for (int i = 0; i < 243; i++) {
            Message m = Proton.message();
            Properties properties = new Properties();
            properties.setMessageId(UUID.randomUUID().toString());
            m.setProperties(properties);
            m.setBody(new Data(new Binary(new byte[1000])));
            byte[] encoded = new byte[2048];
            int length = m.encode(encoded, 0, encoded.length);
            sections.add(new Data(new Binary(Arrays.copyOf(encoded, length))));
            size += length + 8; // the Go SDK's count: each message and its data section's vbin32 header
        }
        assertTrue(size <= 256 * 1024, "within the link's limit by the Go SDK's count: " + size);
        Delivery sent = client.sendBatch(toQueue, sections(sections.toArray()));
        client.pump(() -> sent.getRemoteState() != null, "the batch's outcome");
        assertInstanceOf(Accepted.class, sent.getRemoteState(), String.valueOf(sent.getRemoteState()));
        assertEquals(243, namespace.runtimeInfo(EntityPath.queue("raw")).activeMessageCount());
    }

    @Test
    @DisplayName("AMQP-24 a message over the link's limit is rejected with amqp:link:message-size-exceeded; the link"
            + " goes on")
    void messageOverTheLimitRejected() throws IOException {
        putToken("cbs-replies");
        Sender toQueue = client.sender("to-raw", "raw");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        Message big = Proton.message();
        big.setBody(new Data(new Binary(new byte[256 * 1024])));
        byte[] encoded = new byte[300 * 1024];
        int length = big.encode(encoded, 0, encoded.length);
        Delivery sent = client.send(toQueue, Arrays.copyOf(encoded, length));
        client.pump(() -> sent.getRemoteState() != null, "the big message's outcome");
        Rejected rejected = assertInstanceOf(Rejected.class, sent.getRemoteState());
        assertEquals(
                "amqp:link:message-size-exceeded",
                rejected.getError().getCondition().toString());
        Message small = Proton.message();
        small.setBody(new AmqpValue("small"));
        Delivery next = client.send(toQueue, small);
        client.pump(() -> next.getRemoteState() != null, "the next message's outcome");
        assertInstanceOf(Accepted.class, next.getRemoteState());
    }

    @Test
    @DisplayName("AMQP-25 a rejected transfer's error carries an info map with a tracking id, as the service's")
    void rejectionCarriesInfo() throws IOException {
        namespace.createQueue(
                "sessions", QueueOptions.builder().requiresSession(true).build());
        putToken("cbs-replies", "amqp://127.0.0.1/sessions");
        Sender toQueue = client.sender("to-sessions", "sessions");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        Message message = Proton.message();
        message.setBody(new AmqpValue("no session id"));
        Delivery sent = client.send(toQueue, message);
        client.pump(() -> sent.getRemoteState() != null, "the send's outcome");
        Rejected rejected = assertInstanceOf(Rejected.class, sent.getRemoteState());
        assertNotNull(rejected.getError().getDescription());
        assertNotNull(rejected.getError().getInfo(), "the error's info");
        assertNotNull(rejected.getError().getInfo().get(Symbol.valueOf("com.microsoft:tracking-id")));
    }

    @Test
    @DisplayName(
            "AMQP-15 a dead-letter is confirmed with a rejected outcome without an error (rhea reads one as failure)")
    void deadLetterConfirmedWithoutError() throws IOException {
        putToken("cbs-replies");
        Delivery delivery = sendAndReceive("with id");
        Rejected deadLetter = new Rejected();
        deadLetter.setError(new ErrorCondition(Symbol.valueOf("com.microsoft:dead-letter"), null));
        deadLetter.getError().setInfo(Map.of("DeadLetterReason", "Poison", "DeadLetterErrorDescription", "bad"));
        delivery.disposition(deadLetter);
        client.pump(delivery::remotelySettled, "the dead-letter's settlement");
        Rejected confirmed = assertInstanceOf(Rejected.class, delivery.getRemoteState());
        assertNull(confirmed.getError());

        List<BrokeredMessage> dead = namespace.peek(EntityPath.queue("raw").deadLetter(), 0, 10);
        assertEquals(1, dead.size());
        assertEquals("Poison", dead.get(0).deadLetterReason());
        assertEquals("bad", dead.get(0).deadLetterErrorDescription());
    }

    @Test
    @DisplayName("AMQP-15 a message sent without a message id gets one, a GUID, as the service gives it")
    void messageIdAssigned() throws IOException {
        putToken("cbs-replies");
        sendAndReceive(null);
        Object id = client.lastMessage.getMessageId();
        assertNotNull(id);
        assertTrue(id.toString().matches("[0-9a-f]{32}"), "a GUID without dashes: " + id);
        assertEquals(
                id.toString(),
                namespace.peek(EntityPath.queue("raw"), 0, 1).get(0).message().messageId());
    }

    @Test
    @DisplayName("MSG-1 several data sections (the .NET SDK sends them) come back as several, with the annotations")
    void severalDataSections() throws IOException {
        putToken("cbs-replies");
        Sender toQueue = client.sender("to-raw", "raw");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        Properties properties = new Properties();
        properties.setMessageId("sections");
        byte[] encoded = sections(
                new DeliveryAnnotations(Map.of(Symbol.valueOf("x-hop"), "a")),
                new MessageAnnotations(Map.of(Symbol.valueOf("x-custom"), "kept")),
                properties,
                new Data(new Binary(new byte[] {1, 2})),
                new Data(new Binary(new byte[] {3})),
                new Footer(Map.of(Symbol.valueOf("sum"), "x")));
        Delivery sent = client.send(toQueue, encoded);
        client.pump(() -> sent.getRemoteState() != null, "the send's outcome");
        assertInstanceOf(Accepted.class, sent.getRemoteState());
        assertInstanceOf(
                MessageBody.DataSections.class,
                namespace.peek(EntityPath.queue("raw"), 0, 1).get(0).message().body());

        client.receive(client.receiver("from-raw", "raw", "from-raw"), "the message");
        List<Object> got = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(client.lastBytes);
        DecoderImpl decoder = new DecoderImpl();
        AMQPDefinedTypes.registerAllTypes(decoder, new EncoderImpl(decoder));
        decoder.setByteBuffer(buffer);
        while (buffer.hasRemaining()) {
            got.add(decoder.readObject());
        }
        List<Binary> data = got.stream()
                .filter(Data.class::isInstance)
                .map(d -> ((Data) d).getValue())
                .toList();
        assertEquals(List.of(new Binary(new byte[] {1, 2}), new Binary(new byte[] {3})), data);
        Footer footer = assertInstanceOf(Footer.class, got.get(got.size() - 1));
        assertEquals("x", footer.getValue().get(Symbol.valueOf("sum")));
        DeliveryAnnotations delivery = (DeliveryAnnotations) got.stream()
                .filter(DeliveryAnnotations.class::isInstance)
                .findFirst()
                .orElseThrow();
        assertEquals("a", delivery.getValue().get(Symbol.valueOf("x-hop")));
        MessageAnnotations annotations = (MessageAnnotations) got.stream()
                .filter(MessageAnnotations.class::isInstance)
                .findFirst()
                .orElseThrow();
        assertEquals("kept", annotations.getValue().get(Symbol.valueOf("x-custom")));
    }

    @Test
    @DisplayName("MSG-1 several amqp-sequence sections (the Go SDK sends them) come back as several")
    void severalSequenceSections() throws IOException {
        putToken("cbs-replies");
        Sender toQueue = client.sender("to-raw", "raw");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        Properties properties = new Properties();
        properties.setMessageId("sequences");
        byte[] encoded = sections(
                properties,
                new AmqpSequence(List.of("a", 1L)),
                new AmqpSequence(List.of("b")),
                new Footer(Map.of(Symbol.valueOf("sum"), "x")));
        Delivery sent = client.send(toQueue, encoded);
        client.pump(() -> sent.getRemoteState() != null, "the send's outcome");
        assertInstanceOf(Accepted.class, sent.getRemoteState());
        assertInstanceOf(
                MessageBody.Sequences.class,
                namespace.peek(EntityPath.queue("raw"), 0, 1).get(0).message().body());

        client.receive(client.receiver("from-raw", "raw", "from-raw"), "the message");
        List<Object> got = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(client.lastBytes);
        DecoderImpl decoder = new DecoderImpl();
        AMQPDefinedTypes.registerAllTypes(decoder, new EncoderImpl(decoder));
        decoder.setByteBuffer(buffer);
        while (buffer.hasRemaining()) {
            got.add(decoder.readObject());
        }
        List<Object> sequences = got.stream()
                .filter(AmqpSequence.class::isInstance)
                .map(d -> (Object) ((AmqpSequence) d).getValue())
                .toList();
        assertEquals(List.of(List.of("a", 1L), List.of("b")), sequences);
        assertInstanceOf(Footer.class, got.get(got.size() - 1));
    }

    @Test
    @DisplayName(
            "MSG-1 ids typed uuid, ulong or binary come back with their AMQP types; stamped annotations are the broker's")
    void typedIds() throws IOException {
        putToken("cbs-replies");
        Sender toQueue = client.sender("to-raw", "raw");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        UUID id = UUID.randomUUID();
        Message message = Proton.message();
        Properties properties = new Properties();
        properties.setMessageId(id);
        properties.setCorrelationId(UnsignedLong.valueOf("18446744073709551615"));
        message.setProperties(properties);
        message.setMessageAnnotations(new MessageAnnotations(Map.of(
                Symbol.valueOf("x-opt-sequence-number"),
                999L,
                Symbol.valueOf("x-opt-deadletter-source"),
                "forged",
                Symbol.valueOf("x-custom"),
                "kept")));
        message.setBody(new AmqpValue("typed"));
        Delivery sent = client.send(toQueue, message);
        client.pump(() -> sent.getRemoteState() != null, "the send's outcome");
        assertInstanceOf(Accepted.class, sent.getRemoteState());
        assertEquals(
                id.toString(),
                namespace.peek(EntityPath.queue("raw"), 0, 1).get(0).message().messageId(),
                "the broker works with the id's string form");

        Message binary = Proton.message();
        Properties binaryId = new Properties();
        binaryId.setMessageId(new Binary(new byte[] {0, 1, 2}));
        binary.setProperties(binaryId);
        Delivery second = client.send(toQueue, binary);
        client.pump(() -> second.getRemoteState() != null, "the second send's outcome");

        Receiver receiver = client.receiver("from-raw", "raw", "from-raw");
        Message got = client.receive(receiver, "the message");
        assertEquals(id, got.getMessageId());
        assertEquals(UnsignedLong.valueOf("18446744073709551615"), got.getCorrelationId());
        Map<?, ?> annotations = got.getMessageAnnotations().getValue();
        assertEquals(1L, annotations.get(Symbol.valueOf("x-opt-sequence-number")), "what the broker stamps is its own");
        assertNull(annotations.get(Symbol.valueOf("x-opt-deadletter-source")));
        assertEquals("kept", annotations.get(Symbol.valueOf("x-custom")));
        Message gotBinary = client.receive(receiver, "the binary-id message");
        assertEquals(new Binary(new byte[] {0, 1, 2}), gotBinary.getMessageId());
    }

    @Test
    @DisplayName("MSG-4 a message sent without a body section is stored without one and delivered without one")
    void noBodySection() throws IOException {
        putToken("cbs-replies");
        Sender toQueue = client.sender("to-raw", "raw");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        Properties properties = new Properties();
        properties.setMessageId("bodiless");
        Delivery sent = client.send(toQueue, sections(properties));
        client.pump(() -> sent.getRemoteState() != null, "the send's outcome");
        assertInstanceOf(Accepted.class, sent.getRemoteState());
        assertEquals(
                MessageBody.ABSENT,
                namespace.peek(EntityPath.queue("raw"), 0, 1).get(0).message().body());

        client.receive(client.receiver("from-raw", "raw", "from-raw"), "the message");
        ByteBuffer buffer = ByteBuffer.wrap(client.lastBytes);
        DecoderImpl decoder = new DecoderImpl();
        AMQPDefinedTypes.registerAllTypes(decoder, new EncoderImpl(decoder));
        decoder.setByteBuffer(buffer);
        List<Object> got = new ArrayList<>();
        while (buffer.hasRemaining()) {
            got.add(decoder.readObject());
        }
        assertTrue(
                got.stream().noneMatch(s -> s instanceof Data || s instanceof AmqpValue),
                () -> "no body section expected, got " + got);
        assertTrue(got.stream().anyMatch(Properties.class::isInstance), () -> "the properties expected, got " + got);
    }

    private static byte[] sections(Object... sections) {
        ByteBuffer buffer = ByteBuffer.allocate(512 * 1024);
        DecoderImpl decoder = new DecoderImpl();
        EncoderImpl encoder = new EncoderImpl(decoder);
        AMQPDefinedTypes.registerAllTypes(decoder, encoder);
        encoder.setByteBuffer(buffer);
        for (Object section : sections) {
            encoder.writeObject(section);
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    /** Authorizes the connection for the queue; {@code replyTarget} null leaves the reply link without one. */
    private Message putToken(String replyTarget) throws IOException {
        return putToken(replyTarget, "amqp://127.0.0.1/raw");
    }

    private Message putToken(String replyTarget, String audience) throws IOException {
        String replyLink = "cbs-reply-link";
        Sender requests = client.sender("cbs-requests", "$cbs");
        Receiver replies = client.receiver(replyLink, "$cbs", replyTarget);
        client.pump(() -> requests.getCredit() > 0, "credit on $cbs");
        Message putToken = Proton.message();
        Properties properties = new Properties();
        properties.setMessageId("put-token-1");
        properties.setReplyTo(replyTarget != null ? replyTarget : replyLink);
        putToken.setProperties(properties);
        putToken.setApplicationProperties(new ApplicationProperties(
                Map.of("operation", "put-token", "type", "servicebus.windows.net:sastoken", "name", audience)));
        putToken.setBody(new AmqpValue(
                new ServiceBusSharedKeyCredential(ServiceBusEmulatorServer.KEY_NAME, KEY, Duration.ofHours(1))
                        .getToken(new TokenRequestContext().addScopes(audience))
                        .block()
                        .getToken()));
        client.send(requests, putToken);
        Message answer = client.receive(replies, "the put-token answer");
        assertEquals("put-token-1", answer.getCorrelationId());
        return answer;
    }

    /** Sends a message with {@code messageId} (or none) to the queue and receives it in peek-lock mode. */
    private Delivery sendAndReceive(String messageId) throws IOException {
        Sender toQueue = client.sender("to-raw", "raw");
        client.pump(() -> toQueue.getCredit() > 0, "credit on the queue");
        Message message = Proton.message();
        if (messageId != null) {
            Properties properties = new Properties();
            properties.setMessageId(messageId);
            message.setProperties(properties);
        }
        message.setBody(new AmqpValue("body"));
        Delivery sent = client.send(toQueue, message);
        client.pump(() -> sent.getRemoteState() != null, "the send's outcome");
        client.receive(client.receiver("from-raw", "raw", "from-raw"), "the message");
        return client.lastDelivery;
    }

    /** A blocking AMQP client: proton-j's engine over a socket, pumped by the test thread. */
    private static final class RawClient implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final Transport transport = Proton.transport();
        private final Session session;
        private final byte[] buffer = new byte[64 * 1024];
        private long tags;
        Delivery lastDelivery;
        Message lastMessage;
        byte[] lastBytes;

        RawClient(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(100);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            transport.sasl().client();
            transport.sasl().setMechanisms("ANONYMOUS");
            Connection connection = Proton.connection();
            connection.setContainer("raw-client");
            connection.setHostname("127.0.0.1");
            transport.bind(connection);
            connection.open();
            session = connection.session();
            session.open();
        }

        Sender sender(String name, String address) {
            Sender sender = session.sender(name);
            Target target = new Target();
            target.setAddress(address);
            sender.setTarget(target);
            sender.setSource(new Source());
            sender.open();
            return sender;
        }

        /** A peek-lock receiver on {@code address}; {@code targetAddress} may be null, as rhea leaves it. */
        Receiver receiver(String name, String address, String targetAddress) {
            Receiver receiver = session.receiver(name);
            Source source = new Source();
            source.setAddress(address);
            receiver.setSource(source);
            Target target = new Target();
            target.setAddress(targetAddress);
            receiver.setTarget(target);
            receiver.setSenderSettleMode(SenderSettleMode.UNSETTLED);
            receiver.setReceiverSettleMode(ReceiverSettleMode.SECOND);
            receiver.open();
            receiver.flow(10);
            return receiver;
        }

        Delivery send(Sender sender, Message message) {
            int length = message.encode(buffer, 0, buffer.length);
            return send(sender, Arrays.copyOf(buffer, length));
        }

        /** Sends {@code encoded}, data sections of encoded messages, as a batch envelope (message format 0x80013700). */
        Delivery sendBatch(Sender sender, byte[] encoded) {
            Delivery delivery = sender.delivery(Long.toString(++tags).getBytes(StandardCharsets.US_ASCII));
            delivery.setMessageFormat(0x80013700);
            sender.send(encoded, 0, encoded.length);
            sender.advance();
            return delivery;
        }

        Delivery send(Sender sender, byte[] encoded) {
            Delivery delivery = sender.delivery(Long.toString(++tags).getBytes(StandardCharsets.US_ASCII));
            sender.send(encoded, 0, encoded.length);
            sender.advance();
            return delivery;
        }

        /** The next whole message on {@code receiver}, left unsettled ({@link #lastDelivery}, {@link #lastMessage}). */
        Message receive(Receiver receiver, String what) throws IOException {
            pump(
                    () -> receiver.current() != null
                            && receiver.current().isReadable()
                            && !receiver.current().isPartial(),
                    what);
            Delivery delivery = receiver.current();
            byte[] bytes = new byte[delivery.pending()];
            receiver.recv(bytes, 0, bytes.length);
            receiver.advance();
            lastDelivery = delivery;
            lastBytes = bytes;
            Message message = Proton.message();
            message.decode(bytes, 0, bytes.length);
            lastMessage = message;
            return message;
        }

        /** Moves frames both ways until {@code done}; fails after {@link #WAIT}. */
        void pump(BooleanSupplier done, String what) throws IOException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                flush();
                if (done.getAsBoolean()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    fail("no " + what + " within " + WAIT);
                }
                int read;
                try {
                    read = in.read(buffer);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                if (read < 0) {
                    fail("the endpoint closed the connection while waiting for " + what);
                }
                for (int offset = 0; offset < read; ) {
                    ByteBuffer tail = transport.tail();
                    int chunk = Math.min(tail.remaining(), read - offset);
                    tail.put(buffer, offset, chunk);
                    transport.process();
                    offset += chunk;
                }
            }
        }

        private void flush() throws IOException {
            while (transport.pending() > 0) {
                ByteBuffer head = transport.head();
                byte[] bytes = new byte[head.remaining()];
                head.get(bytes);
                out.write(bytes);
                transport.pop(bytes.length);
            }
            out.flush();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
