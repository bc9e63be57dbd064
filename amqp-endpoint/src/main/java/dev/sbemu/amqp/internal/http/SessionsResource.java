package dev.sbemu.amqp.internal.http;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.SessionInfo;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /__admin/sessions?entity=<queue or topic>[&subscription=<name>]}: the sessions of a session-enabled
 * queue or subscription: who holds each (the hold's lock token) until when, its state, its ready messages.
 */
final class SessionsResource implements AdminResource {
    private final Supplier<Namespace> namespace;

    SessionsResource(Supplier<Namespace> namespace) {
        this.namespace = namespace;
    }

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        if (!request.rest().isEmpty()) {
            throw request.notFound();
        }
        request.require("GET");
        EntityPath entity = MessagesResource.entity(request.query());
        Namespace ns = namespace.get();
        List<Object> sessions = new ArrayList<>();
        for (SessionInfo s : ns.sessions(entity)) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("sessionId", s.sessionId());
            out.put("held", s.held());
            out.put("holder", s.holder() == null ? null : s.holder().toString());
            out.put(
                    "lockedUntil",
                    s.lockedUntil() == null ? null : s.lockedUntil().toString());
            out.put("readyMessages", s.readyMessages());
            if (s.state() != null) {
                out.put("state", utf8OrNull(s.state()));
                out.put("stateBase64", Base64.getEncoder().encodeToString(s.state()));
            } else {
                out.put("state", null);
            }
            sessions.add(out);
        }
        return AdminRoutes.Answer.ok(AdminRequest.obj(
                "entity", entity.toString(), "now", ns.clock().instant().toString(), "sessions", sessions));
    }

    /** The bytes as UTF-8 text, or null when they are not valid UTF-8. */
    static String utf8OrNull(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
