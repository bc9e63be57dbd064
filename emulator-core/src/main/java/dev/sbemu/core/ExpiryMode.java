package dev.sbemu.core;

/** How expired messages leave an entity (SPEC TTL-11). */
public enum ExpiryMode {
    /** Expiry happens exactly at {@code expiresAt}, as the clock passes it. Deterministic; the default. */
    EAGER,
    /** As the real broker: expired messages stay visible to peek and counts until a receiver touches the entity. */
    LAZY
}
