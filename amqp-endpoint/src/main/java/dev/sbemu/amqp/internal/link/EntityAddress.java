package dev.sbemu.amqp.internal.link;

import dev.sbemu.core.EntityPath;
import java.util.Locale;

/**
 * A link address as the Service Bus SDKs write it: {@code queue}, {@code topic},
 * {@code topic/Subscriptions/sub}, each optionally followed by {@code /$DeadLetterQueue} or
 * {@code /$Transfer/$DeadLetterQueue}. The service compares the keywords case-insensitively.
 */
public final class EntityAddress {
    private static final String SUBSCRIPTIONS = "/subscriptions/";

    private EntityAddress() {}

    /** The entity a receiver link's source address names. */
    public static EntityPath parse(String address) {
        String path = strip(address);
        EntityPath.Part subQueue = EntityPath.Part.NONE;
        String lower = path.toLowerCase(Locale.ROOT);
        if (lower.endsWith(
                EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE.pathSuffix().toLowerCase(Locale.ROOT))) {
            subQueue = EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE;
        } else if (lower.endsWith(EntityPath.Part.DEAD_LETTER_QUEUE.pathSuffix())) {
            subQueue = EntityPath.Part.DEAD_LETTER_QUEUE;
        }
        path = path.substring(0, path.length() - subQueue.pathSuffix().length());
        int subscriptions = path.toLowerCase(Locale.ROOT).indexOf(SUBSCRIPTIONS);
        EntityPath entity = subscriptions < 0
                ? EntityPath.queue(path)
                : EntityPath.subscription(
                        path.substring(0, subscriptions), path.substring(subscriptions + SUBSCRIPTIONS.length()));
        return entity.withSubQueue(subQueue);
    }

    /**
     * The address without a scheme and host ({@code amqp://host/queue} → {@code queue}) and without
     * leading or trailing slashes.
     */
    public static String strip(String address) {
        String path = address == null ? "" : address;
        int scheme = path.indexOf("://");
        if (scheme >= 0) {
            int slash = path.indexOf('/', scheme + 3);
            path = slash < 0 ? "" : path.substring(slash + 1);
        }
        while (path.startsWith("/")) {
            path = path.substring(1);
        }
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path;
    }
}
