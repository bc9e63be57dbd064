package dev.sbemu.sdk.internal;

import dev.sbemu.core.EntityPath;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

/**
 * What identifies a client, as the SDK reports it.
 *
 * @param fullyQualifiedNamespace the namespace's host name
 * @param entityPath the entity path in the SDK's format ({@code topic/subscriptions/sub/$deadletterqueue})
 * @param identifier the client's identifier (a random UUID unless the builder sets one)
 */
public record ClientInfo(String fullyQualifiedNamespace, String entityPath, String identifier) {
    public ClientInfo {
        Objects.requireNonNull(fullyQualifiedNamespace, "fullyQualifiedNamespace");
        Objects.requireNonNull(entityPath, "entityPath");
        Objects.requireNonNull(identifier, "identifier");
    }

    /** A client with a fresh identifier. */
    public static ClientInfo of(String fullyQualifiedNamespace, String entityPath) {
        return new ClientInfo(
                fullyQualifiedNamespace, entityPath, UUID.randomUUID().toString());
    }

    /** The SDK's entity path: {@code queue} or {@code topic/subscriptions/sub}, plus the sub-queue suffix. */
    public static String sdkEntityPath(EntityPath entity) {
        String base = entity.isSubscription()
                ? String.format(Locale.ROOT, "%s/subscriptions/%s", entity.topicOrQueue(), entity.subscription())
                : entity.topicOrQueue();
        return base + entity.subQueue().pathSuffix();
    }
}
