package dev.sbemu.core.internal;

import dev.sbemu.core.Durations;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.PendingTimer.Kind;
import java.time.Duration;
import java.time.Instant;

/** A queue, topic or subscription: name, timestamps and auto-delete on idle (ADI-1..4). */
abstract class Entity {
    final Services services;
    /** The registry the entity lives in (auto-delete removes it there; forwarding looks up destinations). */
    final EntityRegistry registry;

    final String name;
    final Instant createdAt;
    Instant updatedAt;
    Instant accessedAt;
    private Instant lastActivity;
    private TimerQueue.Timer autoDeleteTimer;
    boolean deleted;

    Entity(EntityRegistry registry, String name) {
        this.services = registry.services;
        this.registry = registry;
        this.name = name;
        this.createdAt = services.now();
        this.updatedAt = createdAt;
        this.accessedAt = EntityRuntimeInfo.NEVER_ACCESSED; // ADI-6: the zero time until first used
        this.lastActivity = createdAt;
    }

    abstract EntityStatus status();

    private TimerQueue.Label autoDeleteLabel() {
        return TimerQueue.Label.of(Kind.AUTO_DELETE, name, "");
    }

    abstract Duration autoDeleteOnIdle();

    /** Whether something keeps the entity from being idle right now (ADI-3, ADI-4). */
    abstract boolean busy();

    /** Drops messages and timers when the entity is deleted. */
    abstract void onDelete();

    /** Records activity: resets the idle timer (ADI-3). */
    public void touch() {
        Instant now = services.now();
        lastActivity = now;
        accessedAt = now;
    }

    /**
     * Something kept the entity in use until now without accessing it (a receive that waited on it ended,
     * ADI-5): its idle time counts from now; {@code accessedAt} stays.
     */
    void inUseUntilNow() {
        lastActivity = services.now();
    }

    /** An update: the idle time restarts (ADI-3), but it is no access (ADI-6: {@code accessedAt} stays). */
    void updated() {
        updatedAt = services.now();
        lastActivity = updatedAt;
        armAutoDelete();
    }

    /** (Re)arms the auto-delete timer from the last activity; the timer re-checks idleness when it fires. */
    void armAutoDelete() {
        services.timers.cancel(autoDeleteTimer);
        autoDeleteTimer = null;
        Duration idle = autoDeleteOnIdle();
        if (!Durations.isUnlimited(idle)) {
            autoDeleteTimer =
                    services.timers.schedule(lastActivity.plus(idle), autoDeleteLabel(), this::onAutoDeleteDue);
        }
    }

    private void onAutoDeleteDue() {
        autoDeleteTimer = null;
        if (deleted || Durations.isUnlimited(autoDeleteOnIdle())) {
            return;
        }
        Instant now = services.now();
        if (busy()) {
            lastActivity = now;
        }
        Instant due = lastActivity.plus(autoDeleteOnIdle());
        if (due.isAfter(now)) {
            autoDeleteTimer = services.timers.schedule(due, autoDeleteLabel(), this::onAutoDeleteDue);
        } else {
            registry.autoDelete(this);
        }
    }

    void cancelAutoDelete() {
        services.timers.cancel(autoDeleteTimer);
        autoDeleteTimer = null;
    }
}
