package dev.sbemu.amqp.internal.link;

import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.wire.AmqpMessages;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.amqp.messaging.Accepted;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.amqp.messaging.Properties;
import org.apache.qpid.proton.amqp.messaging.Section;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Delivery;
import org.apache.qpid.proton.engine.Receiver;
import org.apache.qpid.proton.message.Message;

/**
 * A client's request link to {@code $cbs} or {@code <entity>/$management}: each request is answered by its
 * node and the answer goes to the reply link whose address is the request's reply-to (without one: whose address
 * is this link's, as the Python SDK pairs them), with the request's
 * message id as correlation id and the status in the application properties (both spellings the SDKs
 * read: {@code statusCode} and the older {@code status-code}).
 */
public final class RequestLink extends ReceivingLink {
    /** Answers one request; {@code state} is the request delivery's state (a transaction, for some operations). */
    public interface Node {
        Response handle(Message request, DeliveryState state);
    }

    /** The request's {@code operation} application property (both nodes dispatch on it), or null. */
    public static String operation(Message request) {
        ApplicationProperties properties = request.getApplicationProperties();
        Object operation = properties == null || properties.getValue() == null
                ? null
                : properties.getValue().get("operation");
        return operation == null ? null : operation.toString();
    }

    /** An answer: status, description, error condition (null on success) and body. */
    public record Response(int status, String description, String condition, Section body) {
        public static Response ok(Section body) {
            return new Response(body == null ? 204 : 200, body == null ? "No Content" : "OK", null, body);
        }

        public static Response error(ErrorCondition error) {
            return new Response(
                    AmqpErrors.status(error.getCondition()),
                    error.getDescription(),
                    error.getCondition().toString(),
                    null);
        }
    }

    private final Node node;
    private final LinkRouter router;
    private final HeldCalls calls;
    /**
     * Where answers to a request without a reply-to go: the reply link whose target is this link's target address.
     * The Python SDK (pyamqp) sets no reply-to; it pairs its request and reply links by address ({@code $cbs} and
     * {@code $cbs}, {@code <entity>/$management} and the same) and matches answers by correlation id.
     */
    private final String pairedReplyTo;

    /**
     * @param calls how the node's answers are computed: through {@link HeldCalls} for a node whose broker calls a
     *     scripted delay may hold ({@code $management}); null for one that must answer on the loop thread
     *     ({@code $cbs}, which authorizes the connection)
     */
    RequestLink(Receiver receiver, Node node, LinkRouter router, HeldCalls calls) {
        super(receiver);
        this.node = node;
        this.router = router;
        this.calls = calls;
        this.pairedReplyTo = receiver.getRemoteTarget() == null
                ? null
                : receiver.getRemoteTarget().getAddress();
    }

    private String replyTo(Message request) {
        return request.getReplyTo() != null ? request.getReplyTo() : pairedReplyTo;
    }

    @Override
    protected DeliveryState accept(byte[] bytes, Delivery delivery) {
        Message request = Deliveries.decode(bytes);
        DeliveryState state = delivery.getRemoteState();
        if (calls == null) {
            router.reply(replyTo(request), respond(request, state));
            return Accepted.getInstance();
        }
        calls.run(
                () -> respond(request, state),
                answer -> {
                    router.reply(replyTo(request), answer);
                    settle(delivery, Accepted.getInstance());
                },
                error -> answer(request, Response.error(error)));
        return null;
    }

    /** The node's answer to a request, as the reply message (an error answer when the node fails). */
    private Message respond(Message request, DeliveryState state) {
        Response response;
        try {
            response = node.handle(request, state);
        } catch (RuntimeException e) {
            response = Response.error(AmqpErrors.of(e));
        }
        Message answer;
        try {
            answer = answer(request, response);
            AmqpMessages.encode(answer);
        } catch (RuntimeException e) {
            answer = answer(request, Response.error(AmqpErrors.of(e)));
        }
        return answer;
    }

    private static Message answer(Message request, Response response) {
        Message message = Proton.message();
        Properties properties = new Properties();
        properties.setMessageId(UUID.randomUUID());
        properties.setCorrelationId(
                request.getMessageId() != null ? request.getMessageId() : request.getCorrelationId());
        properties.setTo(request.getReplyTo());
        message.setProperties(properties);
        Map<String, Object> status = new HashMap<>();
        status.put("statusCode", response.status());
        status.put("status-code", response.status());
        status.put("statusDescription", response.description());
        status.put("status-description", response.description());
        if (response.condition() != null) {
            status.put("errorCondition", Symbol.valueOf(response.condition()));
            status.put("error-condition", Symbol.valueOf(response.condition()));
        }
        message.setApplicationProperties(new ApplicationProperties(status));
        if (response.body() != null) {
            message.setBody(response.body());
        }
        return message;
    }
}
