package dev.sbemu.sdk.internal;

import com.azure.core.util.IterableStream;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;

/**
 * {@code ServiceBusRuleManagerClient}: blocks on the async implementation as the SDK's does;
 * {@link #listRules()} is lazy like the SDK's (the rules are fetched when the result is iterated).
 */
public final class RuleManagerClientImpl {
    private final RuleManagerAsyncImpl async;

    public RuleManagerClientImpl(RuleManagerAsyncImpl async) {
        this.async = async;
    }

    public String getFullyQualifiedNamespace() {
        return async.getFullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return async.getEntityPath();
    }

    public void createRule(String ruleName, CreateRuleOptions options) {
        async.createRule(ruleName, options).block();
    }

    public IterableStream<RuleProperties> listRules() {
        return new IterableStream<>(async.listRules());
    }

    public void deleteRule(String ruleName) {
        async.deleteRule(ruleName).block();
    }

    public void close() {
        async.close();
    }

    @Override
    public String toString() {
        return "ServiceBusRuleManagerClient[emulated, " + async.getEntityPath() + "]";
    }
}
