package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.FilterSyntaxException;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code ServiceBusRuleManagerAsyncClient} for one subscription, backed by the core's rules (RUL-1..7).
 * Arguments and the disposed state are checked eagerly with the SDK's messages; the operation runs
 * when subscribed. Rules travel through {@link RuleCodec}, so what the SDK refuses client-side it
 * refuses here ({@code IllegalArgumentException} for an {@code EmptyRuleAction}), and what comes back
 * is built by the SDK's own decoder. The service's refusals surface as {@code ServiceBusException}s
 * (error source MANAGEMENT): a malformed SQL filter or action, or an invalid rule name, as
 * {@code com.microsoft:argument-error} (reason GENERAL_ERROR); a duplicate name as
 * MESSAGING_ENTITY_ALREADY_EXISTS; an unknown rule, topic or subscription as MESSAGING_ENTITY_NOT_FOUND.
 */
public final class RuleManagerAsyncImpl {
    private final Namespace namespace;
    private final String topic;
    private final String subscription;
    private final CoreCalls calls;

    public RuleManagerAsyncImpl(ClientContext context, String topic, String subscription) {
        this.namespace = context.namespace();
        this.topic = topic;
        this.subscription = subscription;
        this.calls = CoreCalls.ruleManager(context.info(EntityPath.subscription(topic, subscription)));
    }

    public String getFullyQualifiedNamespace() {
        return calls.info().fullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return calls.info().entityPath();
    }

    public Mono<Void> createRule(String ruleName, CreateRuleOptions options) {
        if (options == null) {
            return Mono.error(new NullPointerException("'options' cannot be null."));
        }
        RuntimeException invalid = checkName("createRule", ruleName);
        return invalid != null
                ? Mono.error(invalid)
                : call(() -> {
                    RuleDescription rule = RuleCodec.toCore(ruleName, options);
                    namespace.createRule(topic, subscription, rule.name(), rule.filter(), rule.action());
                    return null;
                });
    }

    public Flux<RuleProperties> listRules() {
        if (calls.isClosed()) {
            return Flux.error(calls.disposed("getRules"));
        }
        return call(() -> RuleCodec.toSdk(namespace.listRules(topic, subscription)))
                .flatMapIterable(list -> list);
    }

    public Mono<Void> deleteRule(String ruleName) {
        RuntimeException invalid = checkName("deleteRule", ruleName);
        return invalid != null
                ? Mono.error(invalid)
                : call(() -> {
                    namespace.deleteRule(topic, subscription, ruleName);
                    return null;
                });
    }

    public void close() {
        calls.close();
    }

    @Override
    public String toString() {
        return "ServiceBusRuleManagerAsyncClient[emulated, " + getEntityPath() + "]";
    }

    private RuntimeException checkName(String operation, String ruleName) {
        if (calls.isClosed()) {
            return calls.disposed(operation);
        }
        if (ruleName == null) {
            return new NullPointerException("'ruleName' cannot be null.");
        }
        if (ruleName.isEmpty()) {
            return new IllegalArgumentException("'ruleName' cannot be an empty string.");
        }
        return null;
    }

    /** The core's refusal of a malformed filter, action or name is the service's argument error. */
    private <T> Mono<T> call(Supplier<T> operation) {
        return calls.callWithoutClosedCheck(ServiceBusErrorSource.MANAGEMENT, () -> {
            try {
                return operation.get();
            } catch (FilterSyntaxException | InvalidOptionException e) {
                throw ErrorMapper.argumentError(e.getMessage(), ServiceBusErrorSource.MANAGEMENT, calls.info());
            }
        });
    }
}
