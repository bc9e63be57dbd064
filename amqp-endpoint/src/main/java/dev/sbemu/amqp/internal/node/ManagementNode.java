package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.HeldSessions;
import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.link.Settlement;
import dev.sbemu.amqp.internal.link.TransactionScope;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.amqp.internal.transport.Deliveries;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SessionLock;
import dev.sbemu.wire.AmqpMessages;
import dev.sbemu.wire.AmqpRules;
import java.lang.reflect.Array;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.message.Message;

/**
 * An entity's {@code $management} node: the request-response operations the SDKs use beside the links
 * (docs/amqp.md, "$management"), each a call into the namespace. Bodies and answers are the AMQP maps the SDKs
 * write and read (see the SDK's {@code ManagementChannel}); an operation the emulator does not know is
 * answered {@code amqp:not-implemented}.
 */
final class ManagementNode implements RequestLink.Node {
    private static final String VENDOR = "com.microsoft:";

    private final ServedNamespace namespace;
    private final TransactionScope transactions;
    private final HeldSessions heldSessions;
    private final EntityPath entity;
    private final Function<AccessRight, ErrorCondition> access;

    /** @param access why the connection may not use a right on the entity, or null when it may (SEC-3) */
    ManagementNode(
            ServedNamespace namespace,
            TransactionScope transactions,
            HeldSessions heldSessions,
            EntityPath entity,
            Function<AccessRight, ErrorCondition> access) {
        this.namespace = namespace;
        this.transactions = transactions;
        this.heldSessions = heldSessions;
        this.entity = entity;
        this.access = access;
    }

    /**
     * The right an operation needs (SEC-3): Send to schedule or cancel, none beyond the link's for rules, Listen for
     * the rest (locks, peek, deferred messages, sessions).
     */
    static AccessRight rightFor(String operation) {
        return switch (operation) {
            case VENDOR + "schedule-message", VENDOR + "cancel-scheduled-message" -> AccessRight.SEND;
            case VENDOR + "add-rule", VENDOR + "remove-rule", VENDOR + "enumerate-rules" -> null;
            default -> AccessRight.LISTEN;
        };
    }

    @Override
    public RequestLink.Response handle(Message request, DeliveryState state) {
        AccessRight right = rightFor(String.valueOf(RequestLink.operation(request)));
        ErrorCondition refused = right == null ? null : access.apply(right);
        if (refused != null) {
            return RequestLink.Response.error(refused);
        }
        try {
            return operate(request, state);
        } catch (NullPointerException | ClassCastException e) {
            if (!thrownHere(e)) {
                throw e; // the broker's own failure: an internal error, not the client's
            }
            // a field missing or of the wrong type in the request's body (AMQP-19)
            return new RequestLink.Response(
                    400,
                    "The request body of '" + RequestLink.operation(request) + "' is malformed: " + e.getMessage(),
                    AmqpErrors.DECODE_ERROR.toString(),
                    null);
        } catch (Deliveries.MalformedMessage e) {
            return new RequestLink.Response(400, e.getMessage(), AmqpErrors.DECODE_ERROR.toString(), null);
        }
    }

    /** Whether {@code e} comes from reading the request here (a cast or an unboxing), not from the broker. */
    private static boolean thrownHere(RuntimeException e) {
        StackTraceElement[] trace = e.getStackTrace();
        return trace.length > 0 && trace[0].getClassName().equals(ManagementNode.class.getName());
    }

    private RequestLink.Response operate(Message request, DeliveryState state) {
        String operation = String.valueOf(RequestLink.operation(request));
        Map<?, ?> body = request.getBody() instanceof AmqpValue v && v.getValue() instanceof Map<?, ?> m ? m : Map.of();
        MessageOperations target = transactions.target(state);
        Namespace ns = namespace.get();
        return switch (operation) {
            case VENDOR + "renew-lock" -> {
                List<UUID> tokens = uuids(body.get("lock-tokens"));
                Date[] expirations = new Date[tokens.size()];
                for (int i = 0; i < tokens.size(); i++) {
                    expirations[i] = Date.from(ns.renewLock(entity, tokens.get(i)));
                }
                yield ok(Map.of("expirations", expirations));
            }
            case VENDOR + "schedule-message" -> ok(Map.of("sequence-numbers", schedule(body, target)));
            case VENDOR + "cancel-scheduled-message" -> {
                ns.cancelScheduled(entity.entityName(), longs(body.get("sequence-numbers")));
                yield ok(Map.of());
            }
            case VENDOR + "peek-message" -> {
                long from = ((Number) body.get("from-sequence-number")).longValue();
                int count = ((Number) body.get("message-count")).intValue();
                String sessionId = (String) body.get("session-id");
                List<BrokeredMessage> peeked = sessionId == null || sessionId.isEmpty()
                        ? ns.peek(entity, from, count)
                        : ns.peek(entity, sessionId, from, count);
                yield messages(peeked, false);
            }
            case VENDOR + "receive-by-sequence-number" -> {
                Object settle = body.get("receiver-settle-mode");
                ReceiveMode mode = settle instanceof Number n && n.intValue() == 0
                        ? ReceiveMode.RECEIVE_AND_DELETE
                        : ReceiveMode.PEEK_LOCK;
                List<Long> numbers = longs(body.get("sequence-numbers"));
                String sessionId = (String) body.get("session-id");
                List<BrokeredMessage> received = sessionId == null || sessionId.isEmpty()
                        ? ns.receiveDeferred(entity, mode, numbers)
                        : ns.receiveDeferred(session(sessionId), mode, numbers);
                yield messages(received, true);
            }
            case VENDOR + "update-disposition" -> {
                updateDisposition(body, target);
                yield ok(Map.of());
            }
            case VENDOR + "get-message-sessions" -> {
                // the SDKs ask for sessions with messages or a state by sending .NET's DateTime.MaxValue
                // (10000-01-01 in milliseconds, or clamped below it) as the last-updated-time
                Date updated = (Date) body.get("last-updated-time");
                Instant after =
                        updated == null || !updated.toInstant().isBefore(NO_UPDATE_FILTER) ? null : updated.toInstant();
                Object skip = body.get("skip");
                Object top = body.get("top");
                List<String> ids = ns.listSessions(
                        entity,
                        after,
                        skip == null ? 0 : ((Number) skip).intValue(),
                        top == null ? Integer.MAX_VALUE : ((Number) top).intValue());
                int skipped = skip == null ? 0 : ((Number) skip).intValue();
                yield ids.isEmpty()
                        ? RequestLink.Response.ok(null)
                        : ok(Map.of("skip", skipped + ids.size(), "sessions-ids", ids.toArray(new String[0])));
            }
            case VENDOR + "renew-session-lock" -> {
                Instant until = ns.renewSessionLock(session((String) body.get("session-id")));
                yield ok(Map.of("expiration", Date.from(until)));
            }
            case VENDOR + "get-session-state" -> {
                byte[] sessionState = ns.getSessionState(session((String) body.get("session-id")));
                Map<String, Object> answer = new HashMap<>();
                answer.put("session-state", sessionState == null ? null : new Binary(sessionState));
                yield ok(answer);
            }
            case VENDOR + "set-session-state" -> {
                Object value = body.get("session-state");
                ns.setSessionState(
                        session((String) body.get("session-id")),
                        value instanceof Binary b
                                ? Arrays.copyOfRange(
                                        b.getArray(), b.getArrayOffset(), b.getArrayOffset() + b.getLength())
                                : null);
                yield ok(Map.of());
            }
            case VENDOR + "add-rule" -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> description = (Map<String, Object>) body.get("rule-description");
                RuleDescription rule = AmqpRules.fromWire((String) body.get("rule-name"), description);
                ns.createRule(entity.topicOrQueue(), subscription(), rule.name(), rule.filter(), rule.action());
                yield ok(Map.of());
            }
            case VENDOR + "remove-rule" -> {
                ns.deleteRule(entity.topicOrQueue(), subscription(), (String) body.get("rule-name"));
                yield ok(Map.of());
            }
            case VENDOR + "enumerate-rules" -> {
                List<RuleDescription> rules = ns.listRules(entity.topicOrQueue(), subscription());
                int skip = body.get("skip") instanceof Number n ? n.intValue() : 0;
                int top = body.get("top") instanceof Number n ? n.intValue() : Integer.MAX_VALUE;
                List<RuleDescription> page =
                        rules.subList(Math.min(skip, rules.size()), (int) Math.min(rules.size(), (long) skip + top));
                yield page.isEmpty() ? RequestLink.Response.ok(null) : ok(AmqpRules.toWire(page));
            }
            default ->
                RequestLink.Response.error(new ErrorCondition(
                        AmqpErrors.NOT_IMPLEMENTED,
                        "The management operation '" + operation + "' is not implemented by the emulator."));
        };
    }

    /** From this last-updated-time on, {@code get-message-sessions} lists by messages and state, not by update. */
    private static final Instant NO_UPDATE_FILTER = Instant.parse("9999-12-31T00:00:00Z");

    private static RequestLink.Response ok(Map<String, ?> body) {
        return RequestLink.Response.ok(new AmqpValue(body));
    }

    private String subscription() {
        if (!entity.isSubscription()) {
            throw new BrokerException.InvalidOperation(
                    "Rules belong to subscriptions; '" + entity + "' is not a subscription.");
        }
        return entity.subscription();
    }

    private SessionLock session(String sessionId) {
        SessionLock lock = sessionId == null ? null : heldSessions.get(entity, sessionId);
        if (lock == null) {
            throw new BrokerException.SessionLockLost("The session lock of session '" + sessionId + "' on '" + entity
                    + "' is not held by this client: it was lost, released or never accepted.");
        }
        return lock;
    }

    /** Boxed: proton-j cannot encode a primitive array inside a map; the peer decodes it as {@code long[]}. */
    private Long[] schedule(Map<?, ?> body, MessageOperations target) {
        List<?> entries = list(body.get("messages"));
        Long[] numbers = new Long[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            Binary bytes = (Binary) ((Map<?, ?>) entries.get(i)).get("message");
            dev.sbemu.core.Message message =
                    AmqpMessages.toCore(bytes.getArray(), bytes.getArrayOffset(), bytes.getLength());
            Instant at = message.scheduledEnqueueTime() != null
                    ? message.scheduledEnqueueTime()
                    : namespace.get().clock().instant();
            numbers[i] = target.schedule(entity.entityName(), List.of(message), at)[0];
        }
        return numbers;
    }

    private void updateDisposition(Map<?, ?> body, MessageOperations target) {
        String status = String.valueOf(body.get("disposition-status"));
        Settlement.Kind kind = switch (status) {
            case "completed" -> Settlement.Kind.COMPLETE;
            case "abandoned" -> Settlement.Kind.ABANDON;
            case "defered", "deferred" -> Settlement.Kind.DEFER;
            case "suspended" -> Settlement.Kind.DEAD_LETTER;
            case "released" -> Settlement.Kind.RELEASE;
            default -> throw new IllegalArgumentException("Unknown disposition-status '" + status + "'.");
        };
        Settlement settlement = new Settlement(
                kind,
                AmqpMessages.propertiesFromWire((Map<?, ?>) body.get("properties-to-modify")),
                (String) body.get("deadletter-reason"),
                (String) body.get("deadletter-description"));
        for (UUID token : uuids(body.get("lock-tokens"))) {
            settlement.apply(target, namespace.get(), entity, token);
        }
    }

    /** The peek and receive-by-sequence-number answer: each message encoded, with its lock token if locked. */
    private static RequestLink.Response messages(List<BrokeredMessage> messages, boolean withLockTokens) {
        if (messages.isEmpty()) {
            return RequestLink.Response.ok(null);
        }
        List<Map<String, Object>> entries = new ArrayList<>(messages.size());
        for (BrokeredMessage m : messages) {
            Map<String, Object> entry = new HashMap<>();
            entry.put("message", new Binary(AmqpMessages.encode(AmqpMessages.toAmqp(m))));
            if (withLockTokens && m.lockToken() != null) {
                entry.put("lock-token", m.lockToken());
            }
            entries.add(entry);
        }
        return ok(Map.of("messages", entries));
    }

    private static List<?> list(Object value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> l) {
            return l;
        }
        if (value.getClass().isArray()) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < Array.getLength(value); i++) {
                out.add(Array.get(value, i));
            }
            return out;
        }
        return List.of(value);
    }

    private static List<Long> longs(Object value) {
        List<Long> out = new ArrayList<>();
        for (Object o : list(value)) {
            out.add(((Number) o).longValue());
        }
        return out;
    }

    private static List<UUID> uuids(Object value) {
        List<UUID> out = new ArrayList<>();
        for (Object o : list(value)) {
            out.add(o instanceof UUID u ? u : UUID.fromString(String.valueOf(o)));
        }
        return out;
    }
}
