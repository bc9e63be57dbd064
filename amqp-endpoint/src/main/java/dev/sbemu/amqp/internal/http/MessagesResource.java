package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.MessageState;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.qpid.proton.amqp.Binary;

/**
 * {@code /__admin/messages?entity=<queue or topic>[&subscription=<name>][&subQueue=deadletter]}: {@code GET} lists an
 * entity's messages (peeked, up to {@code max}), {@code DELETE} purges them; {@code POST} sends one to a queue or
 * topic and {@code POST messages/resubmit?...&sequenceNumber=} moves a dead-lettered one back ({@link
 * MessageSending}).
 */
final class MessagesResource implements AdminResource {
    /** The most messages one listing returns. */
    static final int MAX_LISTED = 1_000;

    private static final int PEEK_PAGE = 250;

    private final Supplier<Namespace> namespace;

    MessagesResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        if (request.rest().equals("resubmit")) {
            request.require("POST");
            return MessageSending.resubmit(namespace.get(), request);
        }
        if (!request.rest().isEmpty()) {
            throw request.notFound();
        }
        if (request.method().equals("POST")) {
            return MessageSending.send(namespace.get(), request);
        }
        EntityPath entity = entity(request.query());
        if (request.method().equals("GET")) {
            return AdminRoutes.Answer.ok(
                    AdminRequest.obj("entity", entity.toString(), "messages", list(entity, max(request))));
        }
        request.require("DELETE");
        return AdminRoutes.Answer.ok(AdminRequest.obj("entity", entity.toString(), "purged", purge(entity)));
    }

    static EntityPath entity(Map<String, String> query) {
        String name = query.get("entity");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "Name the entity: ?entity=<queue or topic>[&subscription=<name>]" + "[&subQueue=deadletter].");
        }
        String subscription = query.get("subscription");
        EntityPath path = subscription == null ? EntityPath.queue(name) : EntityPath.subscription(name, subscription);
        String subQueue = query.getOrDefault("subQueue", "").toLowerCase(Locale.ROOT);
        return switch (subQueue) {
            case "", "none" -> path;
            case "deadletter", "dead_letter_queue", "$deadletterqueue" -> path.deadLetter();
            case "transferdeadletter", "transfer_dead_letter_queue" ->
                path.withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE);
            default ->
                throw new IllegalArgumentException(
                        "'subQueue' must be deadletter or transferdeadletter, was '" + subQueue + "'.");
        };
    }

    private static int max(AdminRequest request) {
        long max = request.longParam("max", 100);
        if (max < 1 || max > MAX_LISTED) {
            throw new IllegalArgumentException("'max' must be between 1 and " + MAX_LISTED + ", was " + max + ".");
        }
        return (int) max;
    }

    private List<Object> list(EntityPath entity, int max) {
        List<Object> out = new ArrayList<>();
        for (BrokeredMessage m : peekAll(namespace.get(), entity, max)) {
            out.add(messageJson(m));
        }
        return out;
    }

    private static List<BrokeredMessage> peekAll(Namespace namespace, EntityPath entity, int max) {
        List<BrokeredMessage> all = new ArrayList<>();
        long from = 0;
        while (all.size() < max) {
            List<BrokeredMessage> page = namespace.peek(entity, from, Math.min(PEEK_PAGE, max - all.size()));
            all.addAll(page);
            if (page.isEmpty()) {
                break;
            }
            from = page.get(page.size() - 1).sequenceNumber() + 1;
        }
        return all;
    }

    static Map<String, Object> messageJson(BrokeredMessage m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sequenceNumber", m.sequenceNumber());
        out.put("messageId", m.message().messageId());
        out.put("state", m.state().name());
        if (m.message().sessionId() != null) {
            out.put("sessionId", m.message().sessionId());
        }
        out.put(
                "enqueuedTime",
                m.enqueuedTime() == null ? null : m.enqueuedTime().toString());
        if (m.scheduledEnqueueTime() != null) {
            out.put("scheduledEnqueueTime", m.scheduledEnqueueTime().toString());
        }
        out.put("expiresAt", m.expiresAt() == null ? null : m.expiresAt().toString());
        out.put("deliveryCount", m.deliveryCount());
        if (m.lockedUntil() != null) {
            out.put("lockedUntil", m.lockedUntil().toString());
        }
        if (m.timeToLive() != null) {
            out.put("timeToLive", m.timeToLive().toString());
        }
        putIfSet(out, "correlationId", m.message().correlationId());
        putIfSet(out, "subject", m.message().subject());
        putIfSet(out, "to", m.message().to());
        putIfSet(out, "replyTo", m.message().replyTo());
        putIfSet(out, "replyToSessionId", m.message().replyToSessionId());
        putIfSet(out, "partitionKey", m.message().partitionKey());
        putIfSet(out, "deadLetterSource", m.deadLetterSource());
        if (m.deadLetterReason() != null) {
            out.put("deadLetterReason", m.deadLetterReason());
        }
        if (m.deadLetterErrorDescription() != null) {
            out.put("deadLetterErrorDescription", m.deadLetterErrorDescription());
        }
        if (m.message().contentType() != null) {
            out.put("contentType", m.message().contentType());
        }
        byte[] bytes = m.message().body() instanceof MessageBody.Data data
                ? data.bytes()
                : m.message().body() instanceof MessageBody.DataSections sections ? sections.bytes() : null;
        if (bytes != null) {
            out.put("body", m.bodyAsString());
            out.put("bodyBase64", Base64.getEncoder().encodeToString(bytes));
        } else {
            out.put("body", String.valueOf(m.message().body()));
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        m.message().applicationProperties().forEach((k, v) -> properties.put(k, propertyJson(v)));
        out.put("applicationProperties", properties);
        return out;
    }

    /**
     * An application property as the listing shows it (MSG-5): booleans and numbers as they are (a decimal with its
     * exact digits), an AMQP timestamp as its ISO-8601 instant, binary as base64, anything else as its text.
     */
    private static Object propertyJson(Object v) {
        if (v == null || v instanceof Boolean || v instanceof Number) {
            return v;
        }
        if (v instanceof Date date) {
            return date.toInstant().toString();
        }
        if (v instanceof Binary binary) {
            return Base64.getEncoder()
                    .encodeToString(Arrays.copyOfRange(
                            binary.getArray(), binary.getArrayOffset(), binary.getArrayOffset() + binary.getLength()));
        }
        if (v instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        return v.toString();
    }

    /**
     * Takes the deferred messages {@code numbers} names. A receive by sequence numbers fails as a whole when one of them
     * is gone (DLQ-7: locked, expired or settled since the peek), so then each is taken on its own and the gone ones
     * are skipped.
     */
    private static long takeDeferred(Namespace ns, EntityPath entity, List<Long> numbers) {
        try {
            return ns.receiveDeferred(entity, ReceiveMode.RECEIVE_AND_DELETE, numbers)
                    .size();
        } catch (BrokerException.MessageNotFound e) {
            long taken = 0;
            for (long number : numbers) {
                try {
                    taken += ns.receiveDeferred(entity, ReceiveMode.RECEIVE_AND_DELETE, List.of(number))
                            .size();
                } catch (BrokerException.MessageNotFound gone) {
                    // gone since the peek: nothing to purge
                }
            }
            return taken;
        }
    }

    private static void putIfSet(Map<String, Object> out, String name, Object value) {
        if (value != null) {
            out.put(name, value);
        }
    }

    /** Removes the entity's messages: active and deferred, and scheduled ones of a queue or topic. */
    private long purge(EntityPath entity) {
        Namespace ns = namespace.get();
        long purged = 0;
        List<Long> deferred = new ArrayList<>();
        List<Long> scheduled = new ArrayList<>();
        for (BrokeredMessage m : peekAll(ns, entity, Integer.MAX_VALUE)) {
            if (m.state() == MessageState.DEFERRED) {
                deferred.add(m.sequenceNumber());
            } else if (m.state() == MessageState.SCHEDULED) {
                scheduled.add(m.sequenceNumber());
            }
        }
        while (true) {
            int n = ns.receive(entity, ReceiveMode.RECEIVE_AND_DELETE, PEEK_PAGE)
                    .size();
            purged += n;
            if (n == 0) {
                break;
            }
        }
        if (!deferred.isEmpty()) {
            purged += takeDeferred(ns, entity, deferred);
        }
        if (!scheduled.isEmpty() && !entity.isSubscription() && entity.subQueue() == EntityPath.Part.NONE) {
            ns.cancelScheduled(entity.topicOrQueue(), scheduled);
            purged += scheduled.size();
        }
        return purged;
    }
}
