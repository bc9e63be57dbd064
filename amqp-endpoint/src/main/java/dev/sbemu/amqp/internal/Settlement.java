package dev.sbemu.amqp.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Transaction;
import java.util.Map;
import java.util.UUID;

/**
 * One settlement of a locked message, however it arrived (a disposition on the receive link, or
 * {@code update-disposition} on {@code $management}), applied to the namespace or to the transaction it joins.
 * A release never joins a transaction: it only hands the message back.
 */
record Settlement(Kind kind, Map<String, Object> propertiesToModify, String reason, String description) {
    enum Kind { COMPLETE, ABANDON, DEFER, DEAD_LETTER, RELEASE }

    static Settlement of(Kind kind) {
        return new Settlement(kind, Map.of(), null, null);
    }

    void apply(Namespace namespace, Transaction transaction, EntityPath entity, UUID lockToken) {
        if (transaction == null || kind == Kind.RELEASE) {
            switch (kind) {
                case COMPLETE -> namespace.complete(entity, lockToken);
                case ABANDON -> namespace.abandon(entity, lockToken, propertiesToModify);
                case DEFER -> namespace.defer(entity, lockToken, propertiesToModify);
                case DEAD_LETTER -> namespace.deadLetter(entity, lockToken, reason, description, propertiesToModify);
                case RELEASE -> namespace.release(entity, lockToken);
            }
            return;
        }
        switch (kind) {
            case COMPLETE -> transaction.complete(entity, lockToken);
            case ABANDON -> transaction.abandon(entity, lockToken, propertiesToModify);
            case DEFER -> transaction.defer(entity, lockToken, propertiesToModify);
            case DEAD_LETTER -> transaction.deadLetter(entity, lockToken, reason, description, propertiesToModify);
            case RELEASE -> throw new IllegalStateException("a release is applied outside the transaction");
        }
    }
}
