package dev.sbemu.core;

import dev.sbemu.core.AuthorizationRule.AccessRight;
import java.util.Locale;
import java.util.Objects;

/**
 * A shared access authorization rule with where it belongs: the namespace ({@link Namespace#authorizationRules()})
 * or a queue or topic (its options' {@code authorizationRules}). A policy of an entity grants its rights on that
 * entity only (spec SEC-2). What {@link Namespace#sharedAccessPolicies()} lists for the endpoint's check. Immutable.
 *
 * @param entity the queue or topic the rule belongs to, or null for a rule of the namespace
 * @param rule the rule
 */
public record SharedAccessPolicy(String entity, AuthorizationRule rule) {

    public SharedAccessPolicy {
        Objects.requireNonNull(rule, "rule");
        entity = entity == null || entity.isEmpty() ? null : entity;
    }

    public String keyName() {
        return rule.keyName();
    }

    public String primaryKey() {
        return rule.primaryKey();
    }

    public String secondaryKey() {
        return rule.secondaryKey();
    }

    /** Whether the policy grants {@code right} ({@link AccessRight#MANAGE} implies the others). */
    public boolean grants(AccessRight right) {
        return rule.rights().contains(right) || rule.rights().contains(AccessRight.MANAGE);
    }

    /** Whether the policy grants every right. */
    public boolean grantsAll() {
        return grants(AccessRight.MANAGE);
    }

    /**
     * Whether the policy reaches the resource at {@code path} (an entity path such as {@code queue}, {@code
     * topic/subscriptions/sub}, or empty for the namespace): a namespace policy reaches everything, an entity's policy
     * its entity and what is below it, case-insensitively.
     */
    public boolean reaches(String path) {
        if (entity == null) {
            return true;
        }
        String p = path.toLowerCase(Locale.ROOT);
        String e = entity.toLowerCase(Locale.ROOT);
        return p.equals(e) || p.startsWith(e + "/");
    }
}
