package dev.sbemu.core;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A shared access authorization rule of a queue or topic (LIM-4): stored with the entity and returned
 * as given; the emulator checks no credentials with it.
 *
 * @param keyName the rule's name, unique in the entity
 * @param primaryKey the primary key, or null
 * @param secondaryKey the secondary key, or null
 * @param rights what the key allows; not empty
 * @param createdAt when the rule was created, or null
 * @param modifiedAt when the rule was last changed, or null
 */
public record AuthorizationRule(
        String keyName,
        String primaryKey,
        String secondaryKey,
        Set<AccessRight> rights,
        Instant createdAt,
        Instant modifiedAt) {

    /** The rights a key can grant. */
    public enum AccessRight {
        MANAGE,
        SEND,
        LISTEN
    }

    public AuthorizationRule {
        Objects.requireNonNull(keyName, "keyName");
        Objects.requireNonNull(rights, "rights");
        if (keyName.isBlank()) {
            throw new InvalidOptionException("authorizationRules.keyName", keyName, "a rule needs a key name");
        }
        if (rights.isEmpty()) {
            throw new InvalidOptionException(
                    "authorizationRules.rights",
                    rights,
                    "the rule '" + keyName + "' needs at least one of Manage, Send and Listen");
        }
        rights = Collections.unmodifiableSet(EnumSet.copyOf(rights));
    }
}
