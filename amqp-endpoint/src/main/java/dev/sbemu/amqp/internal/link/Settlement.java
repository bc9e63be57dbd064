package dev.sbemu.amqp.internal.link;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.Namespace;
import java.util.Map;
import java.util.UUID;

/**
 * One settlement of a locked message, however it arrived (a disposition on the receive link, or
 * {@code update-disposition} on {@code $management}), applied to the namespace or to the transaction it joins.
 * A release never joins a transaction: it only hands the message back.
 */
public record Settlement(Kind kind, Map<String, Object> propertiesToModify, String reason, String description) {
    public enum Kind {
        COMPLETE,
        ABANDON,
        DEFER,
        DEAD_LETTER,
        RELEASE
    }

    public static Settlement of(Kind kind) {
        return new Settlement(kind, Map.of(), null, null);
    }

    /**
     * Applies the settlement to {@code target} (the namespace, or the transaction the settlement joins); a release
     * goes to {@code namespace}, outside any transaction.
     */
    public void apply(MessageOperations target, Namespace namespace, EntityPath entity, UUID lockToken) {
        switch (kind) {
            case COMPLETE -> target.complete(entity, lockToken);
            case ABANDON -> target.abandon(entity, lockToken, propertiesToModify);
            case DEFER -> target.defer(entity, lockToken, propertiesToModify);
            case DEAD_LETTER -> target.deadLetter(entity, lockToken, reason, description, propertiesToModify);
            case RELEASE -> namespace.release(entity, lockToken);
        }
    }
}
