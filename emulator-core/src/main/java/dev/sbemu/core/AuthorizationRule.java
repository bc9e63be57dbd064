package dev.sbemu.core;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A shared access authorization rule of the namespace or of a queue or topic (LIM-4): a key name, its keys and the
 * rights a token signed with them carries; the endpoint checks tokens and keys against them (spec SEC-1, SEC-2,
 * {@link SharedAccessPolicy}).
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

    /** The rights a key can grant; {@link #MANAGE} implies {@link #SEND} and {@link #LISTEN} (SEC-1). */
    public enum AccessRight {
        MANAGE,
        SEND,
        LISTEN;

        /** The name the service uses: {@code Manage}, {@code Send}, {@code Listen}. */
        public String wireName() {
            String name = name();
            return name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT);
        }

        /** The right named {@code name} (case-insensitive), or null. */
        public static AccessRight parse(String name) {
            for (AccessRight right : values()) {
                if (right.name().equalsIgnoreCase(name)) {
                    return right;
                }
            }
            return null;
        }
    }

    /** A rule with no times. */
    public static AuthorizationRule of(String keyName, String primaryKey, AccessRight... rights) {
        return new AuthorizationRule(keyName, primaryKey, null, Set.of(rights), null, null);
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
