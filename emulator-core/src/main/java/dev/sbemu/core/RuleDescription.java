package dev.sbemu.core;

import dev.sbemu.core.filter.RuleFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import dev.sbemu.core.filter.TrueFilter;
import java.util.Objects;

/**
 * A subscription rule (RUL-1): a filter and an optional SQL action.
 *
 * @param name the rule name ({@value #DEFAULT_RULE_NAME} for the rule every new subscription gets)
 * @param filter the filter
 * @param action the action, or null
 */
public record RuleDescription(String name, RuleFilter filter, SqlRuleAction action) {
    /** The name of the true-filter rule a new subscription gets. */
    public static final String DEFAULT_RULE_NAME = "$Default";

    public RuleDescription {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(filter, "filter");
    }

    /** The {@code $Default} rule: a true filter and no action. */
    public static RuleDescription defaultRule() {
        return new RuleDescription(DEFAULT_RULE_NAME, new TrueFilter(), null);
    }
}
