package dev.sbemu.core.internal;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.JournalEvent.Type;
import dev.sbemu.core.TopicOptions;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** A topic: assigns sequence numbers (RUL-5) and copies each message into its matching subscriptions. */
final class TopicEntity extends Entity implements SendTarget {
    TopicOptions options;
    final Map<String, SubscriptionEntity> subscriptions = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Sequencer sequencer;
    private final DuplicateDetector duplicates;
    /** Scheduled messages wait in the topic; subscriptions see them only when they activate (SCH-7). */
    private final TreeMap<Long, StoredMessage> scheduled = new TreeMap<>();

    TopicEntity(Broker broker, String name, TopicOptions options) {
        super(broker, name);
        this.options = options;
        this.sequencer = new Sequencer(options.enablePartitioning());
        this.duplicates = new DuplicateDetector(broker);
    }

    @Override
    public String name() {
        return name;
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
        return !scheduled.isEmpty();
    }

    @Override
    public Long maxMessageSizeInKilobytes() {
        return options.maxMessageSizeInKilobytes();
    }

    @Override
    public void checkSendable(StoredMessage m) {
        Sending.checkStatus(name, status());
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
        arrive(m, Type.SENT, "");
    }

    private void arrive(StoredMessage m, Type how, String detail) {
        m.sequenceNumber = sequencer.next(m.message);
        m.partitionId = sequencer.partitionOf(m.sequenceNumber);
        m.enqueuedTime = broker.now();
        broker.journal(how, name, m, detail);
        for (SubscriptionEntity subscription : subscriptions.values()) {
            subscription.offer(m);
        }
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
            arrive(m, Type.SENT, "");
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
        m.enqueuedTime = broker.now();
        scheduled.put(m.sequenceNumber, m);
        m.scheduleTimer = broker.timers.schedule(m.scheduledEnqueueTime, () -> activate(m));
        broker.journal(Type.SCHEDULED, name, m, "for " + m.scheduledEnqueueTime);
    }

    private void activate(StoredMessage m) {
        m.scheduleTimer = null;
        if (scheduled.remove(m.sequenceNumber) != m) {
            return;
        }
        touch();
        arrive(m, Type.ACTIVATED, "scheduled as #" + m.sequenceNumber);
    }

    @Override
    public void cancelScheduled(long sequenceNumber) {
        touch();
        StoredMessage m = scheduled.remove(sequenceNumber);
        if (m == null) {
            throw new BrokerException.MessageNotFound("No scheduled message with sequence number "
                    + sequenceNumber + " in '" + name + "'.");
        }
        broker.timers.cancel(m.scheduleTimer);
        broker.journal(Type.CANCELLED, name, m, "");
    }

    int scheduledCount() {
        return scheduled.size();
    }

    long sizeInBytes() {
        long size = 0;
        for (StoredMessage m : scheduled.values()) {
            size += m.size;
        }
        return size;
    }

    @Override
    void onDelete() {
        scheduled.values().forEach(m -> broker.timers.cancel(m.scheduleTimer));
        scheduled.clear();
        duplicates.clear();
        for (SubscriptionEntity subscription : subscriptions.values()) {
            subscription.deleted = true;
            subscription.cancelAutoDelete();
            subscription.onDelete();
        }
        subscriptions.clear();
    }
}
