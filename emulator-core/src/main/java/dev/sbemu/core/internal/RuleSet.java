package dev.sbemu.core.internal;

import dev.sbemu.core.Message;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.TrueFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The rules of one subscription and the copies they make of a topic message (RUL-1, RUL-7). */
final class RuleSet {
    /** Application property naming the rule whose action made a copy (RUL-7). */
    static final String RULE_NAME_PROPERTY = "RuleName";

    private final Map<String, RuleDescription> rules = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, RuleDescription> inOrder = new LinkedHashMap<>();

    RuleSet(List<RuleDescription> initial) {
        initial.forEach(this::put);
    }

    void put(RuleDescription rule) {
        RuleDescription previous = rules.put(rule.name(), rule);
        if (previous != null) {
            inOrder.remove(previous.name());
        }
        inOrder.put(rule.name(), rule);
    }

    RuleDescription get(String name) {
        return rules.get(name);
    }

    RuleDescription remove(String name) {
        RuleDescription removed = rules.remove(name);
        if (removed != null) {
            inOrder.remove(removed.name());
        }
        return removed;
    }

    List<RuleDescription> list() {
        return new ArrayList<>(inOrder.values());
    }

    /**
     * Rules without action that match give one plain copy; each matching rule with an action its own copy.
     *
     * @throws dev.sbemu.core.filter.FilterEvaluationException when a filter or action fails for this message (RUL-8)
     */
    List<Message> copiesFor(StoredMessage m) {
        if (inOrder.size() == 1) {
            RuleDescription only = inOrder.values().iterator().next();
            if (only.action() == null && only.filter() instanceof TrueFilter) {
                return List.of(m.message);
            }
        }
        List<Message> copies = new ArrayList<>(1);
        boolean plainCopy = false;
        for (RuleDescription rule : inOrder.values()) {
            FilterView view = new FilterView(m);
            if (!rule.filter().matchesOrFails(view)) {
                continue;
            }
            if (rule.action() == null) {
                plainCopy = true;
            } else {
                rule.action().applyTo(view);
                view.applicationProperties().put(RULE_NAME_PROPERTY, rule.name());
                copies.add(view.toMessage());
            }
        }
        if (plainCopy) {
            copies.add(0, m.message);
        }
        return copies;
    }
}
