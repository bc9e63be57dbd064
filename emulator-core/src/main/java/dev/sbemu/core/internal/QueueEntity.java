package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.MessageState;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;

/** A queue: a message source that senders address directly, with its own sequence numbers (SEQ-2). */
final class QueueEntity extends MessageSource implements SendTarget {
    QueueOptions options;
    private final Sequencer sequencer;
    private final DuplicateDetector duplicates;

    QueueEntity(Broker broker, String name, QueueOptions options) {
        super(broker, EntityPath.queue(name));
        this.options = options;
        this.sequencer = new Sequencer(options.enablePartitioning());
        this.duplicates = new DuplicateDetector(broker);
        main.sessionful = options.requiresSession();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    Duration lockDuration() {
        return options.lockDuration();
    }

    @Override
    int maxDeliveryCount() {
        return options.maxDeliveryCount();
    }

    @Override
    Duration defaultTimeToLive() {
        return options.defaultMessageTimeToLive();
    }

    @Override
    boolean deadLetteringOnMessageExpiration() {
        return options.deadLetteringOnMessageExpiration();
    }

    @Override
    String forwardTo() {
        return options.forwardTo();
    }

    @Override
    String forwardDeadLetteredMessagesTo() {
        return options.forwardDeadLetteredMessagesTo();
    }

    @Override
    boolean requiresSession() {
        return options.requiresSession();
    }

    @Override
    EntityStatus status() {
        return options.status();
    }

    @Override
    Duration autoDeleteOnIdle() {
        return options.autoDeleteOnIdle();
    }

    @Override
    boolean busy() {
        return forwardTo() != null || main.count(MessageState.SCHEDULED) > 0;
    }

    @Override
    public Long maxMessageSizeInKilobytes() {
        return options.maxMessageSizeInKilobytes();
    }

    @Override
    public void checkSendable(StoredMessage m) {
        Sending.checkStatus(name, status());
        Sending.checkSession(name, requiresSession(), m);
    }

    @Override
    public void accept(StoredMessage m) {
        touch();
        if (options.requiresDuplicateDetection()
                && duplicates.isDuplicate(DuplicateDetector.key(m, options.enablePartitioning()),
                        options.duplicateDetectionHistoryTimeWindow())) {
            broker.journal(Type.DUPLICATE_DROPPED, name, m, "");
            return;
        }
        if (m.scheduledEnqueueTime != null && m.scheduledEnqueueTime.isAfter(broker.now())) {
            addScheduled(m);
            return;
        }
        arrive(m, Type.SENT);
    }

    private void arrive(StoredMessage m, Type how) {
        m.sequenceNumber = sequencer.next(m.message);
        m.partitionId = sequencer.partitionOf(m.sequenceNumber);
        m.enqueuedTime = broker.now();
        broker.journal(how, name, m, m.enqueuedSequenceNumber > 0 ? "from #" + m.enqueuedSequenceNumber : "");
        enqueue(m);
    }

    @Override
    public long schedule(StoredMessage m) {
        touch();
        if (options.requiresDuplicateDetection()
                && duplicates.isDuplicate(DuplicateDetector.key(m, options.enablePartitioning()),
                        options.duplicateDetectionHistoryTimeWindow())) {
            broker.journal(Type.DUPLICATE_DROPPED, name, m, "");
            return sequencer.next(m.message); // a number of its own, so cancelling it can never hit another message
        }
        if (!m.scheduledEnqueueTime.isAfter(broker.now())) {
            arrive(m, Type.SENT);
            return m.sequenceNumber;
        }
        addScheduled(m);
        return m.sequenceNumber;
    }

    @Override
    public long reserveSequenceNumber(StoredMessage m) {
        m.sequenceNumber = sequencer.next(m.message);
        return m.sequenceNumber;
    }

    private void addScheduled(StoredMessage m) {
        if (m.sequenceNumber == 0) {
            m.sequenceNumber = sequencer.next(m.message);
        }
        m.partitionId = sequencer.partitionOf(m.sequenceNumber);
        m.enqueuedTime = broker.now();
        m.state = MessageState.SCHEDULED;
        main.add(m);
        m.scheduleTimer = broker.timers.schedule(m.scheduledEnqueueTime, () -> activate(m));
        broker.journal(Type.SCHEDULED, name, m, "for " + m.scheduledEnqueueTime);
    }

    /** SCH-4: appended as if enqueued now, with a new sequence number. */
    private void activate(StoredMessage m) {
        m.scheduleTimer = null;
        if (m.store != main) {
            return;
        }
        long scheduledAs = m.sequenceNumber;
        main.remove(m);
        m.state = MessageState.ACTIVE;
        m.sequenceNumber = sequencer.next(m.message);
        m.partitionId = sequencer.partitionOf(m.sequenceNumber);
        m.enqueuedTime = broker.now();
        broker.journal(Type.ACTIVATED, name, m, "scheduled as #" + scheduledAs);
        touch();
        enqueue(m);
    }

    @Override
    public void cancelScheduled(long sequenceNumber) {
        touch();
        StoredMessage m = main.withSequenceNumber(sequenceNumber).stream().findFirst().orElse(null);
        if (m == null || m.state != MessageState.SCHEDULED) {
            throw new BrokerException.MessageNotFound("No scheduled message with sequence number "
                    + sequenceNumber + " in '" + name + "'.");
        }
        broker.timers.cancel(m.scheduleTimer);
        main.remove(m);
        broker.journal(Type.CANCELLED, name, m, "");
    }

    @Override
    void onDelete() {
        super.onDelete();
        duplicates.clear();
    }
}
