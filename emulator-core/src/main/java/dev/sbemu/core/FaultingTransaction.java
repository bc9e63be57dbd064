package dev.sbemu.core;

import dev.sbemu.core.Faults.Operation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A transaction whose operations meet the namespace's scripted faults as the same operations outside one do. */
final class FaultingTransaction implements Transaction {
    private final Transaction transaction;
    private final Faults faults;

    FaultingTransaction(Transaction transaction, Faults faults) {
        this.transaction = transaction;
        this.faults = faults;
    }

    @Override
    public UUID id() {
        return transaction.id();
    }

    @Override
    public void send(String entity, List<Message> messages) {
        faults.before(Operation.SEND, EntityPath.queue(entity));
        transaction.send(entity, messages);
    }

    @Override
    public long[] schedule(String entity, List<Message> messages, Instant at) {
        faults.before(Operation.SEND, EntityPath.queue(entity));
        return transaction.schedule(entity, messages, at);
    }

    @Override
    public void complete(EntityPath entity, UUID lockToken) {
        faults.before(Operation.SETTLE, entity, lockToken, null);
        transaction.complete(entity, lockToken);
    }

    @Override
    public void abandon(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify) {
        faults.before(Operation.SETTLE, entity, lockToken, null);
        transaction.abandon(entity, lockToken, propertiesToModify);
    }

    @Override
    public void defer(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify) {
        faults.before(Operation.SETTLE, entity, lockToken, null);
        transaction.defer(entity, lockToken, propertiesToModify);
    }

    @Override
    public void deadLetter(
            EntityPath entity,
            UUID lockToken,
            String reason,
            String description,
            Map<String, Object> propertiesToModify) {
        faults.before(Operation.SETTLE, entity, lockToken, null);
        transaction.deadLetter(entity, lockToken, reason, description, propertiesToModify);
    }

    @Override
    public Instant renewLock(EntityPath entity, UUID lockToken) {
        faults.before(Operation.RENEW_LOCK, entity, lockToken, null);
        return transaction.renewLock(entity, lockToken);
    }

    @Override
    public void commit() {
        transaction.commit();
    }

    @Override
    public void rollback() {
        transaction.rollback();
    }
}
