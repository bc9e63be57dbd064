package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.PendingTimer.Kind;
import dev.sbemu.core.Transaction;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A transaction's pending operations; validated and applied together under the namespace's lock (TXN-1). */
final class BrokerTransaction implements Transaction {
    static final int MAX_OPERATIONS = 100;
    static final Duration TIMEOUT = Duration.ofMinutes(2);

    /** One enlisted operation: checked again at commit, then applied. */
    private interface Operation {
        void validate();

        void apply();

        /** The message this operation adds to an entity (a send or a schedule), or null. */
        default StoredMessage adds() {
            return null;
        }

        /** The name of the entity {@link #adds()} goes to (as the registry spells it), or null. */
        default String addsTo() {
            return null;
        }
    }

    private final Services services;
    private final EntityRegistry registry;
    private final UUID id = UUID.randomUUID();
    private final List<Operation> operations = new ArrayList<>();
    /** Lock tokens completed, abandoned, deferred or dead-lettered by this transaction. */
    private final Set<UUID> settled = new HashSet<>();
    /** The entity of the first settlement (TXN-2): every settlement must be on it; sends go via it. */
    private String sendVia;

    private String endedBecause;
    private TimerQueue.Timer timeout;

    BrokerTransaction(EntityRegistry registry) {
        this.services = registry.services;
        this.registry = registry;
    }

    @Override
    public UUID id() {
        return id;
    }

    @Override
    public void send(String entity, List<Message> messages) {
        List<StoredMessage> stored = Sending.prepare(registry, entity, messages);
        services.locked(() -> {
            SendTarget target = registry.sendTarget(entity);
            stored.forEach(target::checkSendable);
            for (StoredMessage m : stored) {
                enlist(new Operation() {
                    public void validate() {
                        registry.sendTarget(entity).checkSendable(m);
                    }

                    public void apply() {
                        registry.sendTarget(entity).intake().accept(m);
                    }

                    public StoredMessage adds() {
                        return m;
                    }

                    public String addsTo() {
                        return target.name();
                    }
                });
            }
        });
    }

    @Override
    public long[] schedule(String entity, List<Message> messages, Instant at) {
        Validation.scheduledEnqueueTime(at);
        List<StoredMessage> stored = Sending.prepare(registry, entity, messages);
        return services.locked(() -> {
            SendTarget target = registry.sendTarget(entity);
            long[] sequenceNumbers = new long[stored.size()];
            for (int i = 0; i < stored.size(); i++) {
                StoredMessage m = stored.get(i);
                m.scheduledEnqueueTime = at;
                target.checkSendable(m);
                sequenceNumbers[i] = target.intake().reserveSequenceNumber(m);
                enlist(new Operation() {
                    public void validate() {
                        registry.sendTarget(entity).checkSendable(m);
                    }

                    public void apply() {
                        registry.sendTarget(entity).intake().schedule(m);
                    }

                    public StoredMessage adds() {
                        return m;
                    }

                    public String addsTo() {
                        return target.name();
                    }
                });
            }
            return sequenceNumbers;
        });
    }

    @Override
    public void complete(EntityPath entity, UUID lockToken) {
        settle(entity, lockToken, true, (source, store) -> source.complete(store, lockToken));
    }

    @Override
    public void abandon(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify) {
        settle(entity, lockToken, true, (source, store) -> source.abandon(store, lockToken, propertiesToModify));
    }

    @Override
    public void defer(EntityPath entity, UUID lockToken, Map<String, Object> propertiesToModify) {
        settle(entity, lockToken, true, (source, store) -> source.defer(store, lockToken, propertiesToModify));
    }

    @Override
    public void deadLetter(
            EntityPath entity,
            UUID lockToken,
            String reason,
            String description,
            Map<String, Object> propertiesToModify) {
        settle(
                entity,
                lockToken,
                true,
                (source, store) -> source.deadLetter(store, lockToken, reason, description, propertiesToModify));
    }

    @Override
    public Instant renewLock(EntityPath entity, UUID lockToken) {
        settle(entity, lockToken, false, (source, store) -> source.renewLock(store, lockToken));
        return services.locked(() -> services.now().plus(registry.source(entity).lockDuration()));
    }

    private interface Settlement {
        void apply(MessageSource source, MessageStore store);
    }

    private void settle(EntityPath entity, UUID lockToken, boolean terminal, Settlement settlement) {
        services.locked(() -> {
            Operation operation = new Operation() {
                public void validate() {
                    MessageSource source = registry.source(entity);
                    source.lockedMessage(source.store(entity.subQueue()), lockToken);
                }

                public void apply() {
                    MessageSource source = registry.source(entity);
                    settlement.apply(source, source.store(entity.subQueue()));
                }
            };
            operation.validate();
            checkSendVia(entity.entityName());
            if (settled.contains(lockToken)) {
                throw new BrokerException.MessageLockLost(
                        "The message with lock token " + lockToken + " was settled already in transaction " + id + ".");
            }
            enlist(operation);
            if (terminal) {
                settled.add(lockToken);
            }
        });
    }

    /**
     * TXN-2: the settlements of a transaction are all on one entity, its send-via entity, through which
     * its sends to other entities are routed: the service cannot route a settlement through another one.
     */
    private void checkSendVia(String entity) {
        checkOpen();
        if (sendVia == null) {
            sendVia = entity;
        } else if (!sendVia.equalsIgnoreCase(entity)) {
            throw new BrokerException.InvalidOperation("Local transactions cannot span multiple top-level entities "
                    + "such as queue or topic. The transaction settles messages of '" + sendVia
                    + "', its send-via entity; a message of '" + entity + "' cannot be settled in it too.");
        }
    }

    /**
     * RES-5: at commit, each entity the transaction sends or schedules to must have room for all of it (a send of
     * the Java SDK in a transaction learns nothing of its delivery's outcome, so the commit is where a full entity
     * can be reported); else the commit fails whole with {@code QuotaExceeded}.
     */
    private void checkQuotas() {
        Map<String, SendTarget> targets = new LinkedHashMap<>();
        Map<String, List<StoredMessage>> adds = new LinkedHashMap<>();
        for (Operation operation : operations) {
            if (operation.adds() != null) {
                SendTarget target = registry.sendTarget(operation.addsTo());
                targets.putIfAbsent(target.name(), target);
                adds.computeIfAbsent(target.name(), k -> new ArrayList<>()).add(operation.adds());
            }
        }
        targets.forEach((name, target) -> Sending.checkQuota(target, adds.get(name)));
    }

    private void enlist(Operation operation) {
        checkOpen();
        if (operations.size() >= MAX_OPERATIONS) {
            throw new BrokerException.QuotaExceeded(
                    "A transaction can hold at most " + MAX_OPERATIONS + " operations.");
        }
        if (operations.isEmpty()) {
            timeout = services.timers.schedule(
                    services.now().plus(TIMEOUT),
                    TimerQueue.Label.of(Kind.TRANSACTION_TIMEOUT, "", "transaction " + id),
                    () -> end("timed out after " + TIMEOUT));
        }
        operations.add(operation);
    }

    private void checkOpen() {
        if (endedBecause != null) {
            throw new BrokerException.TransactionFailed("The transaction " + id + " " + endedBecause + ".");
        }
    }

    private void end(String why) {
        endedBecause = why;
        operations.clear();
        services.timers.cancel(timeout);
    }

    @Override
    public void commit() {
        services.locked(() -> {
            checkOpen();
            try {
                operations.forEach(Operation::validate);
                checkQuotas();
            } catch (RuntimeException e) {
                end("was rolled back because an operation failed");
                throw e;
            }
            List<Operation> toApply = List.copyOf(operations);
            end("was committed");
            toApply.forEach(Operation::apply);
        });
    }

    @Override
    public void rollback() {
        services.locked(() -> {
            checkOpen();
            end("was rolled back");
        });
    }
}
