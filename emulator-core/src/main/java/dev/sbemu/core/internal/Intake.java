package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Durations;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.PendingTimer.Kind;
import java.time.Duration;
import java.time.Instant;

/**
 * The send side that queues and topics share: duplicate detection (DUP-1), scheduling (SCH-1..7)
 * and sequence numbers (SEQ-2). Where scheduled messages wait and where arrivals go is the owner's.
 */
final class Intake {

    /** What a queue or topic does with what its intake lets through. */
    interface Owner {
        String name();

        void touch();

        boolean requiresDuplicateDetection();

        Duration duplicateDetectionHistoryTimeWindow();

        /** Keeps a scheduled message until it activates (queues: peekable in the entity; topics: aside). */
        void holdScheduled(StoredMessage m);

        /** Takes back a held scheduled message; false when it is no longer held. */
        boolean releaseScheduled(StoredMessage m);

        /** The held scheduled message with this number, or null. */
        StoredMessage findScheduled(long sequenceNumber);

        /** The entity's default time to live, the most a message keeps there (TTL-1). */
        Duration defaultMessageTimeToLive();

        /** A message arrives: it has its sequence number and enqueued time. */
        void arrived(StoredMessage m);
    }

    private final Services services;
    private final Owner owner;
    private final boolean partitioned;
    private final Sequencer sequencer;
    private final DuplicateDetector duplicates;

    Intake(Services services, Owner owner, boolean partitioned) {
        this.services = services;
        this.owner = owner;
        this.partitioned = partitioned;
        this.sequencer = new Sequencer(partitioned);
        this.duplicates = new DuplicateDetector(services, owner.name());
    }

    /** A send: dropped as a duplicate, held as scheduled, or arrived now. */
    void accept(StoredMessage m) {
        owner.touch();
        if (isDuplicate(m)) {
            return;
        }
        if (m.scheduledEnqueueTime != null && m.scheduledEnqueueTime.isAfter(services.now())) {
            hold(m);
        } else {
            arrive(m, Type.SENT, m.enqueuedSequenceNumber > 0 ? "from #" + m.enqueuedSequenceNumber : "");
        }
    }

    /** The schedule API: like a send, but it returns the sequence number (SCH-1, SCH-6). */
    long schedule(StoredMessage m) {
        owner.touch();
        if (isDuplicate(m)) {
            return sequencer.next(m.message); // a number of its own, so cancelling it can never hit another message
        }
        if (m.scheduledEnqueueTime.isAfter(services.now())) {
            hold(m);
        } else {
            arrive(m, Type.SENT, "");
        }
        return m.sequenceNumber;
    }

    /** Gives a message its scheduled sequence number ahead of {@link #schedule} (transactions). */
    long reserveSequenceNumber(StoredMessage m) {
        m.sequenceNumber = sequencer.next(m.message);
        return m.sequenceNumber;
    }

    void cancelScheduled(long sequenceNumber) {
        owner.touch();
        StoredMessage m = owner.findScheduled(sequenceNumber);
        if (m == null || !owner.releaseScheduled(m)) {
            throw new BrokerException.MessageNotFound(
                    "No scheduled message with sequence number " + sequenceNumber + " in '" + owner.name() + "'.");
        }
        services.timers.cancel(m.scheduleTimer);
        services.journal(Type.CANCELLED, owner.name(), m, "");
    }

    void clear() {
        duplicates.clear();
    }

    private boolean isDuplicate(StoredMessage m) {
        if (owner.requiresDuplicateDetection()
                && duplicates.isDuplicate(
                        DuplicateDetector.key(m, partitioned), owner.duplicateDetectionHistoryTimeWindow())) {
            services.journal(Type.DUPLICATE_DROPPED, owner.name(), m, "");
            return true;
        }
        return false;
    }

    private void hold(StoredMessage m) {
        if (m.sequenceNumber == 0) {
            m.sequenceNumber = sequencer.next(m.message);
        }
        m.partitionId = (short) sequencer.partitionOf(m.sequenceNumber);
        m.enqueuedTime = services.now();
        owner.holdScheduled(m);
        m.scheduleTimer = services.timers.schedule(
                m.scheduledEnqueueTime,
                TimerQueue.Label.message(Kind.SCHEDULED_ACTIVATION, owner.name(), m),
                () -> activate(m));
        services.journal(
                Type.SCHEDULED,
                owner.name(),
                m,
                withExpiry("for " + m.scheduledEnqueueTime, m.scheduledEnqueueTime, m.message.timeToLive()));
    }

    /** SCH-4: appended as if enqueued now, with a new sequence number. */
    private void activate(StoredMessage m) {
        m.scheduleTimer = null;
        if (!owner.releaseScheduled(m)) {
            return;
        }
        owner.touch();
        arrive(m, Type.ACTIVATED, "scheduled as #" + m.sequenceNumber);
    }

    private void arrive(StoredMessage m, Type how, String detail) {
        m.sequenceNumber = sequencer.next(m.message);
        m.partitionId = (short) sequencer.partitionOf(m.sequenceNumber);
        m.enqueuedTime = services.now();
        services.journal(how, owner.name(), m, withExpiry(detail, m.enqueuedTime, m.message.timeToLive()));
        owner.arrived(m);
    }

    /**
     * The journal's detail with the instant the message expires when it is enqueued at {@code enqueued}: its own time
     * to live capped by the entity's default (a topic's subscriptions may cap it further); nothing when it never does.
     */
    private String withExpiry(String detail, Instant enqueued, Duration ttl) {
        Duration entityTtl = owner.defaultMessageTimeToLive();
        Duration effective = ttl == null || ttl.compareTo(entityTtl) > 0 ? entityTtl : ttl;
        Instant expires = Durations.plusOrNever(enqueued, effective);
        if (expires == null) {
            return detail;
        }
        return detail.isEmpty() ? "expires " + expires : detail + ", expires " + expires;
    }
}
