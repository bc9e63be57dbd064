package dev.sbemu.core;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A transaction (TXN-1): sends, schedules and settlements on any entities of one namespace that take
 * effect together on {@link #commit()}, or not at all on {@link #rollback()}. At most 100 operations;
 * it times out, in virtual time, 2 minutes after its first operation. Obtain one from
 * {@link Namespace#beginTransaction()}. Thread-safe.
 */
public interface Transaction extends MessageOperations {

    /** Identifies the transaction (the SDK's transaction id). */
    UUID id();

    /** Schedules messages; their sequence numbers are reserved now and valid once committed. */
    @Override
    long[] schedule(String entity, List<Message> messages, Instant at);

    /** Renews the lock when the transaction commits; returns the locked-until it will then have. */
    @Override
    Instant renewLock(EntityPath entity, UUID lockToken);

    /**
     * Applies every operation, atomically.
     *
     * @throws BrokerException.TransactionFailed when it timed out or was ended already
     * @throws BrokerException.MessageLockLost when a settled message's lock was lost meanwhile (nothing is applied)
     */
    void commit();

    /** Discards every operation. */
    void rollback();
}
