package dev.sbemu.core.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.MessageState;
import dev.sbemu.core.QueueOptions;
import java.time.Duration;

/** A queue: a message source that senders address directly, with its own sequence numbers (SEQ-2). */
final class QueueEntity extends MessageSource implements SendTarget, Intake.Owner {
    QueueOptions options;
    private final Intake intake;

    QueueEntity(EntityRegistry registry, String name, QueueOptions options) {
        super(registry, EntityPath.queue(name));
        this.options = options;
        this.intake = new Intake(services, this, options.enablePartitioning());
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
        return forwardTo() != null || hasWaitingReceivers() || main.count(MessageState.SCHEDULED) > 0;
    }

    @Override
    public Long maxMessageSizeInKilobytes() {
        return options.maxMessageSizeInKilobytes();
    }

    @Override
    public long maxSizeInBytes() {
        return options.maxSizeInMegabytes() * 1024 * 1024;
    }

    @Override
    public long heldBytes() {
        return main.sizeInBytes + deadLetters.sizeInBytes + transferDeadLetters.sizeInBytes;
    }

    @Override
    public void checkSendable(StoredMessage m) {
        Sending.checkStatus(name, status());
        Sending.checkSession(name, requiresSession(), m);
    }

    @Override
    public Intake intake() {
        return intake;
    }

    // ---- Intake.Owner: scheduled messages wait in the main store, where peek shows them (SCH-3) ----

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
        m.state = MessageState.SCHEDULED;
        main.add(m);
    }

    @Override
    public boolean releaseScheduled(StoredMessage m) {
        if (m.store != main || m.state != MessageState.SCHEDULED) {
            return false;
        }
        main.remove(m);
        return true;
    }

    @Override
    public StoredMessage findScheduled(long sequenceNumber) {
        return main.withSequenceNumber(sequenceNumber).stream()
                .filter(m -> m.state == MessageState.SCHEDULED)
                .findFirst()
                .orElse(null);
    }

    @Override
    public Duration defaultMessageTimeToLive() {
        return options.defaultMessageTimeToLive();
    }

    @Override
    public void arrived(StoredMessage m) {
        enqueue(m);
    }

    @Override
    void onDelete() {
        super.onDelete();
        intake.clear();
    }
}
