package dev.sbemu.sdk.internal;

/**
 * {@code ServiceBusRuleManagerClient} and its async twin. The core has no rule operations yet, so only
 * the identity getters and {@code close} are emulated; {@code createRule}, {@code listRules} and
 * {@code deleteRule} throw {@code UnsupportedOperationException} naming the method.
 */
public final class RuleManagerImpl {
    private final ClientInfo info;

    public RuleManagerImpl(ClientInfo info) {
        this.info = info;
    }

    public String getFullyQualifiedNamespace() {
        return info.fullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return info.entityPath();
    }

    public void close() {
    }

    @Override
    public String toString() {
        return "ServiceBusRuleManagerClient[emulated, " + info.entityPath() + "]";
    }
}
