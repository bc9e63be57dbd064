package dev.sbemu.core;

/** An entity's status, as the service has it. */
public enum EntityStatus {
    ACTIVE,
    DISABLED,
    SEND_DISABLED,
    RECEIVE_DISABLED
}
