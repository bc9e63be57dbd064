package dev.sbemu.core;

/** A message's state in its entity, as the service reports it ({@code x-opt-message-state}). */
public enum MessageState {
    ACTIVE(0),
    DEFERRED(1),
    SCHEDULED(2);

    private final int wireValue;

    MessageState(int wireValue) {
        this.wireValue = wireValue;
    }

    /** The value of the {@code x-opt-message-state} annotation. */
    public int wireValue() {
        return wireValue;
    }
}
