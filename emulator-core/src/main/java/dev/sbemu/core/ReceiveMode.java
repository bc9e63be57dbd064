package dev.sbemu.core;

/** How a receive settles messages (SPEC LOCK-1). */
public enum ReceiveMode {
    /** The message is locked for the entity's lock duration and settled explicitly. */
    PEEK_LOCK,
    /** The message is removed from the entity as it is delivered. */
    RECEIVE_AND_DELETE
}
