package dev.sbemu.core.internal;

import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.TopicOptions;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** A topic: assigns sequence numbers (RUL-5) and copies each message into its matching subscriptions. */
final class TopicEntity extends Entity implements SendTarget, Intake.Owner {
    TopicOptions options;
    final Map<String, SubscriptionEntity> subscriptions = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Intake intake;
    /** Scheduled messages wait in the topic; subscriptions see them only when they activate (SCH-7). */
    private final TreeMap<Long, StoredMessage> scheduled = new TreeMap<>();

    TopicEntity(EntityRegistry registry, String name, TopicOptions options) {
        super(registry, name);
        this.options = options;
        this.intake = new Intake(services, this, options.enablePartitioning());
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

    /**
     * Pending scheduled messages, a forwarding subscription (always receiving, ADI-4) or a receive waiting on a
     * subscription (ADI-5) keep it alive.
     */
    @Override
    boolean busy() {
        return !scheduled.isEmpty()
                || subscriptions.values().stream().anyMatch(s -> s.forwardTo() != null || s.hasWaitingReceivers());
    }

    @Override
    public Long maxMessageSizeInKilobytes() {
        return options.maxMessageSizeInKilobytes();
    }

    @Override
    public long maxSizeInBytes() {
        return options.maxSizeInMegabytes() * 1024 * 1024;
    }

    /** Its scheduled messages and every subscription's messages (a message in two subscriptions counts twice). */
    @Override
    public long heldBytes() {
        long size = sizeInBytes();
        for (SubscriptionEntity s : subscriptions.values()) {
            size += s.main.sizeInBytes + s.deadLetters.sizeInBytes + s.transferDeadLetters.sizeInBytes;
        }
        return size;
    }

    @Override
    public void checkSendable(StoredMessage m) {
        Sending.checkStatus(name, status());
    }

    @Override
    public Intake intake() {
        return intake;
    }

    // ---- Intake.Owner: scheduled messages wait aside; subscriptions see them on activation (SCH-7) ----

    @Override
    public boolean requiresDuplicateDetection() {
        return options.requiresDuplicateDetection();
    }

    @Override
    public Duration duplicateDetectionHistoryTimeWindow() {
        return options.duplicateDetectionHistoryTimeWindow();
    }

    @Override
    public void holdScheduled(StoredMessage m) {
        scheduled.put(m.sequenceNumber, m);
    }

    @Override
    public boolean releaseScheduled(StoredMessage m) {
        return scheduled.remove(m.sequenceNumber, m);
    }

    @Override
    public StoredMessage findScheduled(long sequenceNumber) {
        return scheduled.get(sequenceNumber);
    }

    /** Copies the message into every subscription whose rules match (RUL-1). */
    @Override
    public Duration defaultMessageTimeToLive() {
        return options.defaultMessageTimeToLive();
    }

    @Override
    public void arrived(StoredMessage m) {
        for (SubscriptionEntity subscription : subscriptions.values()) {
            subscription.offer(m);
        }
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
        scheduled.values().forEach(m -> services.timers.cancel(m.scheduleTimer));
        scheduled.clear();
        intake.clear();
        for (SubscriptionEntity subscription : subscriptions.values()) {
            subscription.deleted = true;
            subscription.cancelAutoDelete();
            subscription.onDelete();
        }
        subscriptions.clear();
    }
}
