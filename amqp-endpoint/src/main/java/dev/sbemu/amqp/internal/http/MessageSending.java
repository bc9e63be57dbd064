package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes of {@code /__admin/messages}: {@code POST ?entity=<queue or topic>} sends one message described by a JSON
 * body; {@code POST resubmit?entity=&[subscription=]&sequenceNumber=} takes a message out of the entity's dead-letter
 * queue and sends a copy, without its dead-letter properties, to the queue (or a subscription's topic).
 */
final class MessageSending {
    private static final int PAGE = 250;

    private MessageSending() {}

    static AdminRoutes.Answer send(Namespace ns, AdminRequest request) {
        String entity = request.query().get("entity");
        if (entity == null || entity.isBlank() || request.query().containsKey("subscription")) {
            throw new IllegalArgumentException("Send to a queue or topic: ?entity=<queue or topic>.");
        }
        Map<String, Object> json = request.json();
        Message.Builder b = Message.builder();
        Object base64 = json.get("bodyBase64");
        if (base64 != null) {
            try {
                b.body(Base64.getDecoder().decode(String.valueOf(base64)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'bodyBase64' is not base64: " + e.getMessage());
            }
        } else {
            Object body = json.get("body");
            b.body((body == null ? "" : String.valueOf(body)).getBytes(StandardCharsets.UTF_8));
        }
        b.messageId(text(json, "messageId"));
        b.sessionId(text(json, "sessionId"));
        b.correlationId(text(json, "correlationId"));
        b.subject(text(json, "subject"));
        b.contentType(text(json, "contentType"));
        if (json.get("timeToLive") != null) {
            b.timeToLive(AdminRequest.duration(json.get("timeToLive"), "timeToLive"));
        }
        if (json.get("applicationProperties") instanceof Map<?, ?> properties) {
            properties.forEach((k, v) -> b.applicationProperty(String.valueOf(k), v));
        } else if (json.get("applicationProperties") != null) {
            throw new IllegalArgumentException("'applicationProperties' must be a JSON object.");
        }
        String scheduled = text(json, "scheduledEnqueueTime");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("entity", entity);
        if (scheduled != null) {
            Instant at;
            try {
                at = Instant.parse(scheduled);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        "'scheduledEnqueueTime' is not an ISO-8601 instant: '" + scheduled + "'.");
            }
            out.put("sequenceNumber", ns.schedule(entity, b.build(), at));
        } else {
            ns.send(entity, b.build());
        }
        out.put("sent", 1);
        return new AdminRoutes.Answer(201, JsonBodies.write(out));
    }

    static AdminRoutes.Answer resubmit(Namespace ns, AdminRequest request) {
        EntityPath entity = MessagesResource.entity(request.query());
        if (entity.subQueue() != EntityPath.Part.NONE) {
            entity = entity.withSubQueue(EntityPath.Part.NONE);
        }
        long sequenceNumber = request.longParam("sequenceNumber", -1);
        if (sequenceNumber < 0) {
            throw new IllegalArgumentException("Name the dead-lettered message: &sequenceNumber=<n>.");
        }
        EntityPath deadLetter = entity.deadLetter();
        List<BrokeredMessage> others = new ArrayList<>();
        BrokeredMessage found = null;
        try {
            while (found == null) {
                List<BrokeredMessage> page = ns.receive(deadLetter, ReceiveMode.PEEK_LOCK, PAGE);
                if (page.isEmpty()) {
                    break;
                }
                for (BrokeredMessage m : page) {
                    if (m.sequenceNumber() == sequenceNumber && found == null) {
                        found = m;
                    } else {
                        others.add(m);
                    }
                }
            }
        } finally {
            for (BrokeredMessage m : others) {
                release(ns, deadLetter, m);
            }
        }
        if (found == null) {
            return AdminRoutes.error(
                    404,
                    "MessageNotFound",
                    "No message with sequence number " + sequenceNumber + " is available in " + deadLetter + ".");
        }
        Map<String, Object> properties = new LinkedHashMap<>(found.message().applicationProperties());
        properties.remove(BrokeredMessage.DEAD_LETTER_REASON);
        properties.remove(BrokeredMessage.DEAD_LETTER_DESCRIPTION);
        Message copy = found.message().toBuilder()
                .applicationProperties(properties)
                .scheduledEnqueueTime(null)
                .build();
        String target = entity.topicOrQueue();
        try {
            ns.send(target, copy);
        } catch (RuntimeException e) {
            release(ns, deadLetter, found);
            throw e;
        }
        ns.complete(deadLetter, found.lockToken());
        return AdminRoutes.Answer.ok(AdminRequest.obj(
                "entity", deadLetter.toString(),
                "sequenceNumber", sequenceNumber,
                "resubmittedTo", target));
    }

    private static void release(Namespace ns, EntityPath entity, BrokeredMessage m) {
        try {
            ns.release(entity, m.lockToken());
        } catch (RuntimeException lostAlready) {
            // the lock went: the message is available again anyway
        }
    }

    private static String text(Map<String, Object> json, String field) {
        Object value = json.get(field);
        return value == null ? null : String.valueOf(value);
    }
}
