package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.ServiceBusErrorSource;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.implementation.Messages;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.FilterSyntaxException;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private final ClientInfo info;
    private final AtomicBoolean closed = new AtomicBoolean();

    public RuleManagerAsyncImpl(Namespace namespace, String topic, String subscription, ClientInfo info) {
        this.namespace = namespace;
        this.topic = topic;
        this.subscription = subscription;
        this.info = info;
    }

    public String getFullyQualifiedNamespace() {
        return info.fullyQualifiedNamespace();
    }

    public String getEntityPath() {
        return info.entityPath();
    }

    public Mono<Void> createRule(String ruleName, CreateRuleOptions options) {
        if (options == null) {
            return Mono.error(new NullPointerException("'options' cannot be null."));
        }
        RuntimeException invalid = checkName("createRule", ruleName);
        return invalid != null ? Mono.error(invalid) : call(() -> {
            RuleDescription rule = RuleCodec.toCore(ruleName, options);
            namespace.createRule(topic, subscription, rule.name(), rule.filter(), rule.action());
            return null;
        });
    }

    public Flux<RuleProperties> listRules() {
        if (closed.get()) {
            return Flux.error(disposed("getRules"));
        }
        return call(() -> RuleCodec.toSdk(namespace.listRules(topic, subscription))).flatMapIterable(list -> list);
    }

    public Mono<Void> deleteRule(String ruleName) {
        RuntimeException invalid = checkName("deleteRule", ruleName);
        return invalid != null ? Mono.error(invalid) : call(() -> {
            namespace.deleteRule(topic, subscription, ruleName);
            return null;
        });
    }

    public void close() {
        closed.set(true);
    }

    @Override
    public String toString() {
        return "ServiceBusRuleManagerAsyncClient[emulated, " + info.entityPath() + "]";
    }

    private RuntimeException checkName(String operation, String ruleName) {
        if (closed.get()) {
            return disposed(operation);
        }
        if (ruleName == null) {
            return new NullPointerException("'ruleName' cannot be null.");
        }
        if (ruleName.isEmpty()) {
            return new IllegalArgumentException("'ruleName' cannot be an empty string.");
        }
        return null;
    }

    private static IllegalStateException disposed(String operation) {
        return new IllegalStateException(String.format(Messages.INVALID_OPERATION_DISPOSED_RULE_MANAGER, operation));
    }

    private <T> Mono<T> call(Supplier<T> operation) {
        return Mono.defer(() -> {
            try {
                return Mono.justOrEmpty(operation.get());
            } catch (FilterSyntaxException | InvalidOptionException e) {
                return Mono.error(ErrorMapper.argumentError(e.getMessage(), ServiceBusErrorSource.MANAGEMENT, info));
            } catch (RuntimeException e) {
                return Mono.error(ErrorMapper.map(e, ServiceBusErrorSource.MANAGEMENT, info));
            }
        });
    }
}
